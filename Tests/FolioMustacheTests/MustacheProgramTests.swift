import Foundation
import XCTest

@testable import FolioMustache

/// The compiled form (one array of nodes, text as ranges of the source or copied apart, names shared by spelling, the
/// bytes a root name writes remembered) never changes what a template renders, lists or reports.
final class MustacheProgramTests: XCTestCase {
    private let noEscape = MustacheRenderOptions(escapeHTML: false)

    func testGivenAnIndentedParentThatIsNotStandaloneWhenItsArgumentHoldsAnotherParentThenBothParentsGetTheirArguments() throws {
        // Given a parent after indentation with text after its close tag (not standalone: the indentation is text
        // written before it), whose block argument passes an argument to a second parent
        let partials = DictionaryPartialLoader(["outer": "[{{$a}}A{{/a}}]", "inner": "<{{$b}}b{{/b}}>"])
        let template = try MustacheTemplate("  {{<outer}}{{$a}}{{<inner}}{{$b}}B{{/b}}{{/inner}}{{/a}}{{/outer}}!")
        // When rendered, then the indentation comes first and each parent shows the argument meant for it
        XCTAssertEqual(try template.render([:], partials: partials), "  [<B>]!")
        // And the tag list shows the outer parent holding the inner one with its argument's content
        let outer = try XCTUnwrap(template.tags.first)
        XCTAssertEqual(outer.name, "outer")
        XCTAssertEqual(outer.children.map(\.name), ["inner"])
        XCTAssertEqual(outer.children.first?.children.count, 0)
    }

    func testGivenTextBeforeATagOnLaterLinesWhenTagsAreListedThenColumnsCountCharactersNotBytes() throws {
        // Given tags after multi-byte characters (two and four bytes) on a second and third line, and an ASCII line
        let template = try MustacheTemplate("ü\n  é🙂{{ x }}\nab{{y}}é{{#s}}{{/s}}\n\t{{z}}")
        // When listed, then each column is the number of characters before the tag, plus one
        let positions = template.tags.map { "\($0.name)@\($0.line):\($0.column)" }
        XCTAssertEqual(positions, ["x@2:5", "y@3:3", "s@3:9", "z@4:2"])
    }

    func testGivenTextSplitByCommentsWhenAPartialIsIndentedThenItsJoinedTextIsIndentedLineByLine() throws {
        // Given a partial whose text is interrupted by comments (its pieces are joined into one text apart from the
        // source), included standalone with indentation
        let partials = DictionaryPartialLoader(["p": "x{{! one }}y\nz{{!two}}\n{{v}}\n"])
        let template = try MustacheTemplate("begin\n  {{>p}}\nend")
        // When rendered, then every line of the partial gets the indentation once
        XCTAssertEqual(try template.render(["v": "V"], partials: partials), "begin\n  xy\n  z\n  V\nend")
    }

    func testGivenOneNameEscapedAndNotWhenRenderedThenEachTagWritesItsOwnForm() throws {
        // Given the same root name printed escaped, unescaped both ways, then escaped again
        let template = try MustacheTemplate("{{x}}|{{{x}}}|{{&x}}|{{x}}")
        // When rendered with HTML escaping, then the escaped tags escape and the others do not
        XCTAssertEqual(try template.render(["x": "<a&b>"]), "&lt;a&amp;b&gt;|<a&b>|<a&b>|&lt;a&amp;b&gt;")
        // And when rendered without escaping, then all four print the value as it is
        XCTAssertEqual(try template.render(["x": "<a&b>"], options: noEscape), "<a&b>|<a&b>|<a&b>|<a&b>")
    }

    func testGivenARootNameAtALineStartInAPartialWhenIncludedIndentedThenTheValueIsIndentedLikeText() throws {
        // Given a partial whose lines start with a name, an empty name, then text, included with indentation
        let partials = DictionaryPartialLoader(["p": "{{x}}\n{{empty}}\n{{x}}\n"])
        let template = try MustacheTemplate("  {{>p}}\n")
        // When rendered twice with the same renderer state (the name's bytes remembered after the first tag)
        let output = try template.render(["x": "X", "empty": ""], partials: partials)
        // Then each line that prints something is indented, and the empty line is left without indentation
        XCTAssertEqual(output, "  X\n\n  X\n")
    }

    func testGivenMoreNamesThanRememberedSlotsWhenEachIsPrintedOftenThenEveryTagPrintsItsOwnValue() throws {
        // Given 80 distinct root names (more than the 32 remembered slots), each printed three times in an interleaved
        // order, escaped and not
        let names = (0..<80).map { "name\($0)" }
        var source = ""
        for round in 0..<3 {
            for name in names { source += round == 1 ? "{{{\(name)}}}," : "{{\(name)}}," }
        }
        var data: [String: MustacheValue] = [:]
        for (index, name) in names.enumerated() { data[name] = .string("<\(index)>") }
        // When rendered with HTML escaping
        let output = try MustacheTemplate(source).render(.object(data))
        // Then each tag printed its own name's value, in its own form
        let escaped = (0..<80).map { "&lt;\($0)&gt;," }.joined(), plain = (0..<80).map { "<\($0)>," }.joined()
        XCTAssertEqual(output, escaped + plain + escaped)
    }

    func testGivenPlainTagsThatTheFastPathCannotTakeWhenParsedThenTheErrorsAreTheGeneralOnes() {
        // Given an empty tag, a tag never closed, and a tag opened at the very end
        func message(_ source: String) -> String {
            do {
                _ = try MustacheTemplate(source, name: "t")
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        // When parsed, then each fails as before, at the tag's line and column
        XCTAssertEqual(message("ab\n c{{ \n }}"), "t:2:3: empty tag")
        XCTAssertEqual(message("x {{name"), "t:1:3: unclosed tag: missing '}}'")
        XCTAssertEqual(message("é{{"), "t:1:2: unclosed tag: missing '}}'")
    }
}
