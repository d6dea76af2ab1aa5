import FolioCLI
import FolioTerminal
import FolioCLITestSupport
import Foundation
import XCTest

/// Every line `folio view --width W` prints fits in W terminal cells, measured with the screen's own width function,
/// whatever characters the document holds; columns an editor lines up stay whole.
final class ViewWidthTests: XCTestCase {
    func testGivenAChecklistItemWithCJKAndEmojiWhenViewedAt100ColumnsThenNoLineIsWiderThan100Cells() throws {
        // Given a checklist with a long item of wide characters
        let dir = TemporaryDirectory()
        let env = dir.environment()
        XCTAssertEqual(runFolio(["new", "list", "--template", "checklist/groceries"], environment: env, cwd: dir.url).status, 0)
        let item = "寿司と刺身🍣🍣 " + String(repeating: "a long item name ", count: 8)
        XCTAssertEqual(runFolio(["edit", "list", "add", item], environment: env, cwd: dir.url).status, 0)
        // When it is viewed at 100 columns
        let result = runFolio(["view", "list", "--width", "100", "--height", "40"], environment: env, cwd: dir.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        // Then every line fits, and the long one is cut with an ellipsis at the edge
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.contains("寿司と刺身") })
        for line in lines { XCTAssertLessThanOrEqual(DisplayWidth.width(of: line), 100, line) }
        XCTAssertEqual(lines.first { $0.contains("寿司") }.map { DisplayWidth.width(of: $0) }, 100)
    }

    func testGivenAStorySceneWithWideCharactersWhenViewedThenItsWordCountStaysWholeAndLinedUp() throws {
        // Given a story whose scene title has CJK and an emoji
        let dir = TemporaryDirectory()
        let env = dir.environment()
        XCTAssertEqual(runFolio(["new", "tale", "--template", "story/three-act"], environment: env, cwd: dir.url).status, 0)
        XCTAssertEqual(runFolio(["edit", "tale", "add-scene", "1", "灯台の物語 🏠 長い名前"], environment: env, cwd: dir.url).status, 0)
        // When it is viewed at 60 columns
        let result = runFolio(["view", "tale", "--width", "60"], environment: env, cwd: dir.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        // Then the scene's line ends in its whole word count at column 60, like every other line
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let scene = try XCTUnwrap(lines.first { $0.contains("灯台") })
        XCTAssertTrue(scene.hasSuffix("0 words"), scene)
        for line in lines where line.hasSuffix(" words") { XCTAssertEqual(DisplayWidth.width(of: line), 60, line) }
    }
}
