import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// A command's arguments asked in one form, and a rename starting from the current title, driven through tmux.
extension TerminalEndToEndTests {
    func testGivenShapesWhenAIsPressedThenOneFormAsksAllSixArgumentsChecksEachAsLeftAndAddsTheShapeInOneCommit() throws {
        // Given an empty drawing open in the editor
        let created = runFolio(["new", "drawing", "--template", "shapes/blank", "--defaults"], environment: env, cwd: docs)
        XCTAssertEqual(created.status, 0, created.stderr)
        let document = docs.appendingPathComponent("drawing")
        try start(["open", document.path], until: "org.folio.shapes")
        // When `a` is pressed: one form with all six fields, readable labels, no usage words
        try keys("a")
        let form = waitFor("the add form") { ["Add shape", "Kind", "X", "Y", "Width", "Height", "Color"].allSatisfy($0.contains) }
        XCTAssertTrue(form.contains("[rect]"), form)
        for raw in ["usage", "rect|ellipse", "W:int", "H:int+", "[COLOR]"] { XCTAssertFalse(form.contains(raw), "\(raw) shows:\n\(form)") }
        // A refused Width is said on its field as it is left, the other values kept
        try keys("Right", "Tab")
        try fill("3", "2", "0")
        let refused = waitFor(text: "Width must be a whole number of at least 1, got '0'")
        XCTAssertTrue(refused.contains("[ellipse]") && refused.contains("3") && refused.contains("2"), refused)
        XCTAssertEqual(folioLog(document).count, 1, "nothing was run")
        try keys("BSpace")
        try fill("8", "4")
        try type("red")
        try keys("Enter")
        // Then one command adds the shape with every value
        waitFor("the add commit") { _ in self.folioLog(document).first?.contains("added ellipse 1 at (3, 2), 8 x 4, red") == true }
        XCTAssertEqual(folioLog(document).count, 2, "one commit")
        try keys("C-q")
        assertRestored(status: 0)
    }

    func testGivenTheCursorOnBreadWhenRenameIsPressedThenTheTitleStartsAsBreadAndARangeIsRefusedBeforeAsking() throws {
        // Given the groceries list with items 1-2 selected
        let document = createDocument("rename-prefill")
        try start(["open", document.path], until: "(0/13 done)")
        try keys("v", "Down", "r")
        // Then rename says it takes one item before asking anything
        waitFor(text: "acts on one item, and 2 are selected")
        XCTAssertFalse(capture().contains("Title:"), capture())
        // When the cursor is on Bread alone and `r` is pressed, the title starts as "Bread"
        try press("Escape", "Down", "r", until: "Rename item — Title: Bread")
        try keys("End")
        try type(" rolls")
        try press("Enter", until: "renamed 'Bread' to 'Bread rolls'")
        XCTAssertEqual(Array(items(document).prefix(3)), ["[ ] Milk", "[ ] Eggs", "[ ] Bread rolls"])
        try keys("C-q")
        assertRestored(status: 0)
    }
}
