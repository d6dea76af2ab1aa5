@testable import FolioPlugins
import Foundation
import XCTest

final class StoryPluginTests: XCTestCase {
    private func open(_ markdown: String) throws -> HostedDocument {
        try HostedPlugins.editor("story").open(Data(markdown.utf8))
    }

    func testGivenMarkdownItDidNotWriteWhenOpenedAndSavedThenEveryByteIsKeptAndEachHeadingGainsOnlyItsId() throws {
        let markdown = """
        Some front matter-ish text.
        # The Long Way

        A preface *with* emphasis.

        ## Act I: Departure
        Act notes.
        ### The Call
        It begins.
        ```
        ## not an act, inside a fence
        ```

        #### A subheading stays in the scene
        ##No space is not a heading
        ## Interlude   ##
        ### Scene without trailing newline
        end
        """
        let document = try open(markdown)
        let saved = try document.text
        XCTAssertEqual(StoryTags.stripped(saved), markdown)
        XCTAssertEqual(saved.components(separatedBy: " <!-- folio {\"id\":").count - 1, 4, saved)
        // And Markdown it wrote comes back byte for byte, ids and all
        XCTAssertEqual(try open(saved).text, saved)
        let crlf = "# T\r\n## Act I: A\r\n### S\r\ntext\r\n"
        XCTAssertEqual(try open(crlf).text, crlf)
    }

    func testGivenAStoryWhenActsAndScenesAreAddedThenTheMarkdownHasTheStructureAndTheViewCountsWords() throws {
        var (document, description) = try open("# Voyage\n").apply("add-act", "Departure")
        XCTAssertEqual(description, "added Act I: 'Departure'")
        (document, description) = try document.apply("add-scene", "1", "The Call")
        XCTAssertEqual(description, "added scene 'The Call' to act 1")
        (document, _) = try document.apply("add-scene", "1", "The Refusal")
        (document, description) = try document.apply("set-text", "1", "2", "She said no.\nTwice.")
        XCTAssertEqual(description, "set the text of scene 'The Refusal' (4 words)")
        (document, _) = try document.apply("add-act", "Return")
        (document, description) = try document.apply("move-scene", "1", "2", "2", "1")
        XCTAssertEqual(description, "moved scene 'The Refusal' to act 2, position 1")
        (document, description) = try document.apply("rename-scene", "2", "1", "The Answer")
        XCTAssertEqual(description, "renamed scene 'The Refusal' to 'The Answer'")
        XCTAssertEqual(StoryTags.stripped(try document.text), """
        # Voyage

        ## Act I: Departure

        ### The Call

        ## Act II: Return

        ### The Answer

        She said no.
        Twice.


        """)
        XCTAssertEqual(try document.render(width: 40, height: 10), [
            "Voyage                           4 words",
            " 1 Act I: Departure              0 words",
            "   1.1 The Call                  0 words",
            " 2 Act II: Return                4 words",
            "   2.1 The Answer                4 words",
        ])
    }

    func testGivenBadPositionsWhenAppliedThenThePluginRefusesThem() throws {
        let document = try open("# T\n## Act I: A\n### S\ntext\n")
        for (command, arguments) in [("add-scene", ["2", "X"]), ("rename-scene", ["1", "2", "X"]), ("move-scene", ["1", "1", "1", "3"]),
                                     ("set-text", ["one", "1", "x"]), ("set-text", ["1", "1", "## sneaky act"]), ("add-act", [])] {
            XCTAssertThrowsError(try document.applying(command, arguments: arguments), "\(command) \(arguments)") { error in
                XCTAssertEqual((error as? EditorOperationError)?.kind, .invalidArgument, "\(error)")
            }
        }
    }
}
