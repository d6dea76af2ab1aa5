import FolioCore
@testable import FolioPlugins
import FolioCLITestSupport
import Foundation
import XCTest

/// `folio plugins test DIR`: an author's own tests (`tests/NAME/test.json` and `expected/`), run on the project's
/// build step by step, compared byte for byte, rewritten with `--update`; with a project made from `plugin/c`.
final class PluginTranscriptTests: XCTestCase {
    private var temp: TemporaryDirectory!
    private var env: [String: String] = [:]
    private var project: URL { temp.path("Notes") }
    private var expected: URL { project.appendingPathComponent("tests/first-steps/expected") }

    override func setUpWithError() throws {
        temp = TemporaryDirectory("folio-transcript")
        env = temp.environment()
        env["PKG_CONFIG_PATH"] = try PluginSDK.buildTreePkgConfig(in: temp.url).path
        let created = folio("new", "Notes", "--template", "plugin/c", "--defaults")
        XCTAssertEqual(created.status, 0, created.stderr)
        try PluginSDK.shell("make", in: project, environment: env)
    }

    override func tearDown() { temp = nil }

    @discardableResult
    private func folio(_ arguments: String...) -> RunResult { runFolio(arguments, environment: env, cwd: temp.url) }

    func testGivenAnExpectedViewThatNoLongerMatchesWhenTestedThenTheFileAndLineAreNamedAndUpdateMakesItPass() throws {
        // Given the generated test with one expected view changed by hand
        let view = expected.appendingPathComponent("3.view")
        let good = try String(contentsOf: view, encoding: .utf8)
        try Data(good.replacingOccurrences(of: "Buy milk", with: "Buy tea").utf8).write(to: view)
        // When it runs
        let failed = folio("plugins", "test", project.path)
        // Then it fails naming the file, the line and both sides, and says how to accept what the plugin gives
        XCTAssertEqual(failed.status, 1)
        XCTAssertEqual(failed.stdout, "FAIL first-steps\n  expected/3.view: line 3: expected '  2 Buy tea', got '  2 Buy milk'\n")
        XCTAssertEqual(failed.stderr, "folio plugins: 1 of 1 test failed (to accept what the plugin gives now: folio plugins test \(project.path) --update)\n")
        // And --update writes only what changed, after which it passes
        let updated = folio("plugins", "test", project.path, "--update")
        XCTAssertEqual(updated.stdout, "updated first-steps: expected/3.view\n", updated.stderr)
        XCTAssertEqual(try String(contentsOf: view, encoding: .utf8), good)
        XCTAssertEqual(folio("plugins", "test", project.path).stdout, "ok   first-steps (3 steps)\n1 test passed\n")
    }

    func testGivenAStepThatNowFailsWhenTestedThenItsMissingErrorAndStaleFilesAreNamedAndUpdateRemovesThem() throws {
        // Given a test whose second step now removes line 1 (it succeeds where the recording has an error)
        let test = project.appendingPathComponent("tests/first-steps/test.json")
        try Data(#"{"sample": "welcome", "width": 80, "height": 6, "steps": [["add", "Buy milk"], ["remove", "1"], ["remove", "1"]]}"#.utf8).write(to: test)
        let failed = folio("plugins", "test", project.path)
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.stdout.contains("  expected/2.view: missing (write it with --update)\n"), failed.stdout)
        XCTAssertTrue(failed.stdout.contains("  expected/2.error: no step gives it (a step now succeeds or fails where it did not)\n"), failed.stdout)
        XCTAssertEqual(folio("plugins", "test", project.path, "--update").status, 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: expected.path).sorted()
        XCTAssertEqual(files, ["0.view", "1.document", "1.view", "2.document", "2.view", "3.document", "3.view"])
        XCTAssertEqual(try String(contentsOf: expected.appendingPathComponent("3.document"), encoding: .utf8), "Buy milk\n")
    }

    func testGivenMalformedTestFilesWhenTestedThenEachIsOneLineNamingTheFileAndNothingIsWritten() throws {
        let test = project.appendingPathComponent("tests/first-steps/test.json")
        let before = try FileManager.default.contentsOfDirectory(atPath: expected.path).sorted()
        for (text, problem) in [(#"{"steps": [["add", "x"]], "extra": 1}"#, "extra"), (#"{"steps": [[]]}"#, "step 1 names no command"),
                                (#"{"sample": "../../.ssh/id_rsa", "steps": []}"#, "'sample' must name a file in the samples folder"),
                                (#"{"width": 0, "steps": []}"#, "'width' and 'height' must be from 1 to 1000"), ("{", test.path)] {
            try Data(text.utf8).write(to: test)
            let result = folio("plugins", "test", project.path, "--update")
            XCTAssertEqual(result.status, 1, text)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains(test.path) && result.stderr.contains(problem), "\(text): \(result.stderr)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: expected.path).sorted(), before)
        try Data(#"{"steps": []}"#.utf8).write(to: test)
        let unknown = folio("plugins", "test", project.path, "nope")
        XCTAssertEqual(unknown.stderr, "folio plugins: \(project.path): no test 'nope' in tests/ (it has: first-steps)\n")
    }

    func testGivenAPluginThatCrashesInAStepWhenTestedThenThatTestFailsWithTheCrashAndTheOthersStillRun() throws {
        // Given a project of the probe plugin (its probe-crash command crashes) with two tests
        let probe = temp.path("Probe")
        try ConfinementProbePlugin.build(in: probe.appendingPathComponent("build"))
        try Data(#"{"library": "build/libprobe.so"}"#.utf8).write(to: probe.appendingPathComponent("folio-pack.json"))
        for (name, steps) in [("a-crash", #"[["probe-crash"]]"#), ("b-view", "[]")] {
            let folder = probe.appendingPathComponent("tests/\(name)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(#"{"width": 60, "height": 2, "steps": \#(steps)}"#.utf8).write(to: folder.appendingPathComponent("test.json"))
        }
        XCTAssertEqual(folio("plugins", "test", probe.path, "b-view", "--update").status, 0)
        // When both run
        let result = folio("plugins", "test", probe.path)
        // Then the crash fails its test in one line, and the other test still passes
        XCTAssertEqual(result.status, 1)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, result.stdout)
        XCTAssertTrue(lines.first?.hasPrefix("FAIL a-crash: editor 'probe' crashed (SIGSEGV) in 'probe-crash'") == true, result.stdout)
        XCTAssertEqual(lines.last, "ok   b-view (0 steps)")
    }
}
