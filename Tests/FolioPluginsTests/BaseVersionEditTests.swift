import FolioCore
@testable import FolioPlugins
import FolioCLITestSupport
import Foundation
import XCTest

/// Two windows on one document: a command applies to the version its window showed, merged with what changed since,
/// or is refused — never applied to another item.
final class BaseVersionEditTests: XCTestCase {
    private var temp: TemporaryDirectory!
    private var env: [String: String] = [:]
    private let host = PluginFixtures.bundledHost()

    override func setUp() {
        temp = TemporaryDirectory("folio-base-edit")
        env = temp.environment()
    }

    override func tearDown() { temp = nil }

    /// A new document of `type` with `commands` applied (each one commit); returns it and its head.
    private func document(_ type: String, _ commands: [[String]]) throws -> (Document, String) {
        let created = runFolio(["new", "doc", "--type", type], environment: env, cwd: temp.url)
        XCTAssertEqual(created.status, 0, created.stderr)
        let document = try DocumentStore(environment: env).open(at: temp.path("doc"))
        for command in commands { try host.edit(document, command: command[0], arguments: Array(command.dropFirst())) }
        return (document, try document.head().id.hex)
    }

    private func checklist(_ document: Document) throws -> String {
        let text = ChecklistIDs.stripped(String(decoding: try document.read(path: document.metadata.primaryFile), as: UTF8.self))
        return text.split(separator: "\n").filter { $0.contains("\"checked\"") }.map { line in
            let title = line.split(separator: "\"")[3]
            return (line.contains("true") ? "[x] " : "[ ] ") + title
        }.joined(separator: ", ")
    }

    private let groceries = [["add", "Milk"], ["add", "Bread"], ["add", "Butter"], ["add", "Cheese"]]

    func testGivenWindow2ShowedButterAsItem3WhenWindow1DeletesItem1AndWindow2RenamesItem3ThenButterIsRenamed() throws {
        let (document, shown) = try document("org.folio.checklist", groceries)
        try host.edit(document, command: "delete", arguments: ["1"])  // window 1
        let outcome = try host.edit(document, command: "rename", arguments: ["3", "Cream"], base: shown)  // window 2
        XCTAssertEqual(outcome.description, "renamed 'Butter' to 'Cream'")
        XCTAssertEqual(try checklist(document), "[ ] Bread, [ ] Cream, [ ] Cheese")
        XCTAssertEqual(try document.log().prefix(2).map(\.summary), ["renamed 'Butter' to 'Cream'", "deleted 'Milk'"])
    }

    func testGivenAnUnchangedDocumentWhenACommandNamesTheShownVersionThenItIsAppliedAsBefore() throws {
        let (document, shown) = try document("org.folio.checklist", groceries)
        try host.edit(document, command: "toggle", arguments: ["2-3"], base: shown)
        XCTAssertEqual(try checklist(document), "[ ] Milk, [x] Bread, [x] Butter, [ ] Cheese")
        XCTAssertEqual(try document.log().count, 6, "one commit for the range")
    }

    func testGivenTheItemWasDeletedMeanwhileWhenWindow2TogglesItThenItIsRefusedAndNothingChanges() throws {
        let (document, shown) = try document("org.folio.checklist", groceries)
        try host.edit(document, command: "delete", arguments: ["3"])  // window 1 deletes Butter
        let head = try document.head().id
        XCTAssertThrowsError(try host.edit(document, command: "toggle", arguments: ["3"], base: shown)) { error in
            XCTAssertTrue(error is EditConflict, "\(error)")
            XCTAssertTrue("\(error)".contains("'Butter': checked by us, deleted by them"), "\(error)")
            XCTAssertTrue("\(error)".hasSuffix("nothing was changed"), "\(error)")
        }
        XCTAssertEqual(try document.head().id, head)
        XCTAssertEqual(try checklist(document), "[ ] Milk, [ ] Bread, [ ] Cheese", "Cheese was not toggled")
    }

    func testGivenARangeDeletedMeanwhileWhenWindow2TogglesThatRangeThenItIsRefused() throws {
        let (document, shown) = try document("org.folio.checklist", groceries)
        try host.edit(document, command: "delete", arguments: ["2-3"])
        XCTAssertEqual(try checklist(document), "[ ] Milk, [ ] Cheese")
        XCTAssertThrowsError(try host.edit(document, command: "toggle", arguments: ["2-3"], base: shown)) { XCTAssertTrue($0 is EditConflict) }
        XCTAssertEqual(try checklist(document), "[ ] Milk, [ ] Cheese")
    }

    func testGivenARangeDeletedMeanwhileWhenWindow2DeletesTheSameRangeThenTheResultIsThatRangeGoneOnce() throws {
        let (document, shown) = try document("org.folio.checklist", groceries)
        try host.edit(document, command: "delete", arguments: ["2-3"])
        let head = try document.head().id
        XCTAssertNoThrow(try host.edit(document, command: "delete", arguments: ["2-3"], base: shown))
        XCTAssertEqual(try checklist(document), "[ ] Milk, [ ] Cheese")
        XCTAssertEqual(try document.head().id, head, "no empty commit")
    }

    func testGivenARangePastTheEndWhenDeletedThenItIsRefusedAndNothingChanges() throws {
        let (document, shown) = try document("org.folio.checklist", groceries)
        XCTAssertThrowsError(try host.edit(document, command: "delete", arguments: ["3-9"], base: shown)) { error in
            XCTAssertTrue("\(error)".contains("N 9 is out of range 1…4"), "\(error)")
        }
        XCTAssertEqual(try document.head().id.hex, shown)
    }

    func testGivenPlainTextWithoutSemanticMergeWhenLinesElsewhereChangedThenTheTextMergeKeepsBothChanges() throws {
        let (document, shown) = try document("public.plain-text", [["append", "a"], ["append", "b"], ["append", "c"], ["append", "d"], ["append", "e"]])
        try host.edit(document, command: "delete-line", arguments: ["1"])  // window 1 removes "a"
        try host.edit(document, command: "delete-line", arguments: ["4"], base: shown)  // window 2 removes "d" (line 4 as it saw it)
        XCTAssertEqual(String(decoding: try document.read(path: document.metadata.primaryFile), as: UTF8.self), "b\nc\ne\n")
    }

    func testGivenPlainTextWhenBothWindowsChangeTheSameLineThenTheSecondIsRefused() throws {
        let (document, shown) = try document("public.plain-text", [["append", "a"], ["append", "b"], ["append", "c"]])
        try host.edit(document, command: "replace", arguments: ["b", "B"])
        XCTAssertThrowsError(try host.edit(document, command: "delete-line", arguments: ["2"], base: shown)) { error in
            XCTAssertEqual("\(error)", "'delete-line' conflicts with a change made to the document since it was shown (the same lines of \(document.metadata.primaryFile) changed); nothing was changed")
        }
        XCTAssertEqual(String(decoding: try document.read(path: document.metadata.primaryFile), as: UTF8.self), "a\nB\nc\n")
    }

    func testGivenConflictingRenamesWhenWindow2RenamesTheItemWindow1RenamedThenItIsRefused() throws {
        let (document, shown) = try document("org.folio.checklist", groceries)
        try host.edit(document, command: "rename", arguments: ["3", "Ghee"])
        XCTAssertThrowsError(try host.edit(document, command: "rename", arguments: ["3", "Cream"], base: shown)) { XCTAssertTrue($0 is EditConflict, "\($0)") }
        XCTAssertEqual(try checklist(document), "[ ] Milk, [ ] Bread, [ ] Ghee, [ ] Cheese")
    }
}

/// The bundled editors act on a whole range, and show the item under the cursor the way commands see it.
final class EditorRangeAndCursorTests: XCTestCase {
    private func editor(_ id: String) throws -> HostedEditor { try HostedPlugins.editor(id) }

    func testGivenAChecklistWhenARangeIsToggledThenEveryItemInItIsCheckedAsOneChange() throws {
        var (list, _) = try editor("checklist").open(Data()).apply("add", "A")
        for title in ["B", "C", "D"] { (list, _) = try list.apply("add", title) }
        (list, _) = try list.apply("toggle", "3")
        let (toggled, description) = try list.apply("toggle", "2-3")
        XCTAssertEqual(description, "checked 'B', 'C'", "one unchecked item in the range: the whole range is checked")
        XCTAssertEqual(try toggled.render(width: 30, height: 5).dropFirst().map { String($0.dropFirst(3)) }, ["[ ] A", "[x] B", "[x] C", "[ ] D"])
        let (unchecked, again) = try toggled.apply("toggle", "3-2")
        XCTAssertEqual(again, "unchecked 'B', 'C'")
        XCTAssertEqual(try unchecked.render(width: 30, height: 5).dropFirst().map { String($0.dropFirst(3)) }, ["[ ] A", "[ ] B", "[ ] C", "[ ] D"])
        let (moved, movedText) = try list.apply("move", "1-2", "3")
        XCTAssertEqual(movedText, "moved 'A', 'B' to 3")
        XCTAssertEqual(try moved.render(width: 30, height: 5).dropFirst().map { String($0.dropFirst(7)) }, ["C", "D", "A", "B"])
        XCTAssertThrowsError(try list.apply("rename", "1-2", "X")) { XCTAssertEqual("\($0)".contains("N must be one item, got the range 1-2"), true, "\($0)") }
        XCTAssertThrowsError(try list.apply("delete", "0-2"))
        XCTAssertThrowsError(try list.apply("delete", "2-"))
    }

    func testGivenShapesWhenARangeIsDeletedThenItIsOneChangeAndTheListNumbersTheRest() throws {
        var (drawing, _) = try editor("shapes").open(Data()).apply("add", "rect", "0", "0", "2", "2")
        for x in ["3", "6", "9"] { (drawing, _) = try drawing.apply("add", "ellipse", x, "0", "2", "2") }
        let (after, description) = try drawing.apply("delete", "3-2")
        XCTAssertEqual(description, "deleted shapes 2-3")
        let lines = try after.render(width: 40, height: 8, selection: ViewSelection(cursor: 2))
        XCTAssertEqual(Array(lines.prefix(3)), ["shape 2 of 2: black ellipse at (9, 0), 2", " 1 black rect at (0, 0), 2 x 2", ">2 black ellipse at (9, 0), 2 x 2"])
        XCTAssertThrowsError(try drawing.apply("delete", "2-9")) { XCTAssertTrue("\($0)".contains("N must be shape numbers from 1 to 4"), "\($0)") }
        XCTAssertThrowsError(try drawing.apply("move", "1-9", "0", "0"))
    }

    func testGivenPlainTextWhenARangeOfLinesIsDeletedThenTheyGoAsOneChange() throws {
        let (text, description) = try editor("plain-text").open(Data("a\nb\nc\nd\n".utf8)).apply("delete-line", "2-3")
        XCTAssertEqual(description, "deleted lines 2–3")
        XCTAssertEqual(try text.text, "a\nd\n")
        let (inserted, _) = try text.apply("insert", "2", "x")
        XCTAssertEqual(try inserted.text, "a\nx\nd\n")
        let (appended, _) = try text.apply("insert", "3", "z")
        XCTAssertEqual(try appended.text, "a\nd\nz\n", "one past the last line appends")
    }

    func testGivenAStoryWhenTheCursorIsOnASceneThenItsTextIsShownUnderTheOutline() throws {
        let story = try editor("story").open(Data("# Voyage\n\n## Act I: Departure\n\n### The Call\n\nThe phone rang.\nTwice.\n\n### Silence\n".utf8))
        let lines = try story.render(width: 40, height: 10, selection: ViewSelection(cursor: 2))
        XCTAssertEqual(lines, [
            "Voyage                           4 words",
            " 1 Act I: Departure              4 words",
            ">  1.1 The Call                  4 words",
            "   1.2 Silence                   0 words",
            "── 1.1 The Call ────────────────────────",
            "│ The phone rang.",
            "│ Twice.",
        ])
        XCTAssertEqual(try story.render(width: 40, height: 10, selection: ViewSelection(cursor: 3)).suffix(2), ["── 1.2 Silence ─────────────────────────", "│ (no text: e sets it)"])
    }

    func testGivenAnActTitleTypedWithItsLabelWhenAddedThenTheLabelIsWrittenOnce() throws {
        let story = try editor("story").open(Data("# Voyage\n".utf8))
        let (one, description) = try story.apply("add-act", "Act I: Departure")
        XCTAssertEqual(description, "added Act I: 'Departure'")
        let (two, _) = try one.apply("add-act", "act 2 - Return")
        let (three, _) = try two.apply("add-act", "Acting lessons")
        XCTAssertEqual(StoryTags.stripped(try three.text).split(separator: "\n").filter { $0.hasPrefix("## ") },
                       ["## Act I: Departure", "## Act II: Return", "## Act III: Acting lessons"])
    }
}
