import XCTest

@testable import FolioJinja

/// Errors are typed and say where: the template, line and column, the kind as Jinja2 names it, and why, in one line.
final class JinjaErrorTests: XCTestCase {
    func error(_ source: String, _ options: JinjaOptions = JinjaOptions()) -> JinjaError? {
        do {
            _ = try JinjaTemplate(source: source, name: "page.j2", environment: JinjaEnvironment(options: options)).render()
            return nil
        } catch {
            return error as? JinjaError
        }
    }

    func testGivenASyntaxErrorOnTheThirdLineWhenParsedThenTheErrorNamesTheTemplateLineAndColumn() throws {
        let e = try XCTUnwrap(error("a\nb\n  {{ 1 + }}"))
        XCTAssertEqual(e.kind, .syntax)
        XCTAssertEqual(e.line, 3)
        XCTAssertEqual(e.column, 10)
        XCTAssertEqual(e.description, "page.j2:3:10: TemplateSyntaxError: Expected an expression, got end of print statement")
    }

    func testGivenAnUnclosedBlockWhenParsedThenTheErrorSaysWhichTagWasExpected() throws {
        let e = try XCTUnwrap(error("{% for x in y %}\n{% if x %}"))
        XCTAssertEqual(e.kind, .syntax)
        XCTAssertTrue(e.message.contains("'endif'"), e.message)
    }

    func testGivenAnUndefinedAttributeUnderStrictUndefinedWhenRenderedThenItIsAnUndefinedErrorAtThatTag() throws {
        var options = JinjaOptions()
        options.undefined = .strict
        let e = try XCTUnwrap(error("ok\n  x {{ user.name }}", options))
        XCTAssertEqual(e.kind, .undefined)
        XCTAssertEqual(e.line, 2)
        XCTAssertEqual(e.column, 5)
        XCTAssertEqual(e.description, "page.j2:2:5: UndefinedError: 'user' is undefined")
    }

    func testGivenAnUnknownFilterWhenTheTemplateIsBuiltThenItIsAnAssertionErrorEvenIfNeverReached() throws {
        XCTAssertEqual(error("{% for x in [] %}{{ x|nosuch }}{% endfor %}")?.kind, .assertion)
        XCTAssertNil(error("{% if false %}{{ x|nosuch }}{% endif %}"))
    }

    func testGivenAnExtensionFolioLacksWhenOptionsAreReadThenItIsRefusedNamingIt() {
        let names = JinjaDict([("extensions", .array([.string("jinja2.ext.i18n")]))])
        XCTAssertThrowsError(try JinjaOptions(jinjaNames: names)) { e in
            XCTAssertTrue("\(e)".contains("jinja2.ext.i18n"), "\(e)")
        }
    }
}
