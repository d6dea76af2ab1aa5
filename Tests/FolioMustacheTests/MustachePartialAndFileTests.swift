import Foundation
import FolioTestSupport
import XCTest

@testable import FolioMustache

final class MustachePartialLoaderTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-mustache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("parts/sub"), withIntermediateDirectories: true)
        try "Hello {{name}}!".write(to: directory.appendingPathComponent("parts/greet.mustache"), atomically: true, encoding: .utf8)
        try "[{{>greet}}]".write(to: directory.appendingPathComponent("parts/sub/box.mustache"), atomically: true, encoding: .utf8)
        try "secret".write(to: directory.appendingPathComponent("outside.mustache"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private var loader: DirectoryPartialLoader { DirectoryPartialLoader(root: directory.appendingPathComponent("parts")) }

    func testDirectoryLoaderReadsNameDotMustache() throws {
        let out = try MustacheTemplate("{{>sub/box}}").render(["name": "Ann"], partials: loader)
        XCTAssertEqual(out, "[Hello Ann!]")
    }

    func testDirectoryLoaderMissingPartialRendersEmpty() throws {
        XCTAssertEqual(try MustacheTemplate("<{{>nope}}>").render([:], partials: loader), "<>")
    }

    func testDirectoryLoaderRejectsNamesLeavingTheDirectory() {
        for name in ["../outside", "sub/../../outside", "/etc/passwd", "sub\\..\\..\\outside", "%2e%2e/outside", "..%2Foutside", "./greet"] {
            XCTAssertThrowsError(try loader.template(named: name), name) { error in
                XCTAssertTrue(String(describing: error).contains("'\(name)'"), "error should name the partial: \(error)")
            }
        }
    }

    func testEscapingPartialNameFailsTheRender() {
        XCTAssertThrowsError(try MustacheTemplate("{{>../outside}}").render([:], partials: loader))
    }

    func testDictionaryLoaderPartialIsParsedOncePerRender() throws {
        // Given a partial used 1000 times, when rendered, then it loads through the cache (count stays 1).
        final class CountingLoader: MustachePartialLoader, @unchecked Sendable {
            var loads = 0
            func template(named name: String) throws -> String? {
                loads += 1
                return name == "item" ? "{{.}}," : nil
            }
        }
        let counting = CountingLoader()
        let items = MustacheValue.array((0..<1000).map { .int($0) })
        let out = try MustacheTemplate("{{#items}}{{>item}}{{/items}}").render(["items": items], partials: counting)
        XCTAssertTrue(out.hasPrefix("0,1,2,"))
        XCTAssertEqual(counting.loads, 1)
    }

    func testSelfRecursivePartialWithRecursiveDataTerminates() throws {
        let partials = DictionaryPartialLoader(["tree": "{{name}}{{#children}}({{>tree}}){{/children}}"])
        // Leaves carry an empty list: a missing key would resolve against the parent frame (spec context stack).
        let leaf: (String) -> MustacheValue = { ["name": .string($0), "children": []] }
        let data: MustacheValue = ["name": "a", "children": [["name": "b", "children": [leaf("c")]], leaf("d")]]
        XCTAssertEqual(try MustacheTemplate("{{>tree}}").render(data, partials: partials), "a(b(c))(d)")
    }

    func testPartialWithoutTerminatingConditionThrowsDepthError() {
        let partials = DictionaryPartialLoader(["loop": "x{{>loop}}"])
        XCTAssertThrowsError(try MustacheTemplate("{{>loop}}", name: "main").render([:], partials: partials)) { error in
            guard let error = error as? MustacheError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.file, "loop")
            XCTAssertEqual(error.limit, .maxDepth)
            XCTAssertTrue(error.message.contains("more than 100 levels"), error.message)
            XCTAssertTrue(error.message.contains("while rendering main"), error.message)
        }
    }

    func testRecursionDepthLimitIsConfigurable() throws {
        let partials = DictionaryPartialLoader(["n": "{{#next}}+{{>n}}{{/next}}"])
        var data: MustacheValue = ["next": false]
        for _ in 0..<10 { data = ["next": data] }
        XCTAssertEqual(try MustacheTemplate("{{>n}}").render(data, partials: partials), "++++++++++")
        XCTAssertThrowsError(try MustacheTemplate("{{>n}}").render(data, partials: partials, options: .init(maxDepth: 5)))
    }

    func testParseErrorInPartialNamesThePartial() {
        let partials = DictionaryPartialLoader(["bad": "ok\n{{#open}}"])
        XCTAssertThrowsError(try MustacheTemplate("{{>bad}}").render([:], partials: partials)) { error in
            XCTAssertEqual(String(describing: error), "bad:2:1: unclosed section 'open'")
        }
    }
}

final class MustacheRenderFileTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("partials"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func write(_ text: String, _ name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    func testRenderFileUsesDataAndPartialsDirectory() throws {
        let template = try write("# {{title}}\n{{>footer}}\n", "story.md.mustache")
        let data = try write(#"{"title": "Dune", "year": 1965}"#, "data.json")
        _ = try write("({{year}})\n", "partials/footer.mustache")
        let out = try renderFile(at: template, dataJSON: data, partialsDirectory: directory.appendingPathComponent("partials"), strict: false)
        XCTAssertEqual(out, "# Dune\n(1965)\n")
    }

    func testMalformedDataFileErrorNamesTheFile() throws {
        let template = try write("{{x}}", "t.mustache")
        let data = try write("{\"x\": ", "broken.json")
        XCTAssertThrowsError(try renderFile(at: template, dataJSON: data, partialsDirectory: nil, strict: false)) { error in
            XCTAssertEqual((error as? MustacheError)?.file, data.relativePath)
            XCTAssertTrue(String(describing: error).contains("broken.json"))
        }
    }

    func testStrictRenderFileNamesTemplateLineAndColumn() throws {
        let template = try write("line one\n  {{missing}}", "s.mustache")
        let data = try write("{}", "d.json")
        XCTAssertThrowsError(try renderFile(at: template, dataJSON: data, partialsDirectory: nil, strict: true)) { error in
            XCTAssertEqual(String(describing: error), "\(template.relativePath):2:3: missing name 'missing'")
        }
    }

    func testMissingTemplateFileIsAnError() {
        let missing = directory.appendingPathComponent("none.mustache")
        XCTAssertThrowsError(try renderFile(at: missing, dataJSON: missing, partialsDirectory: nil, strict: false)) { error in
            XCTAssertTrue(String(describing: error).contains("none.mustache"))
        }
    }
}

final class MustacheRobustnessTests: XCTestCase {
    func testRandomAndTruncatedTemplatesNeverCrash() throws {
        // Given thousands of random token soups and truncations of valid templates,
        // when parsed and rendered, then each either renders or throws a MustacheError.
        let pieces = [
            "{{", "}}", "{{{", "}}}", "{{#a}}", "{{/a}}", "{{^b}}", "{{/b}}", "{{>p}}", "{{<p}}", "{{/p}}", "{{$x}}", "{{/x}}",
            "{{=<% %>=}}", "<%", "%>", "{{=", "=}}", "{{!c}}", "{{.}}", "{{a.b.c}}", "{{&a}}", "{{>*d}}", "{{<*d}}", "{{/*d}}",
            "\n", "\r\n", "  ", "\t", "text", "é", "🙂", "{", "}", "=", "#", "/", "*", ".", "{{ }}", "{{#}}", "{{>}}",
        ]
        let partials = DictionaryPartialLoader(["p": "{{$x}}X{{/x}}{{>p}}", "q": "{{#a}}{{>q}}{{/a}}", "d": "{{a}}"])
        let data: MustacheValue = ["a": [["a": []], ["b": true]], "b": "s", "d": "q", "x": nil]
        var rng = SeededRandom(seed: 42)
        var rendered = 0
        var failed = 0
        for round in 0..<3000 {
            var source = ""
            for _ in 0..<Int(rng.next() % 24) { source += rng.pick(pieces) }
            if round % 3 == 0 {
                let valid = "{{#a}}\n  {{>p}}\n{{/a}}{{<p}}{{$x}}y{{/x}}{{/p}}{{=| |=}}|b||={{ }}=|{{{b}}}"
                let scalars = Array(valid.unicodeScalars)
                source = String(String.UnicodeScalarView(scalars.prefix(Int(rng.next() % UInt64(scalars.count + 1)))))
            }
            do {
                let template = try MustacheTemplate(source)
                _ = try template.render(data, partials: partials, options: .init(strict: round % 2 == 0))
                rendered += 1
            } catch is MustacheError {
                failed += 1
            }
        }
        XCTAssertEqual(rendered + failed, 3000)
        XCTAssertGreaterThan(rendered, 100)
        XCTAssertGreaterThan(failed, 100)
    }

    func testDeeplyNestedSectionsAreRejectedNotOverflowing() {
        let source = String(repeating: "{{#a}}", count: 10_000) + String(repeating: "{{/a}}", count: 10_000)
        XCTAssertThrowsError(try MustacheTemplate(source)) { error in
            XCTAssertTrue(String(describing: error).contains("nested more than"), "\(error)")
        }
    }
}
