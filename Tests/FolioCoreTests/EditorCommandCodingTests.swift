import FolioCore
import Foundation
import XCTest

/// An editor command is read from and written to manifest JSON as the generated manifests have always written it.
final class EditorCommandCodingTests: XCTestCase {
    private func decode(_ json: String) throws -> EditorCommand {
        try JSONDecoder().decode(EditorCommand.self, from: Data(json.utf8))
    }

    private func encode(_ command: EditorCommand) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(command), as: UTF8.self)
    }

    func testGivenOnlyAnIDWhenDecodedThenTitleAndUsageAreTheIDAndThereIsNoShortcut() throws {
        let command = try decode(#"{"id": "sort"}"#)
        XCTAssertEqual(command, EditorCommand(id: "sort", title: "sort", usage: "sort"))
        XCTAssertNil(command.shortcut)
        XCTAssertFalse(command.needsSelection)
    }

    func testGivenAnEmptyShortcutWhenDecodedThenThereIsNone() throws {
        XCTAssertNil(try decode(#"{"id": "sort", "shortcut": ""}"#).shortcut)
        XCTAssertEqual(try decode(#"{"id": "toggle", "shortcut": "space"}"#).shortcut, "space")
    }

    func testGivenACommandWithoutShortcutWhenEncodedThenEveryKeyIsWrittenAndTheShortcutIsEmpty() throws {
        let command = EditorCommand(id: "sort", title: "Sort", usage: "sort")
        XCTAssertEqual(try encode(command), #"{"id":"sort","needsSelection":false,"shortcut":"","title":"Sort","usage":"sort"}"#)
        XCTAssertEqual(try decode(try encode(command)), command)
    }

    func testGivenAFullCommandWhenEncodedAndDecodedThenItIsUnchanged() throws {
        let command = EditorCommand(id: "delete", title: "Delete item", shortcut: "d", needsSelection: true, usage: "delete N")
        XCTAssertEqual(try encode(command), #"{"id":"delete","needsSelection":true,"shortcut":"d","title":"Delete item","usage":"delete N"}"#)
        XCTAssertEqual(try decode(try encode(command)), command)
    }

    func testGivenAnEmptyShortcutWhenCreatedThenItIsTheSameCommandAsOneWithNone() {
        XCTAssertEqual(EditorCommand(id: "a", title: "A", shortcut: ""), EditorCommand(id: "a", title: "A"))
    }
}
