import FolioCore
import XCTest

/// A usage word says whether a command takes a range of items: `N` one item, `N:range` one or a range `A-B`.
final class CommandArgumentRangeTests: XCTestCase {
    func testGivenARangeWordWhenReadThenItIsAnItemArgumentThatTakesARange() {
        // Given the usage words of a command on ranges and of one on a single item
        // When they are read
        // Then `N:range` (bracketed or not) is an item argument taking ranges, and `N` one taking a single item
        let range = CommandArgument(usageWord: "N:range")
        XCTAssertEqual(range.name, "N")
        XCTAssertTrue(range.acceptsRange)
        XCTAssertEqual(range.kind, .positiveInteger)
        XCTAssertTrue(EditorCommand.isItemArgument("N:range"))
        XCTAssertTrue(EditorCommand.isItemArgument("[N:range]"))
        XCTAssertTrue(EditorCommand.acceptsRange("[N:range]"))
        XCTAssertTrue(EditorCommand.acceptsRange("SCENE:range"))
        XCTAssertFalse(EditorCommand.acceptsRange("N"))
        XCTAssertTrue(EditorCommand.isItemArgument("N"))
        XCTAssertFalse(EditorCommand.isItemArgument("TITLE"))
    }

    func testGivenARangeWordWhenValuesAreCheckedThenNumbersAndRangesOfThemPassAndOthersAreRefusedInWords() {
        // Given a SCENE:range argument
        let scene = CommandArgument(usageWord: "SCENE:range")
        // When values are checked as they are typed
        // Then one number or a range either way round passes; zero, a half range or text is refused naming SCENE
        for good in ["3", "2-4", "4-2", " 1-1 "] { XCTAssertNil(scene.problem(with: good), good) }
        for bad in ["0", "0-2", "2-", "a-b", "x"] { XCTAssertNotNil(scene.problem(with: bad), bad) }
        XCTAssertEqual(scene.problem(with: "2-"), "SCENE must be a number or a range like 2-4, got '2-'")
        XCTAssertEqual(CommandArgument(usageWord: "N").problem(with: "2-4"), nil, "a plain N is the host's to refuse, by acceptsRange")
    }
}
