import FolioCore
@testable import FolioPlugins
import FolioCLITestSupport
import Foundation
import XCTest

/// `folio edit`, `folio commands`, `folio view` and the semantic diff, run in-process against real documents.
final class DocumentEditingTests: XCTestCase {
    private var temp: TemporaryDirectory!
    private var env: [String: String] = [:]

    override func setUp() {
        temp = TemporaryDirectory("folio-plugins")
        env = temp.environment()
    }

    override func tearDown() { temp = nil }

    @discardableResult
    private func folio(_ arguments: String...) -> RunResult {
        runFolio(arguments, environment: env, cwd: temp.url)
    }

    private func newDocument(_ name: String, type: String) throws -> Document {
        let created = folio("new", name, "--type", type)
        XCTAssertEqual(created.status, 0, created.stderr)
        return try DocumentStore(environment: env).open(at: temp.path(name))
    }

    private func log(_ name: String) throws -> [String] {
        try DocumentStore(environment: env).open(at: temp.path(name)).log().map(\.summary)
    }

    func testGivenAChecklistWhenEditedFromTheCommandLineThenEachCommandIsOneCommitWithThePluginsDescription() throws {
        let document = try newDocument("groceries", type: "org.folio.checklist")
        XCTAssertEqual(folio("edit", "groceries", "add", "Milk").status, 0)
        XCTAssertEqual(folio("edit", "groceries", "add", "Eggs").status, 0)
        let toggled = folio("edit", "groceries", "toggle", "1")
        XCTAssertEqual(toggled.status, 0, toggled.stderr)
        XCTAssertTrue(toggled.stdout.hasSuffix("] checked 'Milk'\n"), toggled.stdout)
        XCTAssertEqual(try log("groceries"), ["checked 'Milk'", "added 'Eggs'", "added 'Milk'", "Create groceries"])
        let data = try document.read(path: document.metadata.primaryFile)
        XCTAssertTrue(ChecklistIDs.stripped(String(decoding: data, as: UTF8.self)).contains(#"{"title": "Milk", "checked": true}"#))
    }

    func testGivenBadArgumentsWhenEditedThenOneLineIsPrintedTheExitIsNonZeroAndNothingIsCommitted() throws {
        _ = try newDocument("groceries", type: "org.folio.checklist")
        folio("edit", "groceries", "add", "Milk")
        for arguments in [["toggle", "7"], ["toggle", "one"], ["fly"], ["move", "1"]] {
            let result = runFolio(["edit", "groceries"] + arguments, environment: env, cwd: temp.url)
            XCTAssertEqual(result.status, 1, "\(arguments)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertTrue(result.stderr.hasPrefix("folio edit: checklist "), result.stderr)
        }
        XCTAssertEqual(folio("edit", "groceries", "toggle", "7").stderr, "folio edit: checklist toggle: N 7 is out of range 1…1 (usage: toggle N:range)\n")
        XCTAssertEqual(try log("groceries"), ["added 'Milk'", "Create groceries"])
    }

    func testGivenADocumentWhenItsCommandsAreListedThenUsageAndShortcutsAreShown() throws {
        _ = try newDocument("drawing", type: "org.folio.shapes")
        let listed = folio("commands", "drawing")
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertEqual(listed.stdout, """
        Shapes (shapes) for org.folio.shapes:
          add rect|ellipse X:int Y:int W:int+ H:int+ [black|red|green|yellow|blue|magenta|cyan|white]  a  Add shape
          move [N:range] X:int Y:int                                                                   m  Move shapes
          resize [N:range] W:int+ H:int+                                                               s  Resize shapes
          delete [N:range]                                                                             d  Delete shapes
          color [N:range] black|red|green|yellow|blue|magenta|cyan|white                               c  Colour shapes

        """)
    }

    func testGivenAStoryWhenViewedThenTheEditorsViewIsPrintedAtTheRequestedSize() throws {
        _ = try newDocument("novel", type: "org.folio.story")
        folio("edit", "novel", "add-act", "Beginning")
        folio("edit", "novel", "add-scene", "1", "Dawn")
        folio("edit", "novel", "set-text", "1", "1", "The sun rose slowly.")
        let viewed = folio("view", "novel", "--width", "30", "--height", "3")
        XCTAssertEqual(viewed.status, 0, viewed.stderr)
        XCTAssertEqual(viewed.stdout, """
        Untitled story         4 words
         1 Act I: Beginning    4 words
           1.1 Dawn            4 words

        """)
    }

    func testGivenAnAssociationOrAnEditorOverrideWhenOpeningThenThatEditorIsUsed() throws {
        _ = try newDocument("novel", type: "org.folio.story")
        try Settings(editorAssociations: ["org.folio.story": "plain-text"]).save(environment: env)
        XCTAssertTrue(folio("commands", "novel").stdout.hasPrefix("Plain Text (plain-text) for org.folio.story:"))
        XCTAssertTrue(folio("commands", "novel", "--editor", "story").stdout.hasPrefix("Story (story) for org.folio.story:"))
        let appended = folio("edit", "novel", "append", "# Title")
        XCTAssertEqual(appended.status, 0, appended.stderr)
        XCTAssertEqual(try log("novel").first, "appended line 1")
    }

    func testGivenTwoVersionsOfAChecklistWhenDiffedSemanticallyThenTheChangesAreNamedByItem() throws {
        let document = try newDocument("groceries", type: "org.folio.checklist")
        folio("edit", "groceries", "add", "Milk")
        folio("edit", "groceries", "add", "Eggs")
        folio("edit", "groceries", "toggle", "1")
        folio("edit", "groceries", "move", "2", "1")
        let host = EditorRegistry(searchPath: PluginSearchPath(folders: [.init(PluginFixtures.buildFolder, bundled: true)]))
        XCTAssertEqual(try host.semanticDiff(document: try DocumentStore(environment: env).open(at: document.url)), "moved 'Eggs' to 1")
        XCTAssertEqual(try host.semanticDiff(document: document, from: "@1", to: "@5"), "added 'Eggs' at 1\nadded 'Milk' (checked)")
        XCTAssertEqual(try host.semanticDiff(document: document, from: "@1"), "added 'Eggs' at 1\nadded 'Milk' (checked)")
        XCTAssertEqual(try host.semanticDiff(document: document, to: "@1"), "", "the first version against nothing")
        XCTAssertEqual(try host.semanticDiff(document: document, to: "@4"), "checked 'Milk'", "a version against its parent")
        let notes = try newDocument("notes", type: "public.plain-text")
        XCTAssertNil(try host.semanticDiff(document: notes), "plain text has no semantic diff: show the text diff")
        XCTAssertThrowsError(try host.semanticDiff(document: document, from: "nope"))
        // And `folio diff --semantic` on plain text shows the text diff and says why
        try notes.write(Data("one\n".utf8), to: notes.metadata.primaryFile, message: "One")
        let text = folio("diff", "notes", "--semantic")
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(text.stdout, try notes.diff(from: nil, to: nil))
        XCTAssertEqual(text.stderr, "folio diff: this document's editor has no semantic diff; showing the text diff\n")
    }

    func testGivenATenThousandItemChecklistWhenOneItemIsToggledThenOneCommitIsMadeAndThePluginTimeIsMeasured() throws {
        let document = try newDocument("big", type: "org.folio.checklist")
        let items = (1...10_000).map { #"{"title": "Item \#($0)", "checked": false}"# }.joined(separator: ",")
        try document.write(Data(#"{"title": "Big", "items": [\#(items)]}"#.utf8), to: document.metadata.primaryFile, message: "Fill")
        let host = EditorRegistry(searchPath: PluginSearchPath(folders: [.init(PluginFixtures.buildFolder, bundled: true)]))
        let outcome = try host.edit(document, command: "toggle", arguments: ["5000"])
        XCTAssertEqual(outcome.description, "checked 'Item 5000'")
        XCTAssertNotNil(outcome.commit)
        XCTAssertGreaterThan(outcome.timings.plugin, .zero)
        XCTAssertEqual(try log("big").prefix(2), ["checked 'Item 5000'", "Fill"])
    }

    func testGivenTheBundledPluginsWhenListedThenPluginsAndTheirTypesAreShown() throws {
        let listed = folio("plugins", "list")
        XCTAssertEqual(listed.status, 0, listed.stderr)
        for id in ["org.folio.plugins.checklist", "org.folio.plugins.story", "org.folio.plugins.shapes", "org.folio.plugins.plain-text"] {
            XCTAssertTrue(listed.stdout.contains(id), listed.stdout)
        }
        let json = folio("plugins", "list", "--json")
        XCTAssertTrue(json.stdout.contains(#""id" : "checklist""#), json.stdout)
        let info = folio("plugins", "info", "checklist")
        XCTAssertTrue(info.stdout.contains("capabilities: folio.semantic-diff/1, folio.semantic-merge/1"), info.stdout)
        XCTAssertTrue(info.stdout.contains("toggle N"), info.stdout)
        let types = folio("types", "list")
        XCTAssertTrue(types.stdout.contains("org.folio.shapes"), types.stdout)
        XCTAssertEqual(folio("plugins", "info", "nope").stderr, "folio plugins: no plugin or editor 'nope' (see folio plugins list)\n")
    }
}
