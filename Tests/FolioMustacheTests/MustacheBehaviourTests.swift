import Foundation
import XCTest

@testable import FolioMustache

final class MustacheRenderingTests: XCTestCase {
    private func render(_ template: String, _ data: MustacheValue = [:], options: MustacheRenderOptions = .init()) throws -> String {
        try MustacheTemplate(template).render(data, options: options)
    }

    func testSectionOverEmptyListRendersNothing() throws {
        XCTAssertEqual(try render("[{{#items}}x{{/items}}]", ["items": []]), "[]")
    }

    func testSectionOverListRepeatsWithEachItemAsContext() throws {
        XCTAssertEqual(try render("{{#items}}<{{name}}>{{/items}}", ["items": [["name": "a"], ["name": "b"]]]), "<a><b>")
    }

    func testInvertedSectionRendersForMissingFalseAndEmpty() throws {
        XCTAssertEqual(try render("{{^a}}1{{/a}}{{^b}}2{{/b}}{{^c}}3{{/c}}{{^d}}4{{/d}}", ["b": false, "c": [], "d": "x"]), "123")
    }

    func testEscapingCanBeTurnedOffForCodeTemplates() throws {
        let data: MustacheValue = ["t": "a < b && c"]
        XCTAssertEqual(try render("{{t}}", data), "a &lt; b &amp;&amp; c")
        XCTAssertEqual(try render("{{t}}", data, options: .init(escapeHTML: false)), "a < b && c")
    }

    func testIntegersPrintWithoutFractionAndDecimalsAsWritten() throws {
        let data = try MustacheValue(json: Data(#"{"i": 1, "d": 1.21, "big": 12345678901234, "w": 2.0}"#.utf8))
        XCTAssertEqual(try render("{{i}} {{d}} {{big}} {{w}}", data), "1 1.21 12345678901234 2")
    }

    func testMissingNameRendersEmptyByDefault() throws {
        XCTAssertEqual(try render("[{{nope}}][{{a.b}}]", ["a": [:]]), "[][]")
    }

    func testStrictModeReportsMissingNameWithLocation() {
        // Given a template whose third line uses an unknown name, when rendered strictly, then the error points at it.
        let template = try? MustacheTemplate("Title\n\nBy {{author}} on {{date.year}}", name: "story.md.mustache")
        XCTAssertThrowsError(try template?.render(["author": "Ann", "date": [:]], options: .init(strict: true))) { error in
            XCTAssertEqual(String(describing: error), "story.md.mustache:3:18: missing name 'date.year'")
        }
    }

    func testStrictModeAcceptsExplicitNull() throws {
        XCTAssertEqual(try render("[{{x}}]", ["x": nil], options: .init(strict: true)), "[]")
    }

    func testCompiledTemplateIsReusableAcrossRenders() throws {
        let template = try MustacheTemplate("Hi {{name}}")
        XCTAssertEqual(try template.render(["name": "A"]), "Hi A")
        XCTAssertEqual(try template.render(["name": "B"]), "Hi B")
    }

    func testRenderingThreeHundredFilesOfFortyLinesIsFast() throws {
        // Given a 40-line template, when it is rendered 300 times, then the batch stays far below a
        // second even in a debug build on a shared machine (a quadratic slip would blow through it).
        var lines: [String] = []
        for i in 0..<40 {
            lines.append("Line \(i): {{title.title_case}} by {{author}} {{#tags}}[{{.}}]{{/tags}}{{^draft}} final{{/draft}}")
        }
        let template = try MustacheTemplate(lines.joined(separator: "\n"))
        let data: MustacheValue = ["title": "my great app", "author": "Ann <ann@example.com>", "tags": ["a", "b", "c"], "draft": false]
        let start = Date()
        var total = 0
        for _ in 0..<300 { total += try template.render(data).utf8.count }
        print("render 300 x 40 lines: \(Date().timeIntervalSince(start) * 1000) ms")
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertGreaterThan(total, 300 * 40 * 20)
        XCTAssertLessThan(elapsed, 3.0, "300 renders took \(elapsed)s")
    }
}

final class MustacheParseErrorTests: XCTestCase {
    private func parseError(_ source: String) -> String? {
        do {
            _ = try MustacheTemplate(source, name: "t.mustache")
            return nil
        } catch {
            return String(describing: error)
        }
    }

    func testUnclosedSectionNamesSectionAndOpeningTag() {
        XCTAssertEqual(parseError("a\n  {{#items}}\nx"), "t.mustache:2:3: unclosed section 'items'")
    }

    func testMismatchedCloseTagNamesBothSections() {
        XCTAssertEqual(
            parseError("{{#a}}\n{{/b}}"),
            "t.mustache:2:1: mismatched close tag 'b': the open section is 'a' (line 1, column 1)")
    }

    func testCloseTagWithoutOpenSectionIsAnError() {
        XCTAssertEqual(parseError("x {{/a}}"), "t.mustache:1:3: close tag 'a' has no open section")
    }

    func testUnclosedTagIsAnError() {
        XCTAssertEqual(parseError("ok\nnot {{ok"), "t.mustache:2:5: unclosed tag: missing '}}'")
        XCTAssertEqual(parseError("{{{raw}}"), "t.mustache:1:1: unclosed tag: missing '}}}'")
    }

    func testBadSetDelimiterIsAnError() {
        XCTAssertEqual(parseError("{{=<% %>}}"), "t.mustache:1:1: unbalanced set-delimiter tag: expected a closing '='")
        XCTAssertNotNil(parseError("{{=<%=}}"))
        XCTAssertNotNil(parseError("{{=a b c=}}"))
        XCTAssertNotNil(parseError("{{= =}}"))
    }

    func testColumnsCountCharactersNotBytes() {
        XCTAssertEqual(parseError("héllo {{#x}}"), "t.mustache:1:7: unclosed section 'x'")
    }

    func testErrorIsLocalizedWithTheSameOneLineText() {
        let error = MustacheError(file: "f", line: 2, column: 3, message: "m")
        XCTAssertEqual(error.errorDescription, "f:2:3: m")
        XCTAssertEqual(MustacheError(file: "f", message: "m").description, "f: m")
    }
}

final class MustacheValueTests: XCTestCase {
    func testJSONBooleansStayBooleansAndNumbersStayNumbers() throws {
        let value = try MustacheValue(json: Data(#"{"t": true, "f": false, "one": 1, "zero": 0, "d": 1.5, "n": null}"#.utf8))
        XCTAssertEqual(value, ["t": true, "f": false, "one": 1, "zero": 0, "d": 1.5, "n": nil])
        guard case .object(let dict) = value else { return XCTFail("not an object") }
        XCTAssertEqual(dict["t"].map { "\($0)" }, "bool(true)")
        XCTAssertEqual(dict["one"].map { "\($0)" }, "int(1)")
        XCTAssertEqual(dict["zero"].map { "\($0)" }, "int(0)")
    }

    func testObjectEqualityIgnoresKeyOrder() throws {
        let a = try MustacheValue(json: Data(#"{"x": 1, "y": [true, "s"]}"#.utf8))
        let b = try MustacheValue(json: Data(#"{"y": [true, "s"], "x": 1.0}"#.utf8))
        XCTAssertEqual(a, b)
        XCTAssertNotEqual(a, ["x": 2, "y": [true, "s"]])
    }

    func testConversionFromSwiftValues() throws {
        let value = try MustacheValue(jsonObject: ["b": true, "i": 3, "d": 0.5, "s": "x", "l": [1, 2]] as [String: Any])
        XCTAssertEqual(value, ["b": true, "i": 3, "d": 0.5, "s": "x", "l": [1, 2]])
    }

    func testMalformedJSONThrows() {
        XCTAssertThrowsError(try MustacheValue(json: Data("{\"a\": ".utf8)))
    }

    func testUnsupportedValueThrows() {
        XCTAssertThrowsError(try MustacheValue(jsonObject: Date()))
    }
}

final class MustacheCaseHelperTests: XCTestCase {
    private func helpers(_ s: String) throws -> [String] {
        let names = ["lowercase", "uppercase", "snake_case", "kebab_case", "camelCase", "PascalCase", "title_case", "slug"]
        let template = try MustacheTemplate(names.map { "{{s.\($0)}}" }.joined(separator: "|"))
        return try template.render(["s": .string(s)], options: .init(escapeHTML: false)).components(separatedBy: "|")
    }

    func testHelpersOnSpacedWords() throws {
        XCTAssertEqual(
            try helpers("My Great App"),
            ["my great app", "MY GREAT APP", "my_great_app", "my-great-app", "myGreatApp", "MyGreatApp", "My Great App", "my-great-app"])
    }

    func testHelpersSplitAcronymsAndCamelCase() throws {
        XCTAssertEqual(try helpers("HTTPServer")[2], "http_server")
        XCTAssertEqual(try helpers("myGreatApp")[3], "my-great-app")
        XCTAssertEqual(try helpers("some_snake-and kebab")[5], "SomeSnakeAndKebab")
    }

    func testSlugIsLowercaseASCIIWithSingleDashes() throws {
        XCTAssertEqual(try helpers("  Héllo, World!! -- 2024 ")[7], "hello-world-2024")
    }

    func testRealObjectKeysWinOverHelpers() throws {
        let data: MustacheValue = ["s": ["slug": "custom"]]
        XCTAssertEqual(try MustacheTemplate("{{s.slug}}").render(data), "custom")
    }

    func testHelpersDoNotApplyToNonStrings() throws {
        XCTAssertEqual(try MustacheTemplate("[{{n.slug}}]").render(["n": 3]), "[]")
    }
}
