import FolioCore
@testable import FolioPlugins
import Foundation
import FolioTestSupport
import XCTest

/// The checklist plugin reads JSON with FolioPluginKit's `PluginJSON` (no Foundation in plugins): what its fast
/// scanner leaves is read field by field, with the messages Foundation's `JSONDecoder` gave for the same files.
final class ChecklistReaderTests: XCTestCase {
    private func open(_ json: String) throws -> HostedDocument {
        try HostedPlugins.editor("checklist").open(Data(json.utf8))
    }

    func testGivenMalformedChecklistsWhenOpenedThenEachIsRefusedWithJSONDecodersMessage() throws {
        let cases = [
            ("[1,2]", "wrong type at the top level: Expected to decode Dictionary<String, Any> but found an array instead."),
            ("null", "missing value at the top level"),
            ("{\"title\": 1}", "wrong type at title: Expected to decode String but found number instead."),
            ("{\"items\": 3}", "wrong type at items: Expected to decode Array<Any> but found number instead."),
            ("{\"items\": {}}", "wrong type at items: Expected to decode Array<Any> but found a dictionary instead."),
            ("{\"items\": [1]}", "wrong type at items, item 1: Expected to decode Dictionary<String, Any> but found number instead."),
            ("{\"items\": [{\"checked\": true}]}", "missing 'title' at items, item 1"),
            ("{\"items\": [{\"title\": null}]}", "missing value at items, item 1, title"),
            ("{\"title\": \"a\", \"items\": [{\"title\": \"b\"}, {\"title\": []}]}", "wrong type at items, item 2, title: Expected to decode String but found an array instead."),
            ("{\"items\": [{\"title\": \"a\", \"checked\": \"x\"}]}", "wrong type at items, item 1, checked: Expected to decode Bool but found a string instead."),
            ("{", "not a valid checklist: not valid JSON"),
            ("{\"title\": \"\\ud800\"}", "not a valid checklist: not valid JSON"),
            ("{\"title\": \"a\"} x", "not a valid checklist: not valid JSON"),
        ]
        for (json, message) in cases {
            XCTAssertThrowsError(try open(json), json) { error in
                XCTAssertEqual((error as? EditorOperationError)?.kind, .invalidDocument, json)
                XCTAssertEqual((error as? EditorOperationError)?.message, message, json)
            }
        }
    }

    func testGivenJSONOnlyTheFullReaderTakesWhenOpenedThenNullsRepeatedKeysEscapesAndTrailingCommasReadAsBefore() throws {
        // Given checklists the fast scanner leaves: nulls for optional fields, a repeated key (the first wins, as with
        // JSONDecoder), escapes with a surrogate pair, and trailing commas (JSONDecoder took them)
        let json = #"{"title": null, "items": [{"title": "P\u00e4ss \ud83d\ude00 \/", "checked": null}, {"title": "T", "title": "U", "checked": true},], "extra": [1.5e3, -0, {"a": false}],}"#
        // When it is opened and written back
        let text = try open(json).text
        // Then the fields read as JSONDecoder read them, and the field this plugin does not know is kept as written
        XCTAssertEqual(ChecklistIDs.stripped(text), "{\n  \"title\": \"\",\n  \"items\": [\n    {\"title\": \"Päss 😀 /\", \"checked\": false},\n    {\"title\": \"T\", \"checked\": true}\n  ],\n  \"extra\": [1.5e3, -0, {\"a\": false}]\n}\n")
    }

    func testGivenArgumentsWithEscapesWhenAppliedThenTheKitDecodesThemExactly() throws {
        // Given a list, and a title needing every kind of JSON escape on its way to the plugin
        let document = try open(#"{"title": "T", "items": []}"#)
        let title = "tab\tquote\" backslash\\ slash/ é 😀"
        // When it is added
        let (added, _) = try document.apply("add", title)
        // Then the plugin got it byte for byte (as the file it writes shows)
        let text = try added.text
        XCTAssertTrue(text.contains(#""tab\tquote\" backslash\\ slash/ é 😀""#), text)
    }
}
