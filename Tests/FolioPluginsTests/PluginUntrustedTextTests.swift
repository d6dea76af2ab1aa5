import FolioCLITestSupport
import Foundation
import XCTest

/// A plugin's strings are its author's: `plugins list`, `plugins info`, `plugins check` and `folio commands` show its
/// id, name, editor name and command titles with their control characters as visible escapes (an OSC 52 sequence in
/// a title must not write the clipboard, a newline in an id must not split the list line); `--json` keeps them.
final class PluginUntrustedTextTests: XCTestCase {
    private var temp: TemporaryDirectory!
    private var env: [String: String] = [:]

    static let id = "test.tally\n\u{1B}[2Jforged line"
    static let name = "Ta\u{1B}]52;c;cHduZWQ=\u{07}lly"
    static let editorName = "Tally\u{9B}2J\u{202E}"
    static let title = "Count up\u{1B}]52;c;cHduZWQ=\u{07}\r"

    /// The tally plugin with a manifest whose id, name, editor name and first command's title hold escapes.
    override func setUpWithError() throws {
        temp = TemporaryDirectory("folio-untrusted-plugin")
        env = temp.environment(["FOLIO_PLUGIN_PATH": temp.path("plugins").path])
        try MisbehavingPlugin.build(in: temp.path("plugins"))
        let manifest: [String: Any] = [
            "id": Self.id, "name": Self.name, "version": "1.0.0", "abi": 1, "library": "libtally.so",
            "editors": [["id": "tally", "name": Self.editorName, "contentTypes": ["org.test.tally"], "priority": "default",
                         "declaredTypes": [["identifier": "org.test.tally", "conformsTo": ["public.plain-text"], "extensions": ["tally"], "description": "A tally"]],
                         "commands": [["id": "inc", "title": Self.title, "shortcut": "", "usage": "inc", "needsSelection": false]]]],
        ]
        try JSONSerialization.data(withJSONObject: manifest).write(to: temp.path("plugins/libtally.folio-plugin.json"))
    }

    override func tearDown() { temp = nil }

    private func folio(_ args: String..., expect status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) -> RunResult {
        let result = runFolio(args, environment: env, cwd: temp.url)
        XCTAssertEqual(result.status, status, "folio \(args.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        return result
    }

    func testGivenAManifestWithEscapesWhenPluginsAreListedThenIdAndNameAreShownAsTextOnTheirLine() throws {
        // When the plugins are listed
        let list = folio("plugins", "list")
        // Then the plugin's line shows its id and name with visible escapes, and the newline in the id forges no line
        assertShownAsText(list.stdout, ["test.tally\\n\\e[2Jforged line  Ta\\e]52;c;cHduZWQ=\\x07lly 1.0.0"], "list")
        XCTAssertFalse(list.stdout.split(separator: "\n").contains { $0.hasPrefix("\u{1B}[2Jforged") || $0.hasPrefix("\\e[2Jforged") }, list.stdout)
        // And --json keeps the exact id and name
        let json = folio("plugins", "list", "--json").stdout
        assertShownAsText(json, [], "list --json")
        let plugins = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["plugins"] as? [[String: Any]])
        let tally = try XCTUnwrap(plugins.first { ($0["name"] as? String) == Self.name })
        XCTAssertEqual(tally["id"] as? String, Self.id)
    }

    func testGivenAManifestWithEscapesWhenItsInfoIsShownThenNamesAndCommandTitlesAreShownAsText() {
        // When the plugin is described
        let info = folio("plugins", "info", Self.id)
        // Then its name, id, editor name and command title are shown with visible escapes
        assertShownAsText(info.stdout, ["Ta\\e]52;c;cHduZWQ=\\x07lly 1.0.0 (test.tally\\n\\e[2Jforged line)", "\"Tally\\u{9B}2J\\u{202E}\"",
                                        "Count up\\e]52;c;cHduZWQ=\\x07\\r"], "info")
    }

    func testGivenAnEditorWhoseCommandTitleWritesTheClipboardWhenItsCommandsAreListedThenTheTitleIsShownAsText() {
        // Given a tally document
        folio("new", "D", "--type", "org.test.tally")
        // When its editor's commands are listed
        let commands = folio("commands", "D")
        // Then the OSC 52 sequence is shown, not sent: the editor's name and the title are text
        assertShownAsText(commands.stdout, ["Tally\\u{9B}2J\\u{202E} (tally)", "Count up\\e]52;c;cHduZWQ=\\x07\\r"], "commands")
        XCTAssertEqual(commands.stdout.split(separator: "\n").count, 2, commands.stdout)
    }

    func testGivenALibraryWhoseDescriptorHoldsEscapesWhenCheckedThenTheReportShowsThemAsText() throws {
        // Given the tally plugin built with a descriptor naming it with an OSC 52 sequence
        let source = MisbehavingPlugin.source().replacingOccurrences(of: #".name = "Tally", .version"#,
                                                                    with: #".name = "Ta\033]52;c;cHduZWQ=\007lly", .version"#)
        XCTAssertTrue(source.contains(#"\033]52"#), "the descriptor's name was not replaced")
        let library = try PluginFixtures.compilePlugin(source, named: "libhostile.so", in: temp.path("plugins"))
        // When it is checked
        let check = folio("plugins", "check", library.path)
        // Then the name is shown with visible escapes
        assertShownAsText(check.stdout, ["Ta\\e]52;c;cHduZWQ=\\x07lly 1.0.0"], "check")
    }
}
