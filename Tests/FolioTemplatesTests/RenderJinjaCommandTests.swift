import FolioCLITestSupport
import FolioTestSupport
import Foundation
import XCTest

/// `folio render` of a Jinja file: the output Jinja2 3.1.6 gives for the same file, data, options and partials
/// (`Fixtures/render-jinja`, made by its `record.py`), byte for byte on standard output; names that would read outside
/// the partials folder, unknown options and bad data are one line and exit 1.
final class RenderJinjaCommandTests: XCTestCase {
    private var temp: TemporaryDirectory!
    private let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/render-jinja")

    override func setUp() { temp = TemporaryDirectory() }
    override func tearDown() { temp = nil }

    private func render(_ arguments: [String]) -> RunResult {
        runFolio(["render"] + arguments, environment: temp.environment(), cwd: fixture)
    }

    private func assertOneLine(_ result: RunResult, status: Int32 = 1, _ fragments: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, status, result.stderr, file: file, line: line)
        XCTAssertEqual(result.stdout, "", file: file, line: line)
        // A usage error (exit 2) adds the command's usage line after its one line.
        XCTAssertEqual(result.stderr.split(separator: "\n").count, status == 2 ? 2 : 1, result.stderr, file: file, line: line)
        for fragment in fragments { XCTAssertTrue(result.stderr.contains(fragment), "'\(fragment)' in: \(result.stderr)", file: file, line: line) }
    }

    func testGivenAJinjaPageWithOptionsAndPartialsWhenRenderedThenTheOutputIsJinja2sByteForByte() throws {
        let result = render(["page.j2", "--data", "data.json", "--options", "options.json", "--partials", "partials"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(Data(result.stdout.utf8), try Data(contentsOf: fixture.appendingPathComponent("expected.txt")))
    }

    func testGivenAFileWithoutAJinjaExtensionWhenTheLanguageIsGivenThenItRendersAsJinjaAndOtherwiseAsMustache() throws {
        let file = temp.path("t.txt"), data = temp.path("d.json")
        try "{{ name | upper }}{# c #}\n".write(to: file, atomically: true, encoding: .utf8)
        try #"{"name": "ada"}"#.write(to: data, atomically: true, encoding: .utf8)
        let jinja = render([file.path, "--data", data.path, "--language", "jinja"])
        XCTAssertEqual(jinja.status, 0, jinja.stderr)
        XCTAssertEqual(jinja.stdout, "ADA")
        assertOneLine(render([file.path, "--data", data.path, "--language", "python"]), status: 2, ["--language takes jinja or mustache"])
        assertOneLine(render([file.path, "--data", data.path, "--options", "options.json"]), status: 2, ["--options takes Jinja's options"])
    }

    func testGivenNamesThatWouldReadOutsideThePartialsFolderWhenRenderedThenEachIsRefusedInOneLine() throws {
        let partials = temp.path("partials")
        try FileManager.default.createDirectory(at: partials, withIntermediateDirectories: true)
        try "secret\n".write(to: temp.path("secret.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: partials.appendingPathComponent("out.j2").path, withDestinationPath: temp.path("secret.txt").path)
        let data = temp.path("d.json")
        try "{}".write(to: data, atomically: true, encoding: .utf8)
        for (include, why) in [("out.j2", "leads outside the partials folder"), ("../secret.txt", "would leave the partials folder"),
                               ("/etc/passwd", "is absolute")] {
            let page = temp.path("page.j2")
            try "{% include '\(include)' %}".write(to: page, atomically: true, encoding: .utf8)
            let result = render([page.path, "--data", data.path, "--partials", partials.path])
            assertOneLine(result, [why])
            XCTAssertFalse(result.stdout.contains("secret"))
        }
    }

    func testGivenBadOptionsOrDataWhenRenderedThenOneLineNamesTheFile() throws {
        let bad = temp.path("bad-options.json"), list = temp.path("list.json")
        try #"{"trim_blocks": true, "autoreload_everything": 1}"#.write(to: bad, atomically: true, encoding: .utf8)
        try "[1, 2]".write(to: list, atomically: true, encoding: .utf8)
        assertOneLine(render(["page.j2", "--data", "data.json", "--options", bad.path]), ["bad-options.json", "autoreload_everything"])
        assertOneLine(render(["page.j2", "--data", list.path]), ["list.json", "one JSON object"])
        assertOneLine(render(["page.j2", "--data", "data.json", "--options", "options.json"]), ["page.j2", "base.j2"])
    }
}
