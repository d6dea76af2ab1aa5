import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// The generic document view and creating into a taken folder, driven through the real `folio` in tmux. The user's
/// editor is a shell script that appends a line and notes how it found the terminal.
final class GenericViewEndToEndTests: TmuxTestCase {
    override var session: String { "g" }
    override var defaultTimeout: TimeInterval { 10 }

    // MARK: Helpers

    func assertExited(file: StaticString = #filePath, line: UInt = #line) {
        let screen = waitFor("folio to exit", file: file, line: line) { $0.contains("FOLIO-EXIT=") && $0.contains("icanon") }
        XCTAssertTrue(screen.contains("FOLIO-EXIT=0"), screen, file: file, line: line)
    }

    func log(_ document: URL) -> [String] {
        runFolio(["log", document.path], environment: env, cwd: docs).stdout.split(separator: "\n").map(String.init)
    }

    /// An `$EDITOR` that records the terminal's mode and the alternate screen as it found them, scribbles on the
    /// terminal, and appends a line to the file.
    func editorScript() throws -> URL {
        let script = dir.path("test-editor.sh")
        let notes = dir.path("editor-notes.txt").path
        try Data("""
        #!/bin/sh
        stty -a > '\(notes)' 2>&1
        '\(tmuxPath)' -L '\(socket)' -f /dev/null display-message -p 'alternate=#{alternate_on}' >> '\(notes)'
        echo "file=$1" >> '\(notes)'
        printf 'SCRIBBLED BY THE EDITOR\\n'
        echo '// appended by the test editor' >> "$1"

        """.utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return script
    }

    // MARK: Tests

    func testGivenASwiftPackageWhenAFileIsEditedWithEThenOneCommitRecordsTheEditorsChangeAndTheScreenIsRedrawn() throws {
        let created = runFolio(["new", "pkg", "--template", "swift/package", "--defaults"], environment: env, cwd: docs)
        XCTAssertEqual(created.status, 0, created.stderr)
        let document = docs.appendingPathComponent("pkg")
        let before = log(document)
        env["EDITOR"] = try editorScript().path
        env["VISUAL"] = nil
        try start(["open", document.path, "--scene", "generic-e2e"])

        // The generic view, saying why, with the tree and sizes.
        let opened = waitFor(text: "no editor for org.folio.project")
        XCTAssertTrue(opened.contains("Sources/") && opened.contains("Package.swift"), opened)
        XCTAssertFalse(opened.contains("use --editor"), opened)

        // Select Package.swift with the filter, then e.
        try keys("/")
        try type("Package.swift")
        try keys("Enter")
        waitFor("the filtered tree") { $0.contains("1 of ") && $0.contains("swift-tools-version") }
        try keys("e")
        let back = waitFor(text: "recorded “Edit Package.swift”")

        // One new commit with exactly the editor's change.
        let after = log(document)
        XCTAssertEqual(after.count, before.count + 1, after.joined(separator: "\n"))
        XCTAssertTrue(after.first?.contains("Edit Package.swift") ?? false, after.joined(separator: "\n"))
        let shown = runFolio(["show", document.path, "--file", "Package.swift"], environment: env, cwd: docs).stdout
        XCTAssertTrue(shown.hasSuffix("// appended by the test editor\n"), shown)
        let diff = runFolio(["diff", document.path], environment: env, cwd: docs).stdout
        XCTAssertEqual(diff.split(separator: "\n").filter { $0.hasPrefix("+") && !$0.hasPrefix("+++") }, ["+// appended by the test editor"], diff)

        // The editor had the terminal as a shell gives it: cooked mode, echo, the main screen.
        let notes = try String(contentsOf: dir.path("editor-notes.txt"), encoding: .utf8)
        let words = Set(notes.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
        XCTAssertTrue(words.contains("icanon") && words.contains("echo") && !words.contains("-icanon"), notes)
        XCTAssertTrue(notes.contains("alternate=0"), notes)
        XCTAssertTrue(notes.contains("file=" + document.path + "/Package.swift"), notes)

        // Redrawn whole: the unchanged header, filter line and status are back, the editor's scribble is gone,
        // and the view shows the new line.
        XCTAssertFalse(back.contains("SCRIBBLED BY THE EDITOR"), back)
        XCTAssertTrue(back.contains("Pkg") && back.contains("/ Package.swift") && back.contains("no editor for org.folio.project"), back)
        XCTAssertTrue(back.contains("appended by the test editor"), back)
        let alternate = try tmux(["display-message", "-p", "-t", "g:0", "#{alternate_on}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(alternate, "1", "back on the alternate screen")

        try keys("C-q")
        assertExited()
    }

    func testGivenAnEditorThatChangesNothingWhenEThenNothingIsCommitted() throws {
        let created = runFolio(["new", "pkg", "--template", "swift/package", "--defaults"], environment: env, cwd: docs)
        XCTAssertEqual(created.status, 0, created.stderr)
        let document = docs.appendingPathComponent("pkg")
        let before = log(document)
        env["EDITOR"] = "true --ignored-argument"
        try start(["open", document.path, "--scene", "generic-e2e-none"], until: "no editor for org.folio.project")
        try keys("/")
        try type("README.md")
        try press("Enter", until: "1 of ")
        try press("e", until: "no change to README.md: nothing recorded")
        XCTAssertEqual(log(document), before)
        try keys("C-q")
        assertExited()
    }

    func testGivenAFolderThatExistsWhenANewDocumentIsCreatedThereThenFolioAsksAndOffersAFreeName() throws {
        let taken = docs.appendingPathComponent("untitled")
        try FileManager.default.createDirectory(at: taken, withIntermediateDirectories: true)
        try Data("mine\n".utf8).write(to: taken.appendingPathComponent("notes.txt"))
        try start(["launch", "--scene", "generic-e2e-taken"], until: "New Document")
        try press("n", until: "Destination")
        try keys("Enter")
        let asked = waitFor(text: "already exists")
        XCTAssertTrue(asked.contains("'untitled' already exists (a folder): ⏎ creates 'untitled-2' instead"), asked)
        XCTAssertTrue(asked.contains("untitled-2"), asked)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: docs.path).sorted(), ["untitled"], "nothing created before the answer")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: taken.path), ["notes.txt"], "the folder is untouched")

        try keys("Enter")
        waitFor("the new document") { !$0.contains("Destination") && $0.contains("Create untitled-2") }
        XCTAssertTrue(FileManager.default.fileExists(atPath: docs.appendingPathComponent("untitled-2/.folio/document.json").path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: taken.path), ["notes.txt"])
        try keys("C-q")
        assertExited()
    }
}
