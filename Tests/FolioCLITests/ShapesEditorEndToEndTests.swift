import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// Shapes, through the real `folio` in tmux: move and resize act on a selected range
/// (the first shape gets the values, the others the same change), and a colour comes from the named list and shows
/// on the shape.
final class ShapesEditorEndToEndTests: EndToEndTmuxTestCase {
    /// A drawing with a red rect 1 at (1, 1) 4×2 and a blue ellipse 2 at (10, 3) 6×3.
    func drawing() -> URL {
        let document = create("drawing", template: "shapes/blank")
        folio(["edit", document.path, "add", "rect", "1", "1", "4", "2", "red"])
        folio(["edit", document.path, "add", "ellipse", "10", "3", "6", "3", "blue"])
        return document
    }

    /// The two-shape drawing open in the editor (scene `scene`), both shapes selected (Home v j).
    func bothShapesSelected(scene: String, width: Int = 100, height: Int = 30) throws -> URL {
        let document = drawing()
        try start(["open", document.path, "--scene", scene], until: "ellipse at (10, 3), 6 x 3", width: width, height: height)
        try press("Home", "v", "j", until: "2 selected")
        return document
    }

    func testGivenBothShapesSelectedAt60x16WhenMovedThenBothMoveByTheSameOffsetInOneCommit() throws {
        // Given both shapes selected (Home v j) at 60×16
        let document = try bothShapesSelected(scene: "i23-move", width: 60, height: 16)
        // When `m` moves them so that the first is at (3, 2)
        try press("m", until: "Move shapes")
        try submit(["X": "3", "Y": "2"])
        // Then both moved by (+2, +1), one commit, no range refused
        let screen = waitFor("both shapes moved") { $0.contains("rect at (3, 2), 4 x 2") && $0.contains("ellipse at (12, 4), 6 x 3") }
        XCTAssertFalse(screen.contains("must be a shape number"), screen)
        XCTAssertTrue(log(document).first?.contains("moved shapes 1-2 by (+2, +1)") == true, "\(log(document))")
        XCTAssertEqual(log(document).count, 4)
        try quit()
    }

    func testGivenBothShapesSelectedWhenResizedThenBothGrowByTheSameChangeInOneCommit() throws {
        // Given both shapes selected
        let document = try bothShapesSelected(scene: "i23-resize")
        // When `s` resizes them so that the first is 6×3
        try press("s", until: "Resize shapes")
        try submit(["Width": "6", "Height": "3"])
        // Then both grew by (+2, +1)
        let screen = waitFor("both shapes resized") { $0.contains("rect at (1, 1), 6 x 3") && $0.contains("ellipse at (10, 3), 8 x 4") }
        XCTAssertFalse(screen.contains("must be a shape number"), screen)
        XCTAssertTrue(log(document).first?.contains("resized shapes 1-2 by (+2, +1)") == true, "\(log(document))")
        try quit()
    }

    func testGivenTheAddFormWhenChartreuseIsTypedAsTheColourThenANamedColourIsTakenAndShownOnTheShape() throws {
        // Given the add form on the drawing
        let document = drawing()
        try start(["open", document.path, "--scene", "i23-colour"], until: "ellipse at (10, 3), 6 x 3")
        try press("a", until: "Add shape")
        // When the fields are filled and "chartreuse" typed into Color
        for (label, value) in [("X", "20"), ("Y", "1"), ("Width", "3"), ("Height", "2")] { try setField(label, value) }
        try focusField("Color")
        try type("chartreuse")
        // Then the field holds a colour from the list, never "chartreuse", and the new shape shows its colour name
        let form = waitFor(text: "Color")
        XCTAssertFalse(form.contains("chartreuse"), form)
        try keys("Enter")
        let screen = waitFor("the third shape") { $0.contains("3 ") && $0.contains("rect at (20, 1), 3 x 2") }
        let names = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]
        let row = rows(screen).first { $0.contains("rect at (20, 1)") } ?? ""
        XCTAssertTrue(names.contains { row.contains($0) }, "the colour's name on the shape:\n\(screen)")
        XCTAssertFalse(screen.contains("chartreuse"), screen)
        XCTAssertFalse(view(document).contains("chartreuse"))
        try quit()
    }

    func testGivenAShapeBeyondTheCanvasAt60x16WhenTheCursorIsOnItThenTheCanvasShowsItAndSaysWhatIsOutOfSight() throws {
        // Given a rect at (1, 1) and an ellipse at (90, 3), far right of a 60-column canvas
        let document = create("far", template: "shapes/blank")
        folio(["edit", document.path, "add", "rect", "1", "1", "4", "2", "red"])
        folio(["edit", document.path, "add", "ellipse", "90", "3", "8", "3", "blue"])
        try start(["open", document.path, "--scene", "i23-canvas"], until: "ellipse at (90, 3)", width: 60, height: 16)
        try keys("Home")
        // Then the canvas says a shape is out of sight
        waitFor(text: "1 out of sight")
        // When the cursor moves to the far ellipse
        try keys("j")
        // Then the canvas shows it (its number drawn below the canvas header)
        waitFor("the ellipse on the canvas") { screen in
            let all = self.rows(screen)
            guard let header = all.firstIndex(where: { $0.contains("canvas") }) else { return false }
            // (not the status line or the key bar, which name the shape in words)
            return all[(header + 1)...].contains { $0.contains("2") && !$0.contains("ellipse") && !$0.contains("·") && !$0.contains("Add shape") }
        }
        try quit()
    }
}
