import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// `folio open A B` opens both documents in one `folio`, one tab each; ^T switches, ^W closes one, and the window
/// opens them again next time.
extension TerminalEndToEndTests {
    func testGivenTwoDocumentsOpenedTogetherWhenSwitchedClosedAndReopenedThenEachTabBehavesAndTheWindowRemembersThem() throws {
        let list = createDocument("list")
        let created = runFolio(["new", "story", "--template", "story/three-act", "--defaults"], environment: env, cwd: docs)
        XCTAssertEqual(created.status, 0, created.stderr)
        // Given both open in one folio, the first shown
        try start(["open", list.path, docs.appendingPathComponent("story").path, "--scene", "tabs"])
        let first = waitFor(text: "(0/13 done)")
        XCTAssertTrue(first.split(separator: "\n").first?.contains("2 Story") == true, first)
        // When the cursor moves to Bread, then ^T ↓ ⏎ shows the story
        try keys("Down", "Down")
        waitFor(text: "> 3 [ ] Bread")
        try keys("C-t")
        waitFor(text: "Open documents")
        try keys("Down", "Enter")
        waitFor(text: "Act I")
        // And switching back finds the cursor where it was
        try keys("C-t")
        waitFor(text: "▸ • 2  Story")
        try keys("Up", "Enter")
        waitFor(text: "> 3 [ ] Bread")
        // Then ^W closes the groceries' tab and the story is shown, alone
        try keys("C-w")
        let story = waitFor(text: "Act I")
        XCTAssertFalse(story.contains("2 Story"), "one document left, no tab row:\n\(story)")
        try keys("C-q")
        assertRestored(status: 0)
        // And the window opens the story again next time
        let again = try startWindow(["launch", "--scene", "tabs"])
        waitFor(text: "Act I", target: again)
        try keys("C-q", target: again)
        assertRestored(status: 0, target: again)
    }

    func testGivenTwoDocumentsOpenWhenCtrlT2AndCtrlTNThenTheSecondShowsTheLauncherNamesBothAndEscReturnsToTheDocument() throws {
        let list = createDocument("list")
        let created = runFolio(["new", "story", "--template", "story/three-act", "--defaults"], environment: env, cwd: docs)
        XCTAssertEqual(created.status, 0, created.stderr)
        // Given both open in one folio at 60 columns, the list shown
        try start(["open", list.path, docs.appendingPathComponent("story").path, "--scene", "tabs2"], until: "(0/13 done)", width: 60, height: 16)
        // When ^T 2 is typed, then the story shows at once
        try keys("C-t")
        waitFor(text: "╭─ Open documents")
        try keys("2")
        waitFor(text: "Act I")
        // And ^T n opens the launcher, its top row naming both documents
        try keys("C-t")
        waitFor(text: "╭─ Open documents")
        try keys("n")
        let launcher = waitFor("the launcher") { !$0.contains("Act I") && !$0.contains("Open documents") }
        XCTAssertTrue(launcher.split(separator: "\n").first.map { $0.contains("1 ") && $0.contains("2 Story") } == true, launcher)
        // Then Esc returns to the story
        try keys("Escape")
        waitFor(text: "Act I")
        try keys("C-q")
        assertRestored(status: 0)
    }
}
