import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// Two `folio` windows racing on one checklist, and a range command, driven through tmux like a user would.
extension TerminalEndToEndTests {
    /// The checklist's items as `folio view` prints them ("[ ] Milk", …).
    func items(_ document: URL) -> [String] {
        let view = runFolio(["view", document.path, "--width", "60", "--height", "40"], environment: env, cwd: docs).stdout
        return view.split(separator: "\n").dropFirst().map { $0.drop { $0 == " " || $0.isNumber }.trimmingCharacters(in: .whitespaces) }
    }

    func testGivenWindow2RenamingItem3WhenWindow1DeletesItem1FirstThenTheRenameLandsOnTheItemWindow2Showed() throws {
        let document = createDocument("race")
        let two = try openInTwoWindows(document, scenes: "one", "two", until: "(0/13 done)")
        // Window 2 starts renaming item 3 (Bread).
        try press("Down", "Down", until: "> 3 [ ] Bread", target: two)
        try press("r", until: "Rename item", target: two)
        try type("Rye", target: two)
        // Window 1 deletes item 1 (Milk); window 2 shows it while its prompt stays open.
        try press("d", until: "(0/12 done)")
        waitFor(text: "(0/12 done)", target: two)
        try press("Enter", until: "renamed 'Bread' to 'Rye'", target: two)
        XCTAssertEqual(Array(items(document).prefix(4)), ["[ ] Eggs", "[ ] Rye", "[ ] Butter", "[ ] Cheese"], "Butter (item 3 now) is untouched")
        let log = folioLog(document)
        XCTAssertTrue(log.count >= 2 && log[0].hasSuffix("renamed 'Bread' to 'Rye'") && log[1].hasSuffix("deleted 'Milk'"), "one commit each: \(log)")
        try keys("C-q", target: two)
        try keys("C-q")
        assertRestored(status: 0)
    }

    func testGivenWindow2RenamingAnItemWindow1DeletedMeanwhileThenItIsRefusedAndNoOtherItemChanges() throws {
        let document = createDocument("refuse")
        let two = try openInTwoWindows(document, scenes: "one", "two", until: "(0/13 done)")
        try press("Down", "Down", until: "> 3 [ ] Bread", target: two)
        try keys("r", target: two)
        try type("Rye", target: two)
        try press("Down", "Down", until: "> 3 [ ] Bread")
        try keys("d")
        waitFor(text: "(0/12 done)", target: two)
        let before = items(document)
        try keys("Enter", target: two)
        let screen = waitFor(text: "conflicts with a change made to the document", target: two)
        XCTAssertTrue(screen.contains("3 [ ] Butter"), "the window shows the newest version:\n\(screen)")
        XCTAssertEqual(items(document), before, "nothing was changed")
        XCTAssertFalse(items(document).contains("[ ] Rye"))
        try keys("C-q", target: two)
        try keys("C-q")
        assertRestored(status: 0)
    }

    func testGivenThreeItemsSelectedWhenDIsPressedThenTheyAreDeletedAsOneCommit() throws {
        let document = createDocument("range")
        try start(["open", document.path], until: "(0/13 done)")
        try press("Down", "v", "Down", "Down", until: "> 4 [ ] Butter")
        try press("d", until: "(0/10 done)")
        XCTAssertEqual(Array(items(document).prefix(3)), ["[ ] Milk", "[ ] Cheese", "[ ] Apples"])
        let log = folioLog(document)
        XCTAssertTrue(log.first?.hasSuffix("deleted 3 items ('Eggs' … 'Butter')") == true, "\(log)")
        XCTAssertEqual(log.count, 2, "one commit after the first: \(log)")
        try keys("C-q")
        assertRestored(status: 0)
    }
}
