import FolioCore
import FolioTemplates
import FolioTestSupport
import Foundation
import XCTest

/// A cookiecutter template is a Folio template: found in a source by its `cookiecutter.json`, asked from that file's
/// questions, and rendered byte for byte as cookiecutter 2.7.1 renders it (reference outputs in
/// `Fixtures/cookiecutter`, made by the real tool: see its README).
final class CookiecutterTemplateTests: XCTestCase {
    private var temp: TemporaryDirectory!
    private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/cookiecutter")

    override func setUp() { temp = TemporaryDirectory() }
    override func tearDown() { temp = nil }

    /// The fixture template `basic`, read through a folder source as any template is.
    private func basic() throws -> Template {
        let resolver = TemplateResolver(environment: temp.environment())
        let source = TemplateSource(name: "basic", location: fixtures.appendingPathComponent("basic").path)
        return try await_ {
            let resolved = try await resolver.resolve(source)
            return try await resolver.template("basic", in: resolved)
        }
    }

    /// Every file under `folder`: its path, bytes and whether it is executable.
    private func tree(_ folder: URL) throws -> [String: (Data, Bool)] {
        var out: [String: (Data, Bool)] = [:]
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]))
        for case let url as URL in enumerator where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
            let path = String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
            out[path] = (try Data(contentsOf: url), FileManager.default.isExecutableFile(atPath: url.path))
        }
        return out
    }

    private func assertRendersAsCookiecutter(_ given: [String: JSONValue], expected folder: String, project: String,
                                             file: StaticString = #filePath, line: UInt = #line) throws {
        let template = try basic()
        let answers = try template.answers(given: given, mode: .defaults)
        let files = try template.render(answers: answers)
        let expected = try tree(fixtures.appendingPathComponent(folder))
        XCTAssertEqual(Set(files.map(\.path)), Set(expected.keys), "the same files", file: file, line: line)
        for rendered in files {
            guard let (data, executable) = expected[rendered.path] else { continue }
            XCTAssertEqual(String(decoding: rendered.data, as: UTF8.self), String(decoding: data, as: UTF8.self), rendered.path, file: file, line: line)
            XCTAssertEqual(rendered.data, data, "\(rendered.path): byte for byte", file: file, line: line)
            XCTAssertEqual(rendered.executable, executable, "\(rendered.path): mode", file: file, line: line)
        }
        XCTAssertEqual(try template.cookiecutterProjectName(answers: answers), project, file: file, line: line)
    }

    func testGivenACookiecutterTemplateWhenRenderedWithItsDefaultsThenTheFilesAreCookiecuttersByteForByte() throws {
        try assertRendersAsCookiecutter([:], expected: "basic.defaults", project: "my_project")
    }

    func testGivenAnswersThatChangeComputedDefaultsAndAChoiceWhenRenderedThenTheFilesAreCookiecuttersByteForByte() throws {
        try assertRendersAsCookiecutter(["project_name": .string("Hello World"), "license": .string("BSD-3-Clause")],
                                        expected: "basic.hello", project: "hello_world")
    }

    func testGivenCookiecutterJSONWhenLoadedThenItsPublicKeysAreTheQuestionsInOrderWithTheirTypes() throws {
        let variables = try basic().manifest.variables
        XCTAssertEqual(variables.map(\.name), ["project_name", "project_slug", "author", "license", "use_docs", "version"])
        XCTAssertEqual(variables.map(\.type), [.string, .string, .string, .choice, .bool, .string])
        XCTAssertEqual(variables[3].choices, ["MIT", "BSD-3-Clause", "Apache-2.0"])
        // And the slug's default is computed from the name given
        let answers = try basic().answers(given: ["project_name": .string("A B C")], mode: .defaults)
        XCTAssertEqual(answers["project_slug"], .string("a_b_c"))
    }

    func testGivenASourceHoldingACookiecutterTemplateWhenListedThenItIsOneOfItsTemplates() throws {
        let resolver = TemplateResolver(environment: temp.environment())
        let source = TemplateSource(name: "basic", location: fixtures.appendingPathComponent("basic").path)
        let resolved = try await_ { try await resolver.resolve(source) }
        XCTAssertEqual(resolved.templates.map(\.id), ["basic"])
    }

    func testGivenATemplateUsingAnUndefinedNameWhenRenderedThenItFailsNamingTheFileAsCookiecutterWould() throws {
        let root = temp.path("bad")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("{{cookiecutter.name}}"), withIntermediateDirectories: true)
        try #"{"name": "x"}"#.write(to: root.appendingPathComponent("cookiecutter.json"), atomically: true, encoding: .utf8)
        try "{{ cookiecutter.missing }}\n".write(to: root.appendingPathComponent("{{cookiecutter.name}}/a.txt"), atomically: true, encoding: .utf8)
        let resolver = TemplateResolver(environment: temp.environment())
        let template = try await_ {
            try await resolver.template("bad", in: try await resolver.resolve(TemplateSource(name: "bad", location: root.path)))
        }
        XCTAssertThrowsError(try template.render(answers: try template.answers(given: [:], mode: .defaults))) { error in
            XCTAssertTrue("\(error)".contains("a.txt") && "\(error)".contains("missing"), "\(error)")
        }
    }
}
