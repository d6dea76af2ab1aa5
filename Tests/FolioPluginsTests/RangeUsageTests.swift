import FolioCore
@testable import FolioPlugins
import Foundation
import XCTest

/// The bundled editors declare in their usage which commands take a range (`N:range`) and which one item (`N`), so the
/// host can refuse a range before asking anything and the validator sends ranges only where they are taken.
final class RangeUsageTests: XCTestCase {
    private func rangeWords(_ editor: String) throws -> [String: Bool] {
        let commands = try HostedPlugins.editor(editor).manifest.commands
        var result: [String: Bool] = [:]
        for command in commands { result[command.id] = command.argumentNames.contains(where: EditorCommand.acceptsRange) }
        return result
    }

    func testGivenTheBundledEditorsWhenTheirUsageIsReadThenRangeCommandsDeclareRangesAndSingleItemCommandsDoNot() throws {
        // Given the checklist, story and shapes editors
        // When their commands' usage words are read
        // Then delete, toggle and move (and the story's delete-scene and move-scene) take ranges; rename takes one item
        let checklist = try rangeWords("checklist")
        XCTAssertEqual(checklist["rename"], false)
        XCTAssertEqual(checklist["toggle"], true)
        XCTAssertEqual(checklist["delete"], true)
        XCTAssertEqual(checklist["move"], true)
        let story = try rangeWords("story")
        XCTAssertEqual(story["delete-scene"], true)
        XCTAssertEqual(story["move-scene"], true)
        XCTAssertEqual(story["rename-scene"], false)
        XCTAssertEqual(story["rename-act"], false)
        let shapes = try rangeWords("shapes")
        XCTAssertEqual(shapes, ["add": false, "move": true, "resize": true, "delete": true, "color": true])
    }

    func testGivenAStoryWhenARangeOfScenesIsMovedThenTheyMoveTogetherInOrder() throws {
        // Given two acts, the first with three scenes
        var story = try HostedPlugins.editor("story").open(Data("## Act I: A\n### One\n### Two\n### Three\n## Act II: B\n### Four\n".utf8))
        // When scenes 1.3 back to 1.2 move to act 2, position 1
        let description: String
        (story, description) = try story.apply("move-scene", "1", "3-2", "2", "1")
        // Then both are there in their order, before Four
        XCTAssertEqual(description, "moved scenes 'Two', 'Three' to act 2, position 1")
        XCTAssertEqual(try story.render(width: 30, height: 8).map { String($0.prefix(12)) },
                       ["Untitled sto", " 1 Act I: A ", "   1.1 One  ", " 2 Act II: B", "   2.1 Two  ", "   2.2 Three", "   2.3 Four "])
    }
}
