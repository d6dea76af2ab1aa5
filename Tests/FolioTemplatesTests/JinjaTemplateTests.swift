import Foundation
import XCTest
import FolioCLITestSupport

/// Native Folio templates written in Jinja (`"language": "jinja"` in template.json): contents, path segments,
/// `primaryFile` and defaults rendered by FolioJinja, includes from `partials/`, lint with positions, fixtures.
final class JinjaTemplateTests: XCTestCase {
    private var temp: TemporaryDirectory!
    private var env: [String: String] = [:]

    override func setUpWithError() throws {
        temp = TemporaryDirectory("folio-jinja-template")
        env = temp.environment()
        try write("jt/template.json", """
        {"id": "jinja-app", "name": "Jinja app", "version": "1.0.0", "language": "jinja", "contentType": "public.plain-text",
         "primaryFile": "{{ slug }}/README.md",
         "variables": [{"name": "project", "type": "string", "default": "My App"},
                       {"name": "slug", "type": "string", "default": "{{ project | lower | replace(' ', '-') }}"},
                       {"name": "license", "type": "choice", "choices": ["MIT", "Apache-2.0"], "default": "MIT"},
                       {"name": "ci", "type": "bool", "default": false}]}
        """)
        try write("jt/files/{{ slug }}/README.md", """
        # {{ project }}
        {% include 'badge.md' %}
        {%- if license_MIT %}
        MIT licensed, {{ project | length }} letters
        {%- endif %}
        {% for word in project.split() %}{{ loop.index }}={{ word }}{{ ', ' if not loop.last }}{% endfor %}

        """)
        try write("jt/files/{{ slug }}/{% if ci %}ci.yml{% endif %}", "on: push\n")
        try write("jt/files/{{ slug }}/raw.txt", "curly { braces } only\n")
        try write("jt/partials/badge.md", "[{{ license }}]")
    }

    override func tearDown() { temp = nil }

    private func write(_ path: String, _ text: String) throws {
        let url = temp.path(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    private func folio(_ arguments: String...) -> RunResult { runFolio(arguments, environment: env, cwd: temp.url) }

    func testGivenAJinjaTemplateWhenADocumentIsMadeThenContentsPathsDefaultsAndIncludesRenderAsJinja() throws {
        let made = folio("new", "doc", "--template", "./jt", "--defaults")
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertEqual(try String(contentsOf: temp.path("doc/my-app/README.md"), encoding: .utf8),
                       "# My App\n[MIT]\nMIT licensed, 6 letters\n1=My, 2=App\n")
        XCTAssertEqual(try String(contentsOf: temp.path("doc/my-app/raw.txt"), encoding: .utf8), "curly { braces } only\n",
                       "a file without tags is copied as it is")
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("doc/my-app/ci.yml").path), "a segment rendering empty drops the file")
        let other = folio("new", "doc2", "--template", "./jt", "--defaults", "--set", "ci=true", "--set", "project=Big Tool", "--set", "license=Apache-2.0")
        XCTAssertEqual(other.status, 0, other.stderr)
        XCTAssertEqual(try String(contentsOf: temp.path("doc2/big-tool/ci.yml"), encoding: .utf8), "on: push\n")
        XCTAssertEqual(try String(contentsOf: temp.path("doc2/big-tool/README.md"), encoding: .utf8), "# Big Tool\n[Apache-2.0]\n1=Big, 2=Tool\n")
    }

    func testGivenABrokenJinjaTemplateWhenLintedOrUsedThenEachProblemIsOneLineWithItsPosition() throws {
        try write("jt/files/{{ slug }}/broken.txt", "ok\n{% if ci %}\nnever closed\n")
        try write("jt/files/{{ slug }}/{{ slug | nosuchfilter }}.txt", "x\n")
        let lint = folio("templates", "lint", "jt")
        XCTAssertEqual(lint.status, 1)
        XCTAssertTrue(lint.stdout.contains("jt/files/{{ slug }}/broken.txt:4:1: error T207: TemplateSyntaxError: "), lint.stdout)
        XCTAssertTrue(lint.stdout.contains("{{ slug | nosuchfilter }}.txt:1:1: error T207: TemplateAssertionError: No filter named 'nosuchfilter'."), lint.stdout)
        let made = folio("new", "doc", "--template", "./jt", "--defaults")
        XCTAssertEqual(made.status, 1)
        XCTAssertEqual(made.stderr.split(separator: "\n").count, 1, made.stderr)
        XCTAssertTrue(made.stderr.contains("TemplateAssertionError") || made.stderr.contains("TemplateSyntaxError"), made.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("doc").path), "nothing half-written")
    }

    func testGivenAJinjaTemplateWithAFixtureWhenTestedThenItPassesAndAChangedOutputIsNamed() throws {
        try write("jt/tests/defaults/fixture.json", #"{"description": "the defaults", "answers": {}}"#)
        let update = folio("templates", "test", "jt", "--update-golden")
        XCTAssertEqual(update.status, 0, update.stdout + update.stderr)
        XCTAssertEqual(try String(contentsOf: temp.path("jt/tests/defaults/expected/my-app/README.md"), encoding: .utf8),
                       "# My App\n[MIT]\nMIT licensed, 6 letters\n1=My, 2=App\n")
        XCTAssertEqual(folio("templates", "test", "jt").status, 0)
        try write("jt/partials/badge.md", "<{{ license }}>")
        let failed = folio("templates", "test", "jt")
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue((failed.stdout + failed.stderr).contains("my-app/README.md"), failed.stdout + failed.stderr)
        XCTAssertEqual(folio("templates", "lint", "jt").status, 0, "a clean Jinja template lints clean")
    }

    func testGivenAnUnknownLanguageWhenTheManifestIsReadThenItIsRefusedNamingTheKey() throws {
        try write("jt/template.json", #"{"id": "x", "name": "X", "version": "1.0.0", "language": "erb"}"#)
        let made = folio("new", "doc", "--template", "./jt", "--defaults")
        XCTAssertEqual(made.status, 1)
        XCTAssertTrue(made.stderr.contains("template.json") && made.stderr.contains("language"), made.stderr)
    }
}
