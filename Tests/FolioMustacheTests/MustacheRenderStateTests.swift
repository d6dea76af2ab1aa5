import Foundation
import XCTest

@testable import FolioMustache

/// What the render keeps between tags (names reused across tags, what a name resolved to, which template's text is
/// being rendered, the output buffer) never changes what a template renders or where an error points.
final class MustacheRenderStateTests: XCTestCase {
    private let noEscape = MustacheRenderOptions(escapeHTML: false)

    func testGivenNameResolvedAtTheRootWhenAnObjectSectionShadowsItThenTheInnerValueWinsAndTheRootOneReturnsAfter() throws {
        // Given a name printed at the root, inside a section over an object that has its own, and at the root again
        let template = try MustacheTemplate("{{x}}|{{#obj}}{{x}}|{{#list}}{{x}}.{{/list}}{{/obj}}|{{x}}")
        let data: MustacheValue = ["x": "root", "obj": ["x": "inner", "list": [["x": "a"], "b"]]]
        // When rendered, then each tag prints what the innermost context holding the name says
        XCTAssertEqual(try template.render(data, options: noEscape), "root|inner|a.inner.|root")
    }

    func testGivenSectionsOverNonObjectsWhenANameIsPrintedInsideThenItStillResolvesFromTheRoot() throws {
        // Given a name printed inside sections whose context is a boolean, then each string of a list
        let template = try MustacheTemplate("{{#t}}{{x}}{{/t}}{{#strings}}[{{x}}{{.}}]{{/strings}}{{^f}}{{x}}{{/f}}")
        let data: MustacheValue = ["x": "X", "t": true, "f": false, "strings": ["1", "2"]]
        // When rendered, then the name is found at the root every time and `.` is the string itself
        XCTAssertEqual(try template.render(data, options: noEscape), "X[X1][X2]X")
    }

    func testGivenNamesAgreeingInTheirFirstBytesWhenRenderedThenEachPrintsItsOwnValue() throws {
        // Given names that share a long prefix, or have the same length and first seven bytes
        let template = try MustacheTemplate("{{abcdefgh1}} {{abcdefgh2}} {{abcdefgh1}} {{abc}} {{abcdefg}} {{a.b}} {{a}}")
        let data: MustacheValue = ["abcdefgh1": "one", "abcdefgh2": "two", "abc": "three", "abcdefg": "seven", "a": ["b": "ab"]]
        // When rendered, then no tag prints another name's value
        XCTAssertEqual(try template.render(data, options: noEscape), "one two one three seven ab ")
    }

    func testGivenStrictRenderWhenABlockArgumentNamesSomethingMissingThenTheErrorPointsIntoTheTemplateThatWroteIt() throws {
        // Given a template passing a block argument with a missing name to a parent kept elsewhere
        let partials = DictionaryPartialLoader(["layout": "top\n{{$body}}{{/body}}\n{{missing_in_layout}}"])
        let template = try MustacheTemplate("{{<layout}}\n{{$body}}\n  {{nope}}\n{{/body}}\n{{/layout}}", name: "page.mustache")
        let strict = MustacheRenderOptions(strict: true, escapeHTML: false)
        // When rendered strictly, then the error names the page and the line and column of the tag in it
        XCTAssertThrowsError(try template.render([:], partials: partials, options: strict)) { error in
            XCTAssertEqual(String(describing: error), "page.mustache:3:3: missing name 'nope'")
        }
        // And once the argument has a value, the parent's own missing name is reported in the parent
        XCTAssertThrowsError(try template.render(["nope": "ok"], partials: partials, options: strict)) { error in
            XCTAssertEqual(String(describing: error), "layout:3:1: missing name 'missing_in_layout'")
        }
    }

    func testGivenOutputLimitReachedInsideAPartialWhenRenderedThenTheErrorNamesThePartialAndTheTemplate() throws {
        // Given a partial that prints more than the output limit allows
        let partials = DictionaryPartialLoader(["big": "{{#list}}{{text}}{{/list}}"])
        let template = try MustacheTemplate("before {{>big}} after", name: "main.mustache")
        let options = MustacheRenderOptions(escapeHTML: false, limits: MustacheLimits(maxOutputBytes: 50))
        let data: MustacheValue = ["list": [1, 2, 3], "text": .string(String(repeating: "z", count: 20))]
        // When rendered, then the error points at the tag inside the partial and says which template was rendered
        XCTAssertThrowsError(try template.render(data, partials: partials, options: options)) { error in
            XCTAssertEqual(String(describing: error),
                           "big:1:10: output passed the limit of 50 bytes (limit maxOutputBytes) while rendering main.mustache")
        }
    }

    func testGivenOutputFarLargerThanTheTemplateWhenRenderedThenEveryByteArrivesInOrder() throws {
        // Given a short template repeating a 10 KB value a hundred times (the buffer must grow many times)
        let chunk = String((0..<10_000).map { Character(UnicodeScalar(UInt8(65 + $0 % 26))) })
        let template = try MustacheTemplate("<{{#list}}{{chunk}}é{{/list}}>")
        let data: MustacheValue = ["list": .array(Array(repeating: true, count: 100)), "chunk": .string(chunk)]
        // When rendered to bytes, then they are exactly the expected text's UTF-8
        let expected = "<" + String(repeating: chunk + "é", count: 100) + ">"
        XCTAssertEqual(try template.renderUTF8(data, options: noEscape), Array(expected.utf8))
        XCTAssertEqual(try template.render(data, options: noEscape), expected)
    }

    func testGivenTheSameSourceAsStringOrBytesWhenParsedThenTheyRenderAndListTagsAlike() throws {
        // Given a template with multibyte text, comments, standalone sections and a partial
        let source = "Ünïcødé {{! note }}\n{{#list}}\n  - {{x}}\n{{/list}}\n{{>p}}€"
        let fromString = try MustacheTemplate(source, name: "s")
        let fromBytes = try MustacheTemplate(utf8: Array(source.utf8), name: "s")
        let data: MustacheValue = ["list": [["x": "a"], ["x": "b"]]]
        let partials = DictionaryPartialLoader(["p": "[{{#list}}{{x}}{{/list}}]"])
        // When rendered, then both give the same text, and the same tags at the same places
        let text = try fromString.render(data, partials: partials, options: noEscape)
        XCTAssertEqual(text, "Ünïcødé \n  - a\n  - b\n[ab]€")
        XCTAssertEqual(try fromBytes.renderUTF8(data, partials: partials, options: noEscape), Array(text.utf8))
        XCTAssertEqual(fromBytes.tags.map { "\($0.name)@\($0.line):\($0.column)" }, fromString.tags.map { "\($0.name)@\($0.line):\($0.column)" })
        XCTAssertEqual(fromString.tags.map { "\($0.name)@\($0.line):\($0.column)" }, ["list@2:1", "p@5:1"])
    }
}
