import FolioCore
@testable import FolioPlugins
import Foundation
import FolioTestSupport
import XCTest

final class ChecklistPluginTests: XCTestCase {
    private func checklist() throws -> HostedEditor {
        try HostedPlugins.editor("checklist")
    }

    private func open(_ json: String) throws -> HostedDocument {
        try checklist().open(Data(json.utf8))
    }

    func testGivenAListWhenToggledThenTheItemIsCheckedAndDescribed() throws {
        // Given
        let document = try open(#"{"title": "Groceries", "items": [{"title": "Milk", "checked": false}, {"title": "Eggs", "checked": false}]}"#)
        // When
        let (toggled, description) = try document.apply("toggle", "2")
        // Then
        XCTAssertEqual(description, "checked 'Eggs'")
        XCTAssertEqual(ChecklistIDs.stripped(try toggled.text), """
        {
          "title": "Groceries",
          "items": [
            {"title": "Milk", "checked": false},
            {"title": "Eggs", "checked": true}
          ]
        }

        """)
        XCTAssertTrue(try document.text.contains(#""Eggs", "checked": false"#), "the original state is unchanged")
    }

    func testGivenAnEmptyListWhenItemsAreAddedMovedRenamedAndDeletedThenEachStepIsDescribed() throws {
        var document = try open("")
        var descriptions: [String] = []
        for (command, arguments) in [("add", ["Milk"]), ("add", ["Eggs"]), ("add", ["Bread"]), ("move", ["3", "1"]),
                                     ("rename", ["2", "Oat milk"]), ("delete", ["3"]), ("check-all", []), ("uncheck-all", [])] {
            let result = try document.applying(command, arguments: arguments)
            document = result.document
            descriptions.append(result.description)
        }
        XCTAssertEqual(descriptions, ["added 'Milk'", "added 'Eggs'", "added 'Bread'", "moved 'Bread' to 1", "renamed 'Milk' to 'Oat milk'",
                                      "deleted 'Eggs'", "checked all items (2 changed)", "unchecked all items (2 changed)"])
        XCTAssertEqual(try document.render(width: 40, height: 10), ["Checklist  (0/2 done)", " 1 [ ] Bread", " 2 [ ] Oat milk"])
    }

    func testGivenChecklistsInAnyShapeWhenOpenedThenTheFastReaderAndTheFullDecoderAgree() throws {
        // Given the same checklist written in ways the fast scanner reads and ways only JSONDecoder reads
        let forms = [
            #"{"title": "Trip", "items": [{"title": "Passport", "checked": true}, {"title": "Tickets", "checked": false}]}"#,
            "{\n\t\"items\" : [ { \"checked\" : true , \"title\" : \"Passport\" } ,\n{\"title\":\"Tickets\"} ] , \"title\" : \"Trip\" }\n",
            #"{"title": "Trip", "items": [{"title": "Passport", "checked": true, "note": "x"}, {"title": "Tickets", "checked": false}], "extra": 1}"#,
            #"{"title": "Tr\u0069p", "items": [{"title": "Pass\u0070ort", "checked": true}, {"title": "Tickets", "checked": false}]}"#,
        ]
        // When each is opened and written back
        let written = try forms.map { String(decoding: try open($0).serialized(), as: UTF8.self) }
        // Then all give the same canonical file, with the same ids (derived from the content), and the fields this
        // plugin does not know kept
        let expected = "{\n  \"title\": \"Trip\",\n  \"items\": [\n    {\"title\": \"Passport\", \"checked\": true},\n    {\"title\": \"Tickets\", \"checked\": false}\n  ]\n}\n"
        let kept = "{\n  \"title\": \"Trip\",\n  \"items\": [\n    {\"title\": \"Passport\", \"checked\": true, \"note\": \"x\"},\n    {\"title\": \"Tickets\", \"checked\": false}\n  ],\n  \"extra\": 1\n}\n"
        for (index, text) in written.enumerated() { XCTAssertEqual(ChecklistIDs.stripped(text), index == 2 ? kept : expected) }
        XCTAssertEqual(Set(written.map(ChecklistIDs.ids)).count, 1, "every form gets the same ids")
        XCTAssertEqual(Set(written.flatMap(ChecklistIDs.ids)).count, 2)
        // And titles needing escapes round-trip
        let tricky = try open(#"{"title": "A \"quoted\" \\ list", "items": [{"title": "tab\there", "checked": false}]}"#)
        let again = try open(String(decoding: try tricky.serialized(), as: UTF8.self))
        XCTAssertEqual(try again.serialized(), try tricky.serialized())
        XCTAssertTrue(String(decoding: try tricky.serialized(), as: UTF8.self).contains(#""A \"quoted\" \\ list""#))
    }

    func testGivenBadArgumentsWhenAppliedThenThePluginReportsAnInvalidArgument() throws {
        let document = try open(#"{"title": "T", "items": [{"title": "Milk", "checked": false}]}"#)
        for (command, arguments) in [("toggle", ["2"]), ("toggle", ["0"]), ("toggle", ["x"]), ("move", ["1"]), ("add", []), ("add", [" "])] {
            XCTAssertThrowsError(try document.applying(command, arguments: arguments), "\(command) \(arguments)") { error in
                XCTAssertEqual((error as? EditorOperationError)?.kind, .invalidArgument, "\(error)")
            }
        }
        XCTAssertThrowsError(try document.applying("fly", arguments: [])) { error in
            XCTAssertEqual((error as? EditorOperationError)?.kind, .unknownCommand)
            XCTAssertTrue("\(error)".contains("unknown command 'fly'"), "\(error)")
        }
    }

    func testGivenMalformedFilesWhenOpenedThenTheyAreRefusedAsInvalidDocuments() throws {
        for json in ["[1,2]", "{\"items\": 3}", "{\"items\": [{\"checked\": true}]}", "{\"items\": [{\"title\": \"a\", \"checked\": 1}]}", "{"] {
            XCTAssertThrowsError(try open(json), json) { error in
                XCTAssertEqual((error as? EditorOperationError)?.kind, .invalidDocument, "\(error)")
            }
        }
    }

    func testGivenTwoVersionsWhenDiffedSemanticallyThenChangesAreNamedByItem() throws {
        let editor = try checklist()
        let old = #"{"title": "G", "items": [{"title": "Milk", "checked": false}, {"title": "Eggs", "checked": false}, {"title": "Tea", "checked": false}]}"#
        let new = #"{"title": "G", "items": [{"title": "Eggs", "checked": false}, {"title": "Milk", "checked": true}, {"title": "Coffee", "checked": false}]}"#
        let diff = try XCTUnwrap(editor.semanticDiff(from: Data(old.utf8), to: Data(new.utf8)))
        XCTAssertEqual(diff.split(separator: "\n").map(String.init), ["renamed 'Tea' to 'Coffee'", "moved 'Eggs' to 1", "checked 'Milk'"])
    }

    func testGivenIndependentChangesWhenMergedThenBothAreKept() throws {
        let editor = try checklist()
        let base = #"{"title": "G", "items": [{"title": "Milk", "checked": false}, {"title": "Eggs", "checked": false}]}"#
        let ours = #"{"title": "G", "items": [{"title": "Milk", "checked": true}, {"title": "Eggs", "checked": false}, {"title": "Tea", "checked": false}]}"#
        let theirs = #"{"title": "G", "items": [{"title": "Bread", "checked": false}, {"title": "Milk", "checked": false}]}"#
        let result = try XCTUnwrap(editor.semanticMerge(base: Data(base.utf8), ours: Data(ours.utf8), theirs: Data(theirs.utf8)))
        guard case let .merged(data) = result else { return XCTFail("expected a merge, got \(result)") }
        let merged = try editor.open(data)
        XCTAssertEqual(try merged.render(width: 40, height: 10), ["G  (1/3 done)", " 1 [ ] Bread", " 2 [x] Milk", " 3 [ ] Tea"])
    }

    func testGivenADeleteAgainstACheckWhenMergedThenItIsAConflict() throws {
        let editor = try checklist()
        let base = #"{"items": [{"title": "Milk", "checked": false}]}"#
        let ours = #"{"items": []}"#
        let theirs = #"{"items": [{"title": "Milk", "checked": true}]}"#
        let result = try editor.semanticMerge(base: Data(base.utf8), ours: Data(ours.utf8), theirs: Data(theirs.utf8))
        XCTAssertEqual(result, .conflicts(["'Milk': deleted by us, checked by them"]))
    }
}
