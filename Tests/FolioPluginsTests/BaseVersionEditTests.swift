import FolioCore
@testable import FolioPlugins
import FolioTestSupport
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
        let text = String(decoding: try document.read(path: document.metadata.primaryFile), as: UTF8.self)
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
