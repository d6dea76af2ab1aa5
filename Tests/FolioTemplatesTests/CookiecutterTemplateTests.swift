import FolioCLITestSupport
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

    private func assertRendersAsCookiecutter(_ given: [String: JSONValue], expected folder: String, project: String,
                                             file: StaticString = #filePath, line: UInt = #line) throws {
        let template = try basic()
        let answers = try template.answers(given: given, mode: .defaults)
        let files = try template.render(answers: answers)
        let expected = try fileTree(fixtures.appendingPathComponent(folder))
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

    func testGivenDottedAnswersForADictVariableWhenRenderedThenTheyMergeIntoItAsCookiecutterMergesExtraContext() throws {
        try assertRendersAsCookiecutter(["settings.engine": .string("sqlite"), "settings.extra": .string("yes")],
                                        expected: "basic.settings", project: "my_project")
        // And a whole dict variable given as text is refused, naming how to give it
        XCTAssertThrowsError(try basic().answers(given: ["settings": .string("x")], mode: .defaults)) { error in
            XCTAssertTrue("\(error)".contains("variable 'settings' is a dictionary: give NAME.KEY=VALUE or a JSON object"), "\(error)")
        }
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

    func testGivenACookiecutterTemplateFolderWhenFolioNewMakesADocumentFromItThenItHoldsCookiecuttersOutputAsOneCommit() throws {
        // Given the fixture template as a source given by its path, and answers on the command line
        let env = temp.environment()
        let source = fixtures.appendingPathComponent("basic").path
        // When `folio new` makes a document from it
        let made = runFolio(["new", "proj", "--template", "basic", "--source", source, "--set", "project_name=Hello World",
                             "--set", "license=BSD-3-Clause", "--defaults"], environment: env, cwd: temp.url)
        XCTAssertEqual(made.status, 0, made.stderr)
        // Then the document's files are cookiecutter's, byte for byte, in one commit git reads
        let expected = try fileTree(fixtures.appendingPathComponent("basic.hello"))
        let written = try fileTree(temp.path("proj")).filter { !$0.key.hasPrefix(".git/") && !$0.key.hasPrefix(".folio/") }
        XCTAssertEqual(Set(written.keys), Set(expected.keys))
        for (path, (data, executable)) in expected {
            XCTAssertEqual(written[path]?.0, data, path)
            XCTAssertEqual(written[path]?.1, executable, path)
        }
        let document = try DocumentStore(environment: env).open(at: temp.path("proj"))
        XCTAssertEqual(try document.log().count, 1)
        XCTAssertEqual(document.metadata.origin.template?.answers["project_slug"], .string("hello_world"))
        XCTAssertEqual(try git(["fsck", "--strict"], in: document.url, environment: env).status, 0)
        // And it lists the template's questions
        let shown = runFolio(["templates", "show", "basic", "--source", source], environment: env, cwd: temp.url)
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("project_slug") && shown.stdout.contains("BSD-3-Clause"), shown.stdout)
    }

    func testGivenACookiecutterTemplateWithHooksWhenFolioNewRunsThenNoHookRunsAndANoteNamesThem() throws {
        // Given a template whose post-generation hook would write a file
        let root = temp.path("hooked")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("{{cookiecutter.name}}"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("hooks"), withIntermediateDirectories: true)
        try #"{"name": "x"}"#.write(to: root.appendingPathComponent("cookiecutter.json"), atomically: true, encoding: .utf8)
        try "{{ cookiecutter.name }}\n".write(to: root.appendingPathComponent("{{cookiecutter.name}}/a.txt"), atomically: true, encoding: .utf8)
        let marker = temp.path("hook-ran")
        try "open('\(marker.path)', 'w').write('ran')\n".write(to: root.appendingPathComponent("hooks/post_gen_project.py"), atomically: true, encoding: .utf8)
        // When a document is made from it
        let made = runFolio(["new", "doc", "--template", "hooked", "--source", root.path, "--defaults"], environment: temp.environment(), cwd: temp.url)
        // Then it is made, the hook did not run, and a note says so naming it
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker.path))
        XCTAssertTrue(made.stderr.contains("hooks were not run (hooks/post_gen_project.py)"), made.stderr)
        XCTAssertEqual(try String(contentsOf: temp.path("doc/a.txt"), encoding: .utf8), "x\n")
    }

    func testGivenATemplateFolderOrAFileURLAsTheTemplateWhenFolioNewRunsThenTheTemplateThereIsUsed() throws {
        // Given the fixture template copied into a git repository, and its folder
        let env = temp.environment()
        let repository = temp.path("cookiecutter-basic")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("basic"), to: repository)
        for command in [["init", "-q", "-b", "main"], ["add", "-A"], ["-c", "user.name=T", "-c", "user.email=t@e", "commit", "-q", "-m", "t"]] {
            XCTAssertEqual(try git(command, in: repository, environment: env).status, 0)
        }
        // When folio new is given the folder, then a file:// URL, as --template
        for (name, location) in [("by-path", "./cookiecutter-basic"), ("by-url", "file://" + repository.path)] {
            let made = runFolio(["new", name, "--template", location, "--defaults"], environment: env, cwd: temp.url)
            XCTAssertEqual(made.status, 0, made.stderr)
            // Then the document is cookiecutter's output with the defaults
            XCTAssertEqual(try Data(contentsOf: temp.path("\(name)/README.md")), try Data(contentsOf: fixtures.appendingPathComponent("basic.defaults/README.md")), name)
        }
        // And a folder holding no template is one line naming it
        try FileManager.default.createDirectory(at: temp.path("empty"), withIntermediateDirectories: true)
        let refused = runFolio(["new", "x", "--template", "./empty", "--defaults"], environment: env, cwd: temp.url)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("holds no template"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("x").path))
    }

    func testGivenShortFormsWhenExpandedThenTheyNameTheHostsRepositoriesAndAnythingElseIsNotOne() {
        XCTAssertEqual(TemplateSource.expandingShortForm("gh:audreyfeldroy/cookiecutter-pypackage"), "https://github.com/audreyfeldroy/cookiecutter-pypackage.git")
        XCTAssertEqual(TemplateSource.expandingShortForm("gl:group/sub/repo.git"), "https://gitlab.com/group/sub/repo.git")
        XCTAssertEqual(TemplateSource.expandingShortForm("bb:team/repo"), "https://bitbucket.org/team/repo.git")
        for bad in ["gh:", "gh:owner", "gh:../x/y", "gh:a/b c", "gh:a//b", "checklist/groceries", "xx:a/b"] {
            XCTAssertNil(TemplateSource.expandingShortForm(bad), bad)
        }
    }

    func testGivenJinjaEnvironmentVariablesAndExtensionsFolioHasWhenRenderedThenTheFileIsCookiecuttersByteForByte() throws {
        let resolver = TemplateResolver(environment: temp.environment())
        let source = TemplateSource(name: "envvars", location: fixtures.appendingPathComponent("envvars").path)
        let template = try await_ { try await resolver.template("envvars", in: try await resolver.resolve(source)) }
        let files = try template.render(answers: try template.answers(given: [:], mode: .defaults))
        XCTAssertEqual(files.map(\.path), ["list.txt"])
        XCTAssertEqual(files.first?.data, try Data(contentsOf: fixtures.appendingPathComponent("envvars.defaults/list.txt")))
    }

    func testGivenATrustedPrePromptHookWhenAProjectIsMadeThenItRunsBeforeTheQuestionsAndTheProjectIsCookiecuttersByteForByte() throws {
        // Given a template whose pre_prompt hook adds a question, changes a default and adds a file (in a copy)
        let template = fixtures.appendingPathComponent("preprompt")
        let before = try fileTree(template)
        // When a project is made with its hooks trusted
        let made = runFolio(["new", "out", "--template", template.path, "--defaults", "--trust"], environment: temp.environment(), cwd: temp.url)
        XCTAssertEqual(made.status, 0, made.stdout + made.stderr)
        XCTAssertTrue(made.stderr.contains("pre_prompt ran"), made.stderr)
        // Then the files are what cookiecutter 2.7.1 made, the answers include the question the hook added
        let expected = try fileTree(fixtures.appendingPathComponent("preprompt.defaults"))
        let got = try fileTree(temp.path("out")).filter { !$0.key.hasPrefix(".git/") && !$0.key.hasPrefix(".folio/") }
        XCTAssertEqual(Set(got.keys), Set(expected.keys))
        for (path, (data, _)) in expected { XCTAssertEqual(got[path]?.0, data, path) }
        let metadata = try String(contentsOf: temp.path("out/.folio/document.json"), encoding: .utf8)
        XCTAssertTrue(metadata.contains("\"flavour\"") && metadata.contains("DEMO"), metadata)
        // And the template itself is as it was (the hook ran in a copy)
        XCTAssertEqual(try fileTree(template).mapValues(\.0), before.mapValues(\.0))
    }

    func testGivenAnUntrustedPrePromptHookWhenAProjectIsMadeWithDefaultsThenItDoesNotRunAndANoteSaysSo() throws {
        let made = runFolio(["new", "out", "--template", fixtures.appendingPathComponent("preprompt").path, "--defaults"], environment: temp.environment(), cwd: temp.url)
        XCTAssertTrue(made.stderr.contains("pre_prompt hook was not run"), made.stderr)
        // The template needs what the hook adds (as with cookiecutter --accept-hooks no): refused in one line naming it
        XCTAssertEqual(made.status, 1, made.stdout + made.stderr)
        XCTAssertTrue(made.stderr.contains("flavour"), made.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("out").path))
    }

    func testGivenNewLinesSetToCRLFWhenRenderedThenEveryRenderedFileIsWrittenWithItAsCookiecutterWritesIt() throws {
        let resolver = TemplateResolver(environment: temp.environment())
        let source = TemplateSource(name: "newlines", location: fixtures.appendingPathComponent("newlines").path)
        let template = try await_ { try await resolver.template("newlines", in: try await resolver.resolve(source)) }
        let files = try template.render(answers: try template.answers(given: [:], mode: .defaults))
        let expected = try fileTree(fixtures.appendingPathComponent("newlines.defaults"))
        XCTAssertEqual(Set(files.map(\.path)), Set(expected.keys))
        for file in files { XCTAssertEqual(file.data, expected[file.path]?.0, "\(file.path): byte for byte") }
    }

    func testGivenANewLinesValuePythonCannotOpenAFileWithWhenRenderedThenItIsRefusedInOneLineNamingIt() throws {
        let folder = temp.path("bad")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("{{cookiecutter.name}}"), withIntermediateDirectories: true)
        try #"{"name": "x", "_new_lines": "\t"}"#.write(to: folder.appendingPathComponent("cookiecutter.json"), atomically: true, encoding: .utf8)
        try "a\n".write(to: folder.appendingPathComponent("{{cookiecutter.name}}/a.txt"), atomically: true, encoding: .utf8)
        let resolver = TemplateResolver(environment: temp.environment())
        let template = try await_ { try await resolver.template("bad", in: try await resolver.resolve(TemplateSource(name: "bad", location: folder.path))) }
        XCTAssertThrowsError(try template.render(answers: try template.answers(given: [:], mode: .defaults))) { error in
            XCTAssertTrue("\(error)".contains("_new_lines"), "\(error)")
            XCTAssertFalse("\(error)".contains("\n"), "one line: \(error)")
        }
    }

    func testGivenTheExtensionsCookiecutterAlwaysLoadsWhenRenderedThenTheFilesAreCookiecuttersByteForByte() throws {
        let resolver = TemplateResolver(environment: temp.environment())
        let source = TemplateSource(name: "builtins", location: fixtures.appendingPathComponent("builtins").path)
        let template = try await_ { try await resolver.template("builtins", in: try await resolver.resolve(source)) }
        let files = try template.render(answers: try template.answers(given: [:], mode: .defaults))
        XCTAssertEqual(files.map(\.path).sorted(), ["README.md", "authors.json"])
        for file in files {
            XCTAssertEqual(String(decoding: file.data, as: UTF8.self),
                           try String(contentsOf: fixtures.appendingPathComponent("builtins.defaults/\(file.path)"), encoding: .utf8), file.path)
        }
    }

    func testGivenAnExtensionFolioDoesNotHaveWhenTheTemplateIsLoadedThenItIsRefusedInOneLineNamingIt() throws {
        let root = temp.path("timed")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("{{cookiecutter.name}}"), withIntermediateDirectories: true)
        try #"{"name": "x", "_extensions": ["jinja2_humanize_extension.HumanizeExtension"]}"#.write(to: root.appendingPathComponent("cookiecutter.json"), atomically: true, encoding: .utf8)
        try "{{ 1000 | humanize_naturalsize }}\n".write(to: root.appendingPathComponent("{{cookiecutter.name}}/year.txt"), atomically: true, encoding: .utf8)
        let made = runFolio(["new", "doc", "--template", "./timed", "--defaults"], environment: temp.environment(), cwd: temp.url)
        XCTAssertEqual(made.status, 1)
        XCTAssertTrue(made.stderr.contains("cookiecutter.json") && made.stderr.contains("needs the Jinja extension jinja2_humanize_extension.HumanizeExtension"), made.stderr)
        XCTAssertEqual(made.stderr.split(separator: "\n").count, 1, made.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("doc").path))
    }

    func testGivenAMalformedCookiecutterJSONWhenFolioNewTakesItsFolderThenOneLineNamesTheFileAndWhyAndNothingIsMade() throws {
        let root = temp.path("broken")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("{{cookiecutter.n}}"), withIntermediateDirectories: true)
        try #"{"n": "#.write(to: root.appendingPathComponent("cookiecutter.json"), atomically: true, encoding: .utf8)
        try "x\n".write(to: root.appendingPathComponent("{{cookiecutter.n}}/a"), atomically: true, encoding: .utf8)
        let made = runFolio(["new", "doc", "--template", "./broken", "--defaults"], environment: temp.environment(), cwd: temp.url)
        XCTAssertEqual(made.status, 1)
        XCTAssertTrue(made.stderr.contains("cookiecutter.json: not valid JSON"), made.stderr)
        XCTAssertEqual(made.stderr.split(separator: "\n").count, 1, made.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("doc").path))
    }
}
