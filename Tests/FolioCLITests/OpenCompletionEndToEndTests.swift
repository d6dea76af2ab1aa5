import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// The real `folio` in tmux (issue 23): the launcher's Open… completes paths with Tab and, given a folder of
/// documents, lists them to choose from. Every wait is bounded; the tmux server is killed in tearDown.
final class OpenCompletionEndToEndTests: TmuxTestCase {
    override var session: String { "open" }
    override var defaultTimeout: TimeInterval { 8 }
    override var paneShowsTerminalSettings: Bool { false }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(at: docs.appendingPathComponent("notes"), withIntermediateDirectories: true)
        for name in ["groceries", "garden"] { createDocument("notes/\(name)") }
    }

    func startLauncher(width: Int = 100, height: Int = 30) throws {
        try start([], width: width, height: height)
        waitFor(text: "Update Templates")
    }

    func testTabCompletesThePathAndEnterOpensTheDocument() throws {
        // Given the launcher in a folder holding notes/groceries and notes/garden
        try startLauncher()
        // When Open… is chosen, "no" typed and Tab pressed, then "gr" and Tab
        try press("o", until: "Path")
        try type("no")
        try press("Tab", until: "notes/")
        try type("gr")
        try keys("Tab")
        // Then the path is completed to the document
        waitFor(text: "notes/groceries")
        // And ⏎ opens it in the editor
        try press("Enter", until: "(0/13 done)")
        try press("C-q", until: "FOLIO-EXIT=0")
    }

    func testEnterOnAFolderOfDocumentsListsThemToChooseFrom() throws {
        // Given the launcher
        try startLauncher()
        // When Open… is given the folder "notes" and ⏎
        try press("o", until: "Path")
        try type("notes")
        try keys("Enter")
        // Then its documents are listed, nothing refused
        let listed = waitFor(text: "Documents in notes/")
        XCTAssertTrue(listed.contains("garden") && listed.contains("groceries"), listed)
        XCTAssertFalse(listed.contains("✗"), listed)
        // And ↓ ⏎ opens the second one (names sorted: garden, groceries)
        try keys("Down")
        try press("Enter", until: "(0/13 done)")
        XCTAssertTrue(capture().contains("groceries"), capture())
        try press("C-q", until: "FOLIO-EXIT=0")
    }
}
