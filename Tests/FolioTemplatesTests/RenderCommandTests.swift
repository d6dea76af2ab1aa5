import Foundation
import XCTest
import FolioCore
import FolioMustache
import FolioCLITestSupport

/// `folio render` reads only regular files of bounded size and says in one line which file is wrong and why;
/// its renders stay within the Mustache limits of the settings.
final class RenderCommandTests: XCTestCase {
    private var temp: TemporaryDirectory!
    private var env: [String: String] = [:]

    override func setUpWithError() throws {
        temp = TemporaryDirectory()
        env = temp.environment()
        try temp.write("data.json", #"{"name": "Ada", "items": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}"#)
        try temp.write("t.mustache", "Hello {{name}}\n")
    }

    private func render(_ arguments: [String]) -> RunResult {
        runFolio(["render"] + arguments, environment: env, cwd: temp.url)
    }

    private func assertOneLineError(_ result: RunResult, _ fragments: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNotEqual(result.status, 0, file: file, line: line)
        XCTAssertEqual(result.stdout, "", file: file, line: line)
        let text = result.stderr.trimmingCharacters(in: .newlines)
        XCTAssertFalse(text.contains("\n"), "more than one line: \(text)", file: file, line: line)
        XCTAssertFalse(text.contains("NSCocoaErrorDomain") || text.contains("permission"), text, file: file, line: line)
        for fragment in fragments { XCTAssertTrue(text.contains(fragment), "'\(text)' lacks '\(fragment)'", file: file, line: line) }
    }

    func testGivenFIFOAsTemplateWhenRenderedThenOneLineSaysItIsAFIFO() throws {
        // Given a named pipe nobody writes to (reading it would block forever)
        XCTAssertEqual(mkfifo(temp.path("pipe").path, 0o600), 0)
        // When it is rendered, then the error names it and says what it is, without blocking
        assertOneLineError(render(["pipe", "--data", "data.json"]), ["pipe", "cannot read the template", "FIFO"])
        // And as the data file too
        assertOneLineError(render(["t.mustache", "--data", "pipe"]), ["pipe", "cannot read the data file", "FIFO"])
    }

    func testGivenDirectoryAsTemplateWhenRenderedThenOneLineSaysItIsADirectory() throws {
        try FileManager.default.createDirectory(at: temp.path("folder"), withIntermediateDirectories: true)
        assertOneLineError(render(["folder", "--data", "data.json"]), ["folder", "it is a directory, not a regular file"])
    }

    func testGivenMissingTemplateWhenRenderedThenOneLineSaysNoSuchFile() {
        assertOneLineError(render(["none.mustache", "--data", "data.json"]), ["none.mustache", "no such file or directory"])
    }

    func testGivenMissingPartialsFolderWhenRenderedThenRefused() {
        assertOneLineError(render(["t.mustache", "--data", "data.json", "--partials", "nope"]), ["nope", "partials folder"])
    }

    func testGivenFIFOAsPartialWhenRenderedThenRefusedInsteadOfBlocking() throws {
        try FileManager.default.createDirectory(at: temp.path("parts"), withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(temp.path("parts/p.mustache").path, 0o600), 0)
        try temp.write("uses.mustache", "{{>p}}")
        assertOneLineError(render(["uses.mustache", "--data", "data.json", "--partials", "parts"]), ["p.mustache", "FIFO"])
    }

    func testGivenFileAboveTheCapWhenReadThenRefusedBeforeReading() throws {
        let url = try temp.write("big.mustache", String(repeating: "x", count: 2_000))
        XCTAssertThrowsError(try renderFile(at: url, dataJSON: temp.path("data.json"), partialsDirectory: nil, maxFileBytes: 1_000)) { error in
            XCTAssertTrue(String(describing: error).contains("larger than 1000 bytes"), "\(error)")
        }
    }

    func testGivenNestedSectionsWhenRenderedWithStepLimitInSettingsThenLimitErrorWithHint() throws {
        // Given twelve nested sections over a ten-item list and a low step limit in the settings
        try temp.write("nested.mustache", String(repeating: "{{#items}}", count: 12) + "." + String(repeating: "{{/items}}", count: 12))
        try temp.write("home/.config/folio/settings.json", #"{"mustache": {"maxSteps": 100000}}"#)
        // When rendered, then it stops with one line naming the template, the limit and where to raise it
        assertOneLineError(render(["nested.mustache", "--data", "data.json"]), ["nested.mustache", "100000 steps", "maxSteps", "settings.json"])
    }

    func testGivenOutputLimitInSettingsWhenRenderedThenOutputLimitError() throws {
        try temp.write("home/.config/folio/settings.json", #"{"mustache": {"maxOutputBytes": 5}}"#)
        assertOneLineError(render(["t.mustache", "--data", "data.json"]), ["t.mustache", "maxOutputBytes"])
    }

    func testGivenBadLimitInSettingsWhenRenderedThenSettingsFileNamed() throws {
        for bad in [#"{"mustache": {"maxSteps": 0}}"#, #"{"mustache": {"maxDepth": 5000}}"#, #"{"mustache": {"maxSteps": 1e30}}"#,
                    #"{"mustache": {"maxOutputBytes": 1.5}}"#, #"{"mustache": {"maxStep": 10}}"#, #"{"templateFolders": {"maxFiles": -1}}"#] {
            try temp.write("home/.config/folio/settings.json", bad)
            assertOneLineError(render(["t.mustache", "--data", "data.json"]), ["settings.json"])
        }
    }

    func testGivenDefaultLimitsWhenRenderingOrdinaryTemplateThenItRenders() throws {
        try temp.write("list.mustache", "{{#items}}{{.}},{{/items}}")
        let result = render(["list.mustache", "--data", "data.json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "1,2,3,4,5,6,7,8,9,10,")
    }
}
