import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// `folio view DOC --at REV`: an old version as its editor draws it, for every bundled editor, and a document no
/// editor opens as its primary file's text.
final class ViewAtRevisionTests: XCTestCase {
    var dir: TemporaryDirectory!
    var env: [String: String] = [:]

    override func setUp() {
        super.setUp()
        dir = TemporaryDirectory("folio-view-at")
        env = dir.environment()
    }

    @discardableResult
    func folio(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) -> RunResult {
        let result = runFolio(arguments, environment: env, cwd: dir.url)
        XCTAssertEqual(result.status, 0, "folio \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        return result
    }

    func view(_ arguments: String...) -> RunResult { runFolio(["view"] + arguments, environment: env, cwd: dir.url) }

    func testGivenAChecklistChangedTwiceWhenViewedAtTheFirstVersionThenTheEditorDrawsThatVersionNotTheCurrentOne() {
        // Given a checklist created from a template, then an item added and one checked
        folio("new", "list", "--template", "checklist/groceries", "--defaults")
        folio("edit", "list", "add", "Saffron")
        folio("edit", "list", "toggle", "1")
        // When it is viewed at the first version (by number), and at the one before the newest (by id)
        let first = view("list", "--at", "@1", "--width", "60")
        let log = folio("log", "list", "--json").stdout
        let ids = (try? JSONSerialization.jsonObject(with: Data(log.utf8)) as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
        XCTAssertEqual(ids.count, 3, log)
        let middle = view("list", "--at", ids[1], "--width", "60")
        let current = view("list", "--width", "60")
        // Then each shows that version through the checklist editor: its header counts and items as drawn then
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertFalse(first.stdout.contains("Saffron"), first.stdout)
        XCTAssertTrue(first.stdout.contains("(0/"), first.stdout)
        XCTAssertTrue(first.stdout.contains("[ ]"), first.stdout)
        XCTAssertTrue(middle.stdout.contains("[ ] Saffron"), middle.stdout)
        XCTAssertTrue(middle.stdout.contains("(0/"), middle.stdout)
        XCTAssertTrue(current.stdout.contains("(1/"), current.stdout)
        XCTAssertNotEqual(middle.stdout, current.stdout)
        XCTAssertEqual(first.stderr, "")
    }

    func testGivenAStoryWithARenamedSceneWhenViewedAtTheOldVersionThenTheOldSceneTitleIsDrawn() {
        // Given a story whose first scene was renamed
        folio("new", "tale", "--template", "story/three-act", "--defaults")
        let before = view("tale", "--width", "70").stdout
        folio("edit", "tale", "rename-scene", "1", "1", "A quite new beginning")
        // When the version before the rename is viewed (HEAD~1, a git revision form)
        let old = view("tale", "--at", "HEAD~1", "--width", "70")
        // Then it is the story's view as it was, and the current one has the new title
        XCTAssertEqual(old.status, 0, old.stderr)
        XCTAssertEqual(old.stdout, before)
        XCTAssertFalse(old.stdout.contains("A quite new beginning"), old.stdout)
        XCTAssertTrue(view("tale", "--width", "70").stdout.contains("1.1 A quite new beginning"))
    }

    func testGivenADrawingWithAMovedShapeWhenViewedAtTheOldVersionThenTheShapeIsAtItsOldPlace() {
        // Given a drawing with a rectangle, then the rectangle moved
        folio("new", "drawing", "--template", "shapes/blank", "--defaults")
        folio("edit", "drawing", "add", "rect", "2", "1", "6", "3", "red")
        folio("edit", "drawing", "move", "1", "30", "4")
        // When the version before the move is viewed
        let old = view("drawing", "--at", "HEAD~1", "--width", "50", "--height", "12")
        // Then the shapes editor lists and draws it where it was
        XCTAssertEqual(old.status, 0, old.stderr)
        XCTAssertTrue(old.stdout.contains("rect at (2, 1)"), old.stdout)
        XCTAssertTrue(view("drawing", "--width", "50", "--height", "12").stdout.contains("rect at (30, 4)"))
    }

    func testGivenAPlainTextDocumentWhenViewedAtAnOldVersionThenItsLinesAreThatVersionsNumberedLines() {
        // Given a plain text document with two lines appended in two versions
        folio("new", "notes.txt")
        folio("edit", "notes.txt", "append", "first thought")
        folio("edit", "notes.txt", "append", "second thought")
        // When the version with one line is viewed
        let old = view("notes.txt", "--at", "HEAD~1", "--json")
        // Then the plain text editor's view of it: one numbered line, not the second
        XCTAssertEqual(old.status, 0, old.stderr)
        let lines = (try? JSONSerialization.jsonObject(with: Data(old.stdout.utf8)) as? [String]) ?? []
        XCTAssertTrue(lines.contains { $0.hasSuffix("1  first thought") }, "\(lines)")
        XCTAssertFalse(old.stdout.contains("second thought"), old.stdout)
    }

    func testGivenAProjectDocumentWithoutAnEditorWhenViewedAtAnOldVersionThenItsPrimaryFileIsShownAsTextWithWhyOnStderr() throws {
        // Given a Swift package project (no editor opens org.folio.project) whose Package.swift was then rewritten
        folio("new", "pkg", "--template", "swift/package", "--defaults")
        let original = try String(contentsOf: dir.path("pkg/Package.swift"), encoding: .utf8)
        let rewrite = dir.path("new-package.swift")
        try Data("// swift-tools-version:6.0\n// rewritten\n".utf8).write(to: rewrite)
        folio("write", "pkg", "Package.swift", "--from", rewrite.path)
        // When the first version is viewed
        let old = view("pkg", "--at", "@1", "--width", "200", "--height", "500")
        // Then the exit is 0, stdout is that version's Package.swift as text, and stderr says why it is text
        XCTAssertEqual(old.status, 0, old.stderr)
        XCTAssertEqual(old.stdout, original.replacingOccurrences(of: "\t", with: " "))
        XCTAssertFalse(old.stdout.contains("rewritten"))
        XCTAssertTrue(old.stderr.contains("no editor for content type org.folio.project"), old.stderr)
        XCTAssertTrue(old.stderr.contains("Package.swift as text"), old.stderr)
        // And the current version is the rewritten file
        XCTAssertEqual(view("pkg").stdout, "// swift-tools-version:6.0\n// rewritten\n")
    }

    func testGivenAnUnknownRevisionWhenViewedThenOneLineNamesItAndTheExitIsNonZero() {
        // Given a checklist
        folio("new", "list", "--template", "checklist/groceries", "--defaults")
        // When a version that does not exist is asked for
        let result = view("list", "--at", "no-such-version")
        // Then one line on stderr names it, nothing on stdout
        XCTAssertNotEqual(result.status, 0)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.contains("no-such-version"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
    }
}
