import XCTest

@testable import FolioMustache

/// Template inheritance (`~inheritance` module): parents `{{<p}}…{{/p}}` with blocks `{{$b}}…{{/b}}`.
final class MustacheInheritanceTests: XCTestCase {
    private func render(_ template: String, _ data: MustacheValue = [:], _ partials: [String: String] = [:]) throws -> String {
        try MustacheTemplate(template).render(data, partials: DictionaryPartialLoader(partials))
    }

    func testBlockWithoutOverrideRendersDefaultContent() throws {
        XCTAssertEqual(try render("{{$title}}Untitled {{kind}}{{/title}}\n", ["kind": "note"]), "Untitled note\n")
    }

    func testParentWithoutArgumentsRendersItsDefaults() throws {
        XCTAssertEqual(try render("{{<page}}{{/page}}\n", [:], ["page": "<h1>{{$title}}Home{{/title}}</h1>"]), "<h1>Home</h1>")
    }

    func testArgumentOverridesParentBlock() throws {
        // Given a parent with two blocks, when only one is passed, then the other keeps its default.
        let partials = ["page": "[{{$title}}Home{{/title}}|{{$footer}}(c){{/footer}}]"]
        XCTAssertEqual(try render("{{<page}}{{$title}}About{{/title}}{{/page}}", [:], partials), "[About|(c)]")
    }

    func testDataDoesNotOverrideBlock() throws {
        let partials = ["page": "{{$title}}from parent{{/title}}"]
        XCTAssertEqual(try render("{{<page}}{{/page}}", ["title": "from data"], partials), "from parent")
    }

    func testTextInsideParentTagIsIgnored() throws {
        let partials = ["page": "{{$body}}default{{/body}}"]
        XCTAssertEqual(try render("{{<page}} ignored {{$body}}kept{{/body}} {{ignored}} {{/page}}", [:], partials), "kept")
    }

    func testSameParentTwiceWithDifferentArguments() throws {
        let partials = ["box": "<{{$in}}?{{/in}}>"]
        XCTAssertEqual(try render("{{<box}}{{$in}}a{{/in}}{{/box}} {{<box}}{{$in}}b{{/in}}{{/box}}", [:], partials), "<a> <b>")
    }

    func testTopLevelArgumentWinsInMultiLevelInheritance() throws {
        let partials = [
            "layout": "{{<base}}{{$title}}layout{{/title}}{{/base}}",
            "base": "{{$title}}base{{/title}}",
        ]
        XCTAssertEqual(try render("{{<layout}}{{$title}}page{{/title}}{{/layout}}", [:], partials), "page")
        XCTAssertEqual(try render("{{<layout}}{{/layout}}", [:], partials), "layout")
    }

    func testArgumentsReachPartialsOfTheParent() throws {
        let partials = ["layout": "{{>header}}", "header": "# {{$title}}Untitled{{/title}}"]
        XCTAssertEqual(try render("{{<layout}}{{$title}}Notes{{/title}}{{/layout}}", [:], partials), "# Notes")
    }

    func testArgumentRendersInTheContextOfTheParentBlock() throws {
        let partials = ["parent": "{{#item}}{{$line}}-{{/line}}{{/item}}"]
        let data: MustacheValue = ["name": "outer", "item": ["name": "inner"]]
        XCTAssertEqual(try render("{{<parent}}{{$line}}I am {{name}}{{/line}}{{/parent}}", data, partials), "I am inner")
    }

    func testStandaloneParentIsIndentedAndLeavesNoBlankLine() throws {
        let partials = ["list": "- one\n- two\n"]
        XCTAssertEqual(try render("Items:\n  {{<list}}{{/list}}\nEnd\n", [:], partials), "Items:\n  - one\n  - two\nEnd\n")
    }

    func testStandaloneParentAndBlockTagsOnSeparateLinesLeaveNoBlankLines() throws {
        let template = "{{<doc}}\n{{$body}}\nHello\n{{/body}}\n{{/doc}}\nBye\n"
        let partials = ["doc": "Start\n{{$body}}\n{{/body}}\nEnd\n"]
        XCTAssertEqual(try render(template, [:], partials), "Start\nHello\nEnd\nBye\n")
    }

    func testArgumentIsReindentedToTheBlockSite() throws {
        // Given an argument indented by four spaces and a block indented by two,
        // then the argument lines come out indented by two.
        let template = "{{<parent}}{{$block}}\n    one\n    two\n{{/block}}{{/parent}}\n"
        let partials = ["parent": "Hi,\n  {{$block}}\n  {{/block}}\n"]
        XCTAssertEqual(try render(template, [:], partials), "Hi,\n  one\n  two\n")
    }

    func testBlockIndentationComesFromDefaultContentWhenStandalone() throws {
        let template = "{{<parent}}{{$block}}\none\ntwo\n{{/block}}{{/parent}}\n"
        let partials = ["parent": "Hi,\n{{$block}}\n  default\n{{/block}}\n"]
        XCTAssertEqual(try render(template, [:], partials), "Hi,\n  one\n  two\n")
    }

    func testInlineBlockAfterIndentationIndentsFollowingLines() throws {
        let template = "{{<parent}}{{$block}}\none\ntwo{{/block}}\n{{/parent}}\n"
        let partials = ["parent": "Hi,\n  {{$block}}{{/block}}\n"]
        XCTAssertEqual(try render(template, [:], partials), "Hi,\n  one\n  two\n")
    }

    func testNestedBlocksAreReindentedRelativeToTheirBlock() throws {
        let template = "{{<parent}}{{$nested}}\nthree\n{{/nested}}{{/parent}}\n"
        let partials = [
            "parent": "{{<grandparent}}{{$block}}\n  one\n  {{$nested}}\n    two\n  {{/nested}}\n{{/block}}{{/grandparent}}\n",
            "grandparent": "{{$block}}default{{/block}}",
        ]
        XCTAssertEqual(try render(template, [:], partials), "one\n  three\n")
    }

    func testRecursionThroughParentsTerminatesWhenArgumentsChange() throws {
        let partials = [
            "parent": "{{$foo}}default content{{/foo}} {{$bar}}{{<parent2}}{{/parent2}}{{/bar}}",
            "parent2": "{{$foo}}parent2 default content{{/foo}} {{<parent}}{{$bar}}don't recurse{{/bar}}{{/parent}}",
        ]
        XCTAssertEqual(
            try render("{{<parent}}{{$foo}}override{{/foo}}{{/parent}}", [:], partials), "override override override don't recurse")
    }

    func testMissingParentRendersNothing() throws {
        XCTAssertEqual(try render("[{{<nope}}{{$a}}x{{/a}}{{/nope}}]"), "[]")
    }

    func testUnclosedParentIsAParseError() {
        XCTAssertThrowsError(try MustacheTemplate("{{<page}}{{$a}}x{{/a}}", name: "t.mustache")) { error in
            XCTAssertEqual((error as? MustacheError)?.description, "t.mustache:1:1: unclosed parent 'page'")
        }
    }

    func testParentsRecursingForeverThrowInsteadOfOverflowing() {
        let partials = ["loop": "{{<loop}}{{$x}}y{{/x}}{{/loop}}"]
        XCTAssertThrowsError(try render("{{<loop}}{{/loop}}", [:], partials)) { error in
            XCTAssertEqual((error as? MustacheError)?.limit, .maxDepth, "\(error)")
            XCTAssertTrue(String(describing: error).contains("100 levels"), "\(error)")
        }
    }
}

/// Dynamic names (`~dynamic-names` module): `{{>*name}}` and `{{<*name}}` resolved from the context.
final class MustacheDynamicNameTests: XCTestCase {
    private func render(_ template: String, _ data: MustacheValue, _ partials: [String: String]) throws -> String {
        try MustacheTemplate(template).render(data, partials: DictionaryPartialLoader(partials))
    }

    func testDynamicPartialNameComesFromContext() throws {
        XCTAssertEqual(try render("\"{{>*dynamic}}\"", ["dynamic": "content"], ["content": "Hello"]), "\"Hello\"")
    }

    func testAsteriskIsNotPartOfTheResolvedName() throws {
        let data: MustacheValue = ["dynamic": "content", "*dynamic": "wrong"]
        XCTAssertEqual(try render("{{>*dynamic}}", data, ["content": "right", "wrong": "wrong"]), "right")
    }

    func testDynamicNameMissFromContextRendersNothing() throws {
        XCTAssertEqual(try render("[{{>*missing}}]", [:], ["missing": "no"]), "[]")
    }

    func testDynamicNameOfUnknownPartialRendersNothing() throws {
        XCTAssertEqual(try render("[{{>*dynamic}}]", ["dynamic": "nothing"], ["other": "x"]), "[]")
    }

    func testDynamicDottedNameIsResolvedBeforeLookup() throws {
        let data: MustacheValue = ["text": "Hi", "foo": ["bar": ["baz": "partial"]]]
        XCTAssertEqual(try render("{{>*foo.bar.baz}}", data, ["partial": "*{{text}}*"]), "*Hi*")
    }

    func testDottedDynamicNameDoesNotPushAContextFrame() throws {
        let data: MustacheValue = ["section1": ["value": "one"], "section2": ["dynamic": "partial", "value": "two"]]
        XCTAssertEqual(try render("{{#section1}}{{>*section2.dynamic}}{{/section1}}", data, ["partial": "{{value}}"]), "one")
    }

    func testDynamicNamesCannotBeDereferencedTwice() throws {
        let data: MustacheValue = ["dynamic": "test", "test": "content"]
        XCTAssertEqual(try render("[{{>**dynamic}}]", data, ["content": "no"]), "[]")
    }

    func testDynamicPartialRecursesWithData() throws {
        let data: MustacheValue = ["template": "node", "content": "X", "nodes": [["content": "Y", "nodes": []]]]
        XCTAssertEqual(try render("{{>*template}}", data, ["node": "{{content}}<{{#nodes}}{{>*template}}{{/nodes}}>"]), "X<Y<>>")
    }

    func testStandaloneDynamicPartialIsIndented() throws {
        let data: MustacheValue = ["dynamic": "partial", "content": "<\n->"]
        XCTAssertEqual(
            try render("\\\n {{>*dynamic}}\n/\n", data, ["partial": "|\n{{{content}}}\n|\n"]), "\\\n |\n <\n->\n |\n/\n")
    }

    func testPaddingInsideDynamicTagIsIgnored() throws {
        XCTAssertEqual(try render("|{{> * dynamic }}|", ["dynamic": "partial"], ["partial": "[]"]), "|[]|")
    }

    func testDynamicParentNameComesFromContext() throws {
        let partials = ["article": "<article>{{$body}}empty{{/body}}</article>", "note": "<note>{{$body}}empty{{/body}}</note>"]
        let template = "{{<*layout}}{{$body}}text{{/body}}{{/*layout}}"
        XCTAssertEqual(try render(template, ["layout": "note"], partials), "<note>text</note>")
        XCTAssertEqual(try render(template, ["layout": "article"], partials), "<article>text</article>")
    }

    func testDynamicParentCloseTagMustMatch() {
        XCTAssertThrowsError(try MustacheTemplate("{{<*layout}}{{/layout}}")) { error in
            XCTAssertTrue(String(describing: error).contains("'*layout'"), "\(error)")
        }
    }

    func testStrictModeReportsMissingDynamicName() {
        XCTAssertThrowsError(
            try MustacheTemplate("{{>*which}}", name: "d.mustache").render([:], options: .init(strict: true))
        ) { error in
            XCTAssertEqual(String(describing: error), "d.mustache:1:1: missing name 'which'")
        }
    }
}
