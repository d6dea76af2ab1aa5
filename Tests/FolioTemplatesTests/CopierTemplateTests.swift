import FolioCLITestSupport
import FolioCore
import FolioTemplates
import FolioTestSupport
import Foundation
import Synchronization
import XCTest

/// A copier template is a Folio template: found by its `copier.yml`, asked from its questions as copier 9 asks
/// them, and rendered byte for byte as copier 9.19.1 renders it (reference outputs in `Fixtures/copier`, made by the
/// real tool: see its README).
final class CopierTemplateTests: XCTestCase {
    private var temp: TemporaryDirectory!
    private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/copier")

    override func setUp() { temp = TemporaryDirectory() }
    override func tearDown() { temp = nil }

    private func template(_ name: String, at folder: URL? = nil) throws -> Template {
        let resolver = TemplateResolver(environment: temp.environment())
        let source = TemplateSource(name: name, location: (folder ?? fixtures.appendingPathComponent(name)).path)
        return try resolver.templateAtNow(source)
    }

    /// The reference output, its answers file naming the template as Folio recorded it (an absolute path).
    private func expected(_ folder: String, source: String, answersFile: String) throws -> [String: (Data, Bool)] {
        var files = try fileTree(fixtures.appendingPathComponent(folder))
        let name = String(folder.prefix { $0 != "." })
        if let (data, executable) = files[answersFile] {
            let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "_src_path: \(name)\n", with: "_src_path: \(source)\n")
            files[answersFile] = (Data(text.utf8), executable)
        }
        return files
    }

    private func assertRendersAsCopier(_ name: String, given: [String: JSONValue], expected folder: String, answersFile: String,
                                       file: StaticString = #filePath, line: UInt = #line) throws {
        let template = try template(name)
        let answers = try template.answers(given: given, mode: .defaults, context: ["folder_name": .string("out")])
        let files = try template.render(answers: answers)
        let expected = try expected(folder, source: fixtures.appendingPathComponent(name).path, answersFile: answersFile)
        XCTAssertEqual(Set(files.map(\.path)), Set(expected.keys), "the same files", file: file, line: line)
        for rendered in files {
            guard let (data, executable) = expected[rendered.path] else { continue }
            XCTAssertEqual(String(decoding: rendered.data, as: UTF8.self), String(decoding: data, as: UTF8.self), rendered.path, file: file, line: line)
            XCTAssertEqual(rendered.data, data, "\(rendered.path): byte for byte", file: file, line: line)
            XCTAssertEqual(rendered.executable, executable, "\(rendered.path): mode", file: file, line: line)
        }
    }

    func testGivenACopierTemplateWhenRenderedWithItsDefaultsThenTheFilesAreCopiersByteForByte() throws {
        try assertRendersAsCopier("project", given: [:], expected: "project.defaults", answersFile: ".copier-answers.yml")
    }

    func testGivenAnswersThatTurnOnConditionsAndChangeChoicesWhenRenderedThenTheFilesAreCopiersByteForByte() throws {
        // The answers as `copier copy --data` takes them: text, cast by each question's type
        let given: [String: JSONValue] = ["project_name": .string("My Tool"), "license": .string("Apache-2.0"), "features": .string("[ci, tests]"),
                                          "include_private": .string("true"), "workers": .string("3"), "python": .string("3.13"), "ratio": .string("1.5")]
        try assertRendersAsCopier("project", given: given, expected: "project.tool", answersFile: ".copier-answers.yml")
    }

    func testGivenEveryFileRenderedIncludedQuestionsAndATemplatedAnswersFileWhenRenderedThenTheFilesAreCopiers() throws {
        try assertRendersAsCopier("allrendered", given: ["name": .string("Ada"), "count": .string("3")], expected: "allrendered.ada",
                                  answersFile: ".answers/Ada.yml")
    }

    func testGivenCopierYAMLWhenLoadedThenItsQuestionsAreFoliosInOrderWithTypesLabelsAndSecrets() throws {
        let variables = try template("project").manifest.variables
        XCTAssertEqual(variables.map(\.name), ["project_name", "project_slug", "module_name", "license", "python", "features", "use_ci",
                                               "ci_provider", "workers", "ratio", "include_private", "settings", "extra", "api_token", "version"])
        XCTAssertEqual(variables[3].type, .choice)
        XCTAssertEqual(variables[3].choices, ["MIT License", "Apache License 2.0", "No license"])
        XCTAssertEqual(variables[5].type, .multichoice)
        XCTAssertEqual(variables[6].type, .bool)
        XCTAssertEqual(variables[8].type, .int)
        XCTAssertEqual(variables[0].help, "What is your project called?")
        XCTAssertEqual(variables.filter { $0.secret == true }.map(\.name), ["api_token"])
        // And the included questions of the other template come before its own
        XCTAssertEqual(try template("allrendered").manifest.variables.map(\.name), ["name", "count", "greeting"])
    }

    func testGivenALabelAsTheAnswerToAChoiceWhenAnsweredThenItsValueIsTaken() throws {
        let answers = try template("project").answers(given: ["license": .string("No license")], mode: .defaults)
        XCTAssertEqual(answers["license"], .string("none"))
    }

    func testGivenAnAnswerItsValidatorRefusesWhenAnsweredThenTheValidatorsMessageNamesTheVariable() throws {
        XCTAssertThrowsError(try template("project").answers(given: ["project_slug": .string("Not A Slug")], mode: .defaults)) { error in
            XCTAssertEqual("\(error)", "project: variable 'project_slug': Use lower-case letters, digits and dashes")
        }
        XCTAssertThrowsError(try template("project").answers(given: ["license": .string("GPL")], mode: .defaults)) { error in
            XCTAssertTrue("\(error)".contains("'GPL' is not in ['MIT', 'Apache-2.0', 'none']"), "\(error)")
        }
        XCTAssertThrowsError(try template("project").answers(given: ["workers": .string("many")], mode: .defaults)) { error in
            XCTAssertTrue("\(error)".contains("variable 'workers': 'many' is not a whole number"), "\(error)")
        }
    }

    func testGivenAPromptWhenAnsweredInteractivelyThenAWrongAnswerIsAskedAgainWithTheValidatorsMessage() throws {
        let template = try template("project")
        let log = Mutex<[String]>([])
        let answers = try template.answers(given: [:], mode: .ask { variable, _, problem in
            log.withLock { $0.append(variable.name + (problem.map { " (\($0))" } ?? "")) }
            if variable.name == "project_slug" { return log.withLock { $0.contains { $0.hasPrefix("project_slug (") } } ? "good-slug" : "Bad Slug" }
            return ""
        })
        let asked = log.withLock { $0 }
        XCTAssertEqual(answers["project_slug"], .string("good-slug"))
        XCTAssertTrue(asked.contains("project_slug (variable 'project_slug': Use lower-case letters, digits and dashes)"), "\(asked)")
        // And a question whose `when` is false is not asked (module_name: computed; ci_provider: ci is not chosen)
        XCTAssertFalse(asked.contains { $0.hasPrefix("module_name") || $0.hasPrefix("ci_provider") }, "\(asked)")
        XCTAssertEqual(answers["module_name"], .string("good_slug"))
    }

    func testGivenACopierTemplateFolderWhenFolioNewMakesADocumentThenItHoldsCopiersOutputAndSaysWhatItDidNotRun() throws {
        let env = temp.environment()
        let source = fixtures.appendingPathComponent("project").path
        let made = runFolio(["new", "out", "--template", source, "--defaults"], environment: env, cwd: temp.url)
        XCTAssertEqual(made.status, 0, made.stderr)
        let expected = try expected("project.defaults", source: source, answersFile: ".copier-answers.yml")
        let written = try fileTree(temp.path("out")).filter { !$0.key.hasPrefix(".git/") && !$0.key.hasPrefix(".folio/") }
        XCTAssertEqual(Set(written.keys), Set(expected.keys))
        for (path, (data, executable)) in expected {
            XCTAssertEqual(written[path]?.0, data, path)
            XCTAssertEqual(written[path]?.1, executable, path)
        }
        // The tasks are named and not run; the message after copying is shown
        XCTAssertTrue(made.stderr.contains("tasks were not run (git init; echo {{ project_name }})"), made.stderr)
        XCTAssertTrue(made.stderr.contains("Made Hello World (MIT)."), made.stderr)
        let document = try DocumentStore(environment: env).open(at: temp.path("out"))
        XCTAssertEqual(try document.log().count, 1)
        XCTAssertNil(document.metadata.origin.template?.answers["api_token"], "a secret is not recorded")
        XCTAssertEqual(try git(["fsck", "--strict"], in: document.url, environment: env).status, 0)
        // And `templates show` lists its questions with their choices
        let shown = runFolio(["templates", "show", "project", "--source", source], environment: env, cwd: temp.url)
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("ci_provider") && shown.stdout.contains("Apache License 2.0"), shown.stdout)
    }

    // MARK: Refusals

    private func write(_ files: [String: String]) throws -> URL {
        let root = temp.path("t\(UUID().uuidString.prefix(8))")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return root
    }

    private func assertRefused(_ files: [String: String], saying words: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let root = try write(files)
        let made = runFolio(["new", "doc", "--template", root.path, "--defaults"], environment: temp.environment(), cwd: temp.url)
        XCTAssertEqual(made.status, 1, made.stderr, file: file, line: line)
        XCTAssertTrue(made.stderr.contains(words), made.stderr, file: file, line: line)
        XCTAssertEqual(made.stderr.split(separator: "\n").count, 1, made.stderr, file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("doc").path), "nothing written", file: file, line: line)
    }

    func testGivenWhatFolioDoesNotBuildWhenATemplateAsksForItThenItIsRefusedInOneLineNamingIt() throws {
        try assertRefused(["copier.yml": "_external_data:\n  x: y.yml\n", "a.txt": "a"], saying: "the copier setting _external_data is not supported")
        try assertRefused(["copier.yml": "_jinja_extensions: [copier_templates_extensions.TemplateExtensionLoader]\n"],
                          saying: "needs the Jinja extension copier_templates_extensions.TemplateExtensionLoader, which Folio does not have")
        try assertRefused(["copier.yml": "name:\n  type: path\n  default: x\n"], saying: "question 'name' has the type path")
        try assertRefused(["copier.yml": "name:\n  typo: str\n"], saying: "question 'name' has 'typo'")
        try assertRefused(["copier.yml": "items:\n  default: [a]\n", "{% yield item from items %}{{ item }}{% endyield %}.txt.jinja": "x"],
                          saying: "{% yield %} in a file name")
        try assertRefused(["copier.yml": "a: 1\n", "copier.yaml": "b: 2\n"], saying: "and copier.yaml are both there")
    }

    func testGivenMalformedOrHostileYAMLWhenLoadedThenOneLineNamesTheFileLineAndProblem() throws {
        try assertRefused(["copier.yml": "name:\n  type: str\n default: [\n"], saying: "copier.yml:3:")
        try assertRefused(["copier.yml": "name: !!python/object:os.system x\n"], saying: "the tag tag:yaml.org,2002:python/object:os.system is not supported")
        // A billion laughs: aliases that would expand to 10^9 values
        var bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...8 { bomb += "l\(level): &l\(level) [" + Array(repeating: "*\(level == 1 ? "a" : "l\(level - 1)")", count: 10).joined(separator: ", ") + "]\n" }
        try assertRefused(["copier.yml": bomb], saying: "once its aliases are expanded")
        try assertRefused(["copier.yml": "x: !include ../../etc/passwd\n"], saying: "must name files inside the template")
    }

    // MARK: Lint

    func testGivenCookiecutterAndCopierTemplatesWhenLintedThenGoodOnesAreCleanAndMistakesAreNamedByFileLineAndCode() throws {
        let env = temp.environment()
        for folder in [fixtures.appendingPathComponent("project"), fixtures.appendingPathComponent("allrendered"),
                       fixtures.deletingLastPathComponent().appendingPathComponent("cookiecutter/basic")] {
            let linted = runFolio(["templates", "lint", folder.path], environment: env, cwd: temp.url)
            XCTAssertEqual(linted.status, 0, linted.stdout + linted.stderr)
            XCTAssertTrue(linted.stdout.contains("0 errors, 0 warnings") || linted.stderr.contains("0 errors, 0 warnings"), linted.stdout + linted.stderr)
        }
        let broken = try write(["copier.yml": "name: x\n", "a.txt.jinja": "Hi {{ name }\n", "b.txt": "{{ not rendered }\n"])
        let linted = runFolio(["templates", "lint", broken.path], environment: env, cwd: temp.url)
        XCTAssertEqual(linted.status, 1)
        XCTAssertTrue(linted.stdout.contains("a.txt.jinja:1:12: error T207: TemplateSyntaxError: unexpected '}'"), linted.stdout)
        XCTAssertFalse(linted.stdout.contains("b.txt"), "a file without the suffix is copied, not rendered: \(linted.stdout)")
        let malformed = try write(["copier.yml": "name:\n  type: str\n default: [\n"])
        let refused = runFolio(["templates", "lint", malformed.path], environment: env, cwd: temp.url)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stdout.contains("copier.yml:3:2: error T117:"), refused.stdout)
    }

    func testGivenALocationHoldingSeveralTemplatesWhenDirectoryNamesOneThenThatOneIsMade() throws {
        let root = try write(["one/copier.yml": "name: first\n", "one/a.txt.jinja": "{{ name }}\n",
                              "two/cookiecutter.json": #"{"name": "second"}"#, "two/{{cookiecutter.name}}/b.txt": "{{ cookiecutter.name }}\n"])
        let env = temp.environment()
        let ambiguous = runFolio(["new", "doc", "--template", root.path, "--defaults"], environment: env, cwd: temp.url)
        XCTAssertEqual(ambiguous.status, 1)
        XCTAssertTrue(ambiguous.stderr.contains("holds 2 templates"), ambiguous.stderr)
        let made = runFolio(["new", "doc", "--template", root.path, "--directory", "two", "--defaults"], environment: env, cwd: temp.url)
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertEqual(try String(contentsOf: temp.path("doc/b.txt"), encoding: .utf8), "second\n")
        let missing = runFolio(["new", "other", "--template", root.path, "--directory", "three", "--defaults"], environment: env, cwd: temp.url)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("holds no template in three (templates in: one, two)"), missing.stderr)
    }

    func testGivenACopierFormBeingFilledInWhenAnswersChangeThenWhenValidatorAndDefaultsFollowThemAtOnce() throws {
        let template = try template("project")
        let context: [String: JSONValue] = ["folder_name": .string("out")]
        // Given the form as it opens: ci_provider hidden (use_ci follows features, which lack ci), defaults computed
        let opened = try XCTUnwrap(template.formCheck(given: [:], context: context))
        XCTAssertTrue(opened.hidden.isSuperset(of: ["ci_provider", "module_name"]), "\(opened.hidden)")
        XCTAssertEqual(opened.defaults["project_slug"], "hello-world")
        XCTAssertEqual(opened.problems, [:])
        // When the name is typed, the slug's default follows it; when ci is chosen, ci_provider is asked
        let typed = try XCTUnwrap(template.formCheck(given: ["project_name": .string("My Tool"), "features": .string("docs,ci")], context: context))
        XCTAssertEqual(typed.defaults["project_slug"], "my-tool")
        XCTAssertEqual(typed.defaults["use_ci"], "yes")
        XCTAssertFalse(typed.hidden.contains("ci_provider"), "\(typed.hidden)")
        // When an answer breaks a validator or a choice, that field says why, in copier's words, and the others go on
        let refused = try XCTUnwrap(template.formCheck(given: ["project_slug": .string("Not A Slug"), "license": .string("GPL")], context: context))
        XCTAssertTrue(refused.problems["project_slug"]?.contains("Use lower-case letters, digits and dashes") ?? false, "\(refused.problems)")
        XCTAssertTrue(refused.problems["license"]?.contains("is not in") ?? false, "\(refused.problems)")
        XCTAssertEqual(Set(refused.problems.keys), ["project_slug", "license"])
    }
}
