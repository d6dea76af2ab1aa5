import FolioCLITestSupport
import Foundation
import XCTest

/// The bundled templates `plugin/c` and `plugin/swift`: a new project builds with its one documented command and
/// its plugin edits a document through Folio.
final class PluginTemplateTests: XCTestCase {
    /// HOOK for helper plugmgr's commands, to be wired after merging: `folio plugins validate LIBRARY` must pass and
    /// `folio plugins install LIBRARY` must install it, after which the document is edited through the installed
    /// copy (FOLIO_PLUGIN_PATH unset). Until then the plugin is used from its build folder.
    /// The project's plugin passes `folio plugins validate` and is installed with `folio plugins install` (into the
    /// test's own `$XDG_DATA_HOME`), where Folio then finds it with no plugin path set.
    private func validateAndInstall(_ library: URL, environment: inout [String: String], cwd: URL,
                                    file: StaticString = #filePath, line: UInt = #line) {
        environment["FOLIO_PLUGIN_PATH"] = nil
        // Debug builds on a shared machine: a 1 MiB title takes them seconds to render, past real use's 1 s (which a
        // release build meets), so the deadlines are raised as an author stepping through a debug build would.
        let validated = runFolio(["plugins", "validate", library.path, "--call-deadline", "30000", "--render-deadline", "30000"],
                                 environment: environment, cwd: cwd)
        XCTAssertEqual(validated.status, 0, validated.stdout + validated.stderr, file: file, line: line)
        let installed = runFolio(["plugins", "install", library.path], environment: environment, cwd: cwd)
        XCTAssertEqual(installed.status, 0, installed.stdout + installed.stderr, file: file, line: line)
        let listed = runFolio(["plugins", "list", "--json"], environment: environment, cwd: cwd)
        XCTAssertTrue(listed.stdout.contains(library.lastPathComponent), "installed and listed: \(listed.stdout)", file: file, line: line)
    }

    /// Creates a document of `type`, adds two lines, removes the first and checks the view and the file.
    private func editDocument(type: String, header: String, environment env: [String: String], cwd: URL,
                              file: StaticString = #filePath, line: UInt = #line) {
        let created = runFolio(["new", "notes", "--type", type], environment: env, cwd: cwd)
        XCTAssertEqual(created.status, 0, created.stderr, file: file, line: line)
        for text in ["Buy milk", "Call Bob"] {
            let added = runFolio(["edit", "notes", "add", text], environment: env, cwd: cwd)
            XCTAssertTrue(added.stdout.hasSuffix("] added '\(text)'\n"), added.stdout + added.stderr, file: file, line: line)
        }
        let removed = runFolio(["edit", "notes", "remove", "1"], environment: env, cwd: cwd)
        XCTAssertTrue(removed.stdout.hasSuffix("] removed 'Buy milk'\n"), removed.stdout + removed.stderr, file: file, line: line)
        let refused = runFolio(["edit", "notes", "remove", "7"], environment: env, cwd: cwd)
        XCTAssertNotEqual(refused.status, 0, file: file, line: line)
        XCTAssertEqual(runFolio(["view", "notes", "--cursor", "1", "--width", "30", "--height", "4"], environment: env, cwd: cwd).stdout,
                       "\(header) (1 lines)\n> 1 Call Bob\n", file: file, line: line)
        XCTAssertEqual(runFolio(["show", "notes"], environment: env, cwd: cwd).stdout, "Call Bob\n", file: file, line: line)
        // The template's folio.items/1: the removed line comes back at its place as one commit, and has a history.
        let restored = runFolio(["restore", "notes", "@3", "--item", "1"], environment: env, cwd: cwd)
        XCTAssertTrue(restored.stdout.contains("] Restore item 1 from "), restored.stdout + restored.stderr, file: file, line: line)
        XCTAssertEqual(runFolio(["show", "notes"], environment: env, cwd: cwd).stdout, "Buy milk\nCall Bob\n", file: file, line: line)
        let history = runFolio(["log", "notes", "--item", "2"], environment: env, cwd: cwd)
        XCTAssertEqual(history.stdout.split(separator: "\n").last, "    added as 2: Call Bob", history.stdout + history.stderr, file: file, line: line)
    }

    func testGivenThePluginCTemplateWhenCreatedAndBuiltWithMakeThenItsPluginEditsADocument() throws {
        let temp = TemporaryDirectory("folio-template-c")
        var env = temp.environment()
        env["PKG_CONFIG_PATH"] = try PluginSDK.buildTreePkgConfig(in: temp.url).path
        let created = runFolio(["new", "MyEditor", "--template", "plugin/c", "--set", "name=Notes", "--defaults"], environment: env, cwd: temp.url)
        XCTAssertEqual(created.status, 0, created.stderr)
        let project = temp.path("MyEditor")
        // The README's one build command, with warnings as errors.
        try PluginSDK.shell("make CFLAGS=-Werror", in: project, environment: env)
        let library = project.appendingPathComponent("build/libNotes.so")
        XCTAssertTrue(FileManager.default.fileExists(atPath: library.path))
        let tested = runFolio(["plugins", "test", project.path], environment: env, cwd: temp.url)
        XCTAssertEqual(tested.stdout, "ok   first-steps (3 steps)\n1 test passed\n", "the project's own test passes as generated: \(tested.stderr)")
        validateAndInstall(library, environment: &env, cwd: temp.url)
        editDocument(type: "org.example.notes", header: "Notes", environment: env, cwd: temp.url)
        let status = runFolio(["status", "MyEditor"], environment: env, cwd: temp.url)
        XCTAssertTrue(status.stdout.contains("no unrecorded changes"), "the build folder is ignored: \(status.stdout)")
    }

    func testGivenThePluginCTemplateWhenItsEditorGetsEscapedArgumentsThenTheyArriveDecoded() throws {
        let temp = TemporaryDirectory("folio-template-c-json")
        var env = temp.environment()
        env["PKG_CONFIG_PATH"] = try PluginSDK.buildTreePkgConfig(in: temp.url).path
        XCTAssertEqual(runFolio(["new", "Quotes", "--template", "plugin/c", "--defaults"], environment: env, cwd: temp.url).status, 0)
        try PluginSDK.shell("make", in: temp.path("Quotes"), environment: env)
        env["FOLIO_PLUGIN_PATH"] = temp.path("Quotes/build").path
        XCTAssertEqual(runFolio(["new", "q", "--type", "org.example.quotes"], environment: env, cwd: temp.url).status, 0)
        let text = "Café \"quoted\" \\ back\t😀"
        let added = runFolio(["edit", "q", "add", text], environment: env, cwd: temp.url)
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertEqual(runFolio(["show", "q"], environment: env, cwd: temp.url).stdout, text + "\n")
    }

    func testGivenThePluginCTemplateWhenAWideLineIsViewedNarrowThenItIsCutByCellsNeverInsideACharacter() throws {
        // Given a plugin/c project built against folio_text.h, and a document with a line of wide characters
        let temp = TemporaryDirectory("folio-template-c-cells")
        var env = temp.environment()
        env["PKG_CONFIG_PATH"] = try PluginSDK.buildTreePkgConfig(in: temp.url).path
        XCTAssertEqual(runFolio(["new", "Wide", "--template", "plugin/c", "--defaults"], environment: env, cwd: temp.url).status, 0)
        try PluginSDK.shell("make CFLAGS=-Werror", in: temp.path("Wide"), environment: env)
        env["FOLIO_PLUGIN_PATH"] = temp.path("Wide/build").path
        XCTAssertEqual(runFolio(["new", "w", "--type", "org.example.wide"], environment: env, cwd: temp.url).status, 0)
        XCTAssertEqual(runFolio(["edit", "w", "add", "宽宽宽宽宽"], environment: env, cwd: temp.url).status, 0)
        // When it is viewed 10 and 9 cells wide
        let ten = runFolio(["view", "w", "--width", "10", "--height", "2"], environment: env, cwd: temp.url).stdout
        let nine = runFolio(["view", "w", "--width", "9", "--height", "2"], environment: env, cwd: temp.url).stdout
        // Then the line fills the cells it can (two per character), and a character that does not fit is left out whole
        XCTAssertEqual(ten.split(separator: "\n").last, "  1 宽宽宽", ten)
        XCTAssertEqual(nine.split(separator: "\n").last, "  1 宽宽", nine)
    }

    /// SLOW (about a minute): builds FolioPluginKit and the project with `swift build`.
    func testGivenThePluginSwiftTemplateWhenCreatedAndBuiltWithSwiftBuildThenItsPluginEditsADocument() throws {
        let temp = TemporaryDirectory("folio-template-swift")
        var env = temp.environment()
        env["FOLIO_SDK"] = PluginFixtures.root.path  // a checkout of Folio instead of an installed SDK (InstallTests builds against that)
        let created = runFolio(["new", "MyEditor", "--template", "plugin/swift", "--set", "name=Notes", "--defaults"], environment: env, cwd: temp.url)
        XCTAssertEqual(created.status, 0, created.stderr)
        let project = temp.path("MyEditor")
        try PluginSDK.shell("swift build", in: project, environment: env)  // offline: Folio is a path dependency
        let library = project.appendingPathComponent(".build/debug/libNotes.so")
        XCTAssertTrue(FileManager.default.fileExists(atPath: library.path))
        PluginSDK.tighten(library.deletingLastPathComponent().resolvingSymlinksInPath())
        let tested = runFolio(["plugins", "test", project.path], environment: env, cwd: temp.url)
        XCTAssertEqual(tested.stdout, "ok   first-steps (3 steps)\n1 test passed\n", "the project's own test passes as generated: \(tested.stderr)")
        validateAndInstall(library, environment: &env, cwd: temp.url)
        editDocument(type: "org.example.notes", header: "Notes", environment: env, cwd: temp.url)
    }
}
