import Foundation
import XCTest
import FolioCLITestSupport

/// A template's strings are its author's: `templates list`, `show`, `lint` and `test` show its name, summary, prompt,
/// default and file names with their control characters as visible escapes, never send them to the terminal or let
/// them split a line; `--json` keeps the exact text.
final class TemplateUntrustedTextTests: XCTestCase {
    var temp: TemporaryDirectory!

    /// A folder template whose name writes the clipboard (OSC 52), whose summary holds an 8-bit CSI, a bidi override
    /// and a newline, whose prompt and default hold CSI sequences, and whose one file's name clears the screen.
    override func setUpWithError() throws {
        temp = TemporaryDirectory()
        let folder = temp.path("evil")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("files"), withIntermediateDirectories: true)
        try Data(#"""
        {"id": "evil/t", "name": "Evil\u001b]52;c;cHduZWQ=\u0007 name", "summary": "Sum\u009b2J\u202emary\nsecond line", "version": "1.0.0",
         "variables": [{"name": "who", "type": "string", "default": "w\u001b[31m", "prompt": "Who\u001b[2J?\r"}]}
        """#.utf8).write(to: folder.appendingPathComponent("template.json"))
        try Data("Hello {{who}}\n".utf8).write(to: folder.appendingPathComponent("files/a\u{1B}[2J\u{202E}.txt"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("tests/basic/expected"), withIntermediateDirectories: true)
        try Data(#"{"answers": {}}"#.utf8).write(to: folder.appendingPathComponent("tests/basic/fixture.json"))
        try Data("Hello w\n".utf8).write(to: folder.appendingPathComponent("tests/basic/expected/hello.txt"))
    }

    private func folio(_ args: String..., expect status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) -> RunResult {
        let result = runFolio(args, environment: temp.environment(), cwd: temp.url)
        XCTAssertEqual(result.status, status, "folio \(args.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        return result
    }

    func testGivenATemplateWithEscapesInItsStringsWhenListedThenTheyAreShownAsTextOnOneLineAndJSONKeepsThem() throws {
        // When the folder's templates are listed
        let list = folio("templates", "list", "--source", "./evil")
        // Then the name and summary show their escapes, the template stays one line under its source's line
        assertShownAsText(list.stdout, ["Evil\\e]52;c;cHduZWQ=\\x07 name", "Sum\\u{9B}2J\\u{202E}mary\\nsecond line"], "list")
        XCTAssertEqual(list.stdout.split(separator: "\n").count, 2, list.stdout)
        // And --json keeps the exact strings
        let json = folio("templates", "list", "--source", "./evil", "--json").stdout
        assertShownAsText(json, [], "list --json")
        let listing = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let template = try XCTUnwrap((listing["templates"] as? [[String: Any]])?.first)
        XCTAssertEqual(template["name"] as? String, "Evil\u{1B}]52;c;cHduZWQ=\u{07} name")
        XCTAssertEqual(template["summary"] as? String, "Sum\u{9B}2J\u{202E}mary\nsecond line")
    }

    func testGivenATemplateWithEscapesInItsStringsWhenShownThenNamePromptDefaultAndFileNamesAreShownAsText() throws {
        // When the template is shown
        let shown = folio("templates", "show", "evil/t", "--source", "./evil")
        // Then every field of the author's shows its escapes instead of driving the terminal
        assertShownAsText(shown.stdout, ["Evil\\e]52;c;cHduZWQ=\\x07 name (evil/t 1.0.0)", "  Sum\\u{9B}2J\\u{202E}mary\\nsecond line\n",
                                         "default: \"w\\e[31m\"", "— Who\\e[2J?\\r\n", "  a\\e[2J\\u{202E}.txt\n"], "show")
        // And --json keeps the exact file name
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(folio("templates", "show", "evil/t", "--source", "./evil", "--json").stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["files"] as? [String], ["a\u{1B}[2J\u{202E}.txt"])
    }

    func testGivenATemplateWithAnEscapeInAFileNameWhenLintedAndTestedThenTheOffendingPathIsShownAsText() throws {
        // When the template is linted and its fixture run
        let lint = folio("templates", "lint", "evil", expect: 1)
        let test = folio("templates", "test", "evil", expect: 1)
        // Then each finding quotes the offending path with visible escapes, one line each
        assertShownAsText(lint.stdout + lint.stderr, ["evil/files/a\\e[2J\\u{202E}.txt: error T402"], "lint")
        XCTAssertTrue(lint.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("evil/") }, lint.stdout)
        assertShownAsText(test.stdout + test.stderr, ["files/a\\e[2J\\u{202E}.txt"], "test")
        // And lint's --json keeps the exact path
        let json = folio("templates", "lint", "evil", "--json", expect: 1).stdout
        XCTAssertTrue(json.contains(#""file" : "files/a\u001b[2J\u202e.txt""#), json)
    }
}
