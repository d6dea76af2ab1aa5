import FolioCLITestSupport
import Foundation
import XCTest

/// The complete examples in docs/PLUGINS.md, taken from the guide itself (one copy), built as an author would and
/// used through Folio: create a document of their type, run a command, view it.
final class PluginGuideExampleTests: XCTestCase {
    func testGivenTheGuideWhenItsExamplesAreListedThenThereIsOneInCAndOneSwiftPackage() throws {
        let paths = PluginSDK.fileBlocks(in: try String(contentsOf: PluginSDK.guide, encoding: .utf8)).map(\.path)
        XCTAssertEqual(paths, ["tally.c", "Package.swift", "Sources/Lines/Lines.swift"])
    }

    func testGivenTheCExampleInTheGuideWhenBuiltWithPkgConfigThenFolioAddsToATallyWithIt() throws {
        let temp = TemporaryDirectory("folio-guide-c")
        let project = temp.path("tally")
        try PluginSDK.writeGuideExamples(to: project) { $0.hasSuffix(".c") }
        var env = temp.environment()
        env["PKG_CONFIG_PATH"] = try PluginSDK.buildTreePkgConfig(in: temp.url).path
        try FileManager.default.createDirectory(at: project.appendingPathComponent("build"), withIntermediateDirectories: true)
        // The guide's build command, with warnings as errors.
        try PluginSDK.shell("cc $(pkg-config --cflags folio-plugin) -std=c99 -Wall -Wextra -Werror -fvisibility=hidden -shared -fPIC -o build/libtally.so tally.c",
                            in: project, environment: env)
        PluginSDK.tighten(project.appendingPathComponent("build"))
        env["FOLIO_PLUGIN_PATH"] = project.appendingPathComponent("build").path

        XCTAssertEqual(runFolio(["new", "score", "--type", "org.example.tally"], environment: env, cwd: temp.url).status, 0)
        // The primary file has the extension the plugin declares for its type
        XCTAssertTrue(FileManager.default.fileExists(atPath: temp.path("score/document.tally").path))
        let added = runFolio(["edit", "score", "add", "5"], environment: env, cwd: temp.url)
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertTrue(added.stdout.hasSuffix("] added 5\n"), added.stdout)
        XCTAssertEqual(runFolio(["edit", "score", "add"], environment: env, cwd: temp.url).status, 0)
        XCTAssertEqual(runFolio(["view", "score"], environment: env, cwd: temp.url).stdout, "Tally: 6\n")
        XCTAssertEqual(runFolio(["show", "score"], environment: env, cwd: temp.url).stdout, "6\n", "the file Folio committed")
        let refused = runFolio(["edit", "score", "add", "-3"], environment: env, cwd: temp.url)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("AMOUNT must be a whole number from 1 to 1000"), refused.stderr)
    }

    /// SLOW (about a minute): builds FolioPluginKit and the example with `swift build` in a temporary folder.
    func testGivenTheSwiftExampleInTheGuideWhenBuiltOutOfTreeWithSwiftPMThenFolioEditsALineListWithIt() throws {
        let temp = TemporaryDirectory("folio-guide-swift")
        let project = temp.path("Lines")
        try PluginSDK.writeGuideExamples(to: project) { $0.hasSuffix(".swift") }
        var env = temp.environment()
        env["FOLIO_SDK"] = PluginFixtures.root.path  // the guide's Package.swift reads it (a checkout); offline: a path dependency
        try PluginSDK.shell("swift build", in: project, environment: env)
        let build = project.appendingPathComponent(".build/debug")
        PluginSDK.tighten(build.resolvingSymlinksInPath())
        env["FOLIO_PLUGIN_PATH"] = build.path

        XCTAssertEqual(runFolio(["new", "todo", "--type", "org.example.lines"], environment: env, cwd: temp.url).status, 0)
        for item in ["Buy milk", "Call Bob"] {
            let added = runFolio(["edit", "todo", "add", item], environment: env, cwd: temp.url)
            XCTAssertTrue(added.stdout.hasSuffix("] added '\(item)'\n"), added.stdout + added.stderr)
        }
        let removed = runFolio(["edit", "todo", "remove", "1"], environment: env, cwd: temp.url)
        XCTAssertTrue(removed.stdout.hasSuffix("] removed 'Buy milk'\n"), removed.stdout + removed.stderr)
        XCTAssertEqual(runFolio(["view", "todo", "--cursor", "1", "--width", "20", "--height", "5"], environment: env, cwd: temp.url).stdout,
                       "Lines (1)\n> 1 Call Bob\n")
        let commands = runFolio(["commands", "todo", "--json"], environment: env, cwd: temp.url)
        XCTAssertTrue(commands.stdout.contains("\"remove N\""), commands.stdout)
    }
}
