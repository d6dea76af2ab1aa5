import XCTest

@testable import FolioJinja

/// Whitespace control is byte-exact: these outputs are Jinja2 3.1.6's, byte for byte.
final class JinjaWhitespaceTests: XCTestCase {
    func render(_ source: String, _ options: JinjaOptions = JinjaOptions(), _ data: [(String, JinjaValue)] = []) throws -> String {
        try JinjaTemplate(source: source, environment: JinjaEnvironment(options: options)).render(data)
    }

    func testGivenDashMarkersInsideALoopWhenRenderedThenTheIndentOfEachItemIsKeptAndTheTagLinesVanish() throws {
        let source = "<ul>\n  {%- for x in xs %}\n  <li>{{ x }}</li>\n  {%- endfor %}\n</ul>\n"
        XCTAssertEqual(try render(source, JinjaOptions(), [("xs", .array([.int(1), .int(2)]))]), "<ul>\n  <li>1</li>\n  <li>2</li>\n</ul>")
    }

    func testGivenTrimAndLstripBlocksWhenATomlTemplateRendersThenBlockLinesLeaveNoBlankLines() throws {
        var options = JinjaOptions()
        options.trimBlocks = true
        options.lstripBlocks = true
        let source = "[project]\n    {% if name %}\nname = \"{{ name }}\"\n    {% endif %}\n{#- note #}\nversion = \"1\"\n"
        XCTAssertEqual(try render(source, options, [("name", .string("x"))]), "[project]\nname = \"x\"\nversion = \"1\"")
    }

    func testGivenKeepTrailingNewlineWhenTheTemplateUsesCRLFThenNewlinesBecomeLFAndTheLastOneStays() throws {
        var options = JinjaOptions()
        options.keepTrailingNewline = true
        XCTAssertEqual(try render("a\r\nb\n", options), "a\nb\n")
        XCTAssertEqual(try render("a\r\nb\n"), "a\nb")
    }

    func testGivenDashesOnSetBlockAndExpressionWhenRenderedThenWhitespaceOnThatSideOnlyIsRemoved() throws {
        XCTAssertEqual(try render("{% set x -%}\n  val\n{%- endset %}[{{ x }}]  {{- \" y\" }}"), "[val] y")
    }

    func testGivenAPlusMarkerWhenLstripBlocksIsOnThenTheIndentBeforeThatTagIsKept() throws {
        var options = JinjaOptions()
        options.lstripBlocks = true
        XCTAssertEqual(try render("  {%+ if true %}x{% endif %}", options), "  x")
        XCTAssertEqual(try render("  {% if true %}x{% endif %}", options), "x")
    }

    func testGivenCustomDelimitersWhenRenderedThenOnlyThoseDelimitersAreTags() throws {
        var options = JinjaOptions()
        options.blockStart = "<%"
        options.blockEnd = "%>"
        options.variableStart = "${"
        options.variableEnd = "}"
        XCTAssertEqual(try render("{{ x }}<% for i in [1, 2] %>${i}<% endfor %>", options), "{{ x }}12")
    }
}
