import Foundation
import XCTest
import FolioCore
import FolioTemplates
import FolioTestSupport

/// `folio templates lint`: one failing template per code, positions, and hostile input.
final class TemplateLintTests: XCTestCase {
    static let variables = #"[{"name": "who", "type": "string", "default": "world"}]"#

    func manifest(_ extra: String = "", variables: String = variables, version: String = #""version": "1.0.0", "#) -> String {
        #"{"id": "t/x", "name": "X", \#(version)"variables": \#(variables)\#(extra)}"#
    }

    func lint(_ manifest: String?, files: [String: String] = ["a.txt": "Hello {{who}}\n"], raw: [String: Data] = [:], partials: [String: String] = [:],
              repositoryPartials: [String: String] = [:], fixtures: Bool = true) -> [TemplateLintFinding] {
        var templateFiles = files.map { TemplateFile(path: $0.key, data: Data($0.value.utf8)) }
        templateFiles += raw.map { TemplateFile(path: $0.key, data: $0.value) }
        let tree = TemplateAuthoringTree(name: "t", manifest: manifest.map { Data($0.utf8) }, files: templateFiles,
                                         partials: partials.mapValues { Data($0.utf8) }, repositoryPartials: repositoryPartials.mapValues { Data($0.utf8) },
                                         tests: fixtures ? [TemplateFile(path: "one/fixture.json", data: Data("{}".utf8))] : [])
        return TemplateLinter.lint(tree).findings
    }

    /// Asserts that exactly `code` is among the findings (with its severity) and returns that finding.
    @discardableResult
    func expect(_ code: TemplateLintCode, in findings: [TemplateLintFinding], file: StaticString = #filePath, line: UInt = #line) -> TemplateLintFinding? {
        let hit = findings.first { $0.code == code.rawValue }
        XCTAssertNotNil(hit, "expected \(code.rawValue) in \(findings.map(\.description))", file: file, line: line)
        XCTAssertEqual(hit?.severity, code.severity, file: file, line: line)
        return hit
    }

    func testGivenACleanTemplateWhenLintedThenThereAreNoFindings() {
        XCTAssertEqual(lint(manifest()).map(\.description), [])
    }

    // MARK: Manifest schema

    func testGivenNoManifestWhenLintedThenT101() {
        expect(.manifestMissing, in: lint(nil))
    }

    func testGivenMalformedJSONWhenLintedThenT102NamesLineAndColumn() {
        let finding = expect(.manifestInvalidJSON, in: lint("{\"id\": \"t/x\",\n  \"name\": }"))
        XCTAssertEqual(finding?.line, 2)
        XCTAssertEqual(finding?.file, "template.json")
    }

    func testGivenAnUnknownKeyWhenLintedThenT103AtTheKey() {
        let finding = expect(.unknownKey, in: lint("{\"id\": \"t/x\", \"name\": \"X\", \"version\": \"1.0.0\",\n \"colour\": 1}"))
        XCTAssertEqual(finding.map { [$0.line, $0.column] }, [2, 2])
        expect(.unknownKey, in: lint(manifest(variables: #"[{"name": "who", "type": "string", "default": "w", "hint": "x"}]"#)))
    }

    func testGivenAWrongTypeWhenLintedThenT104() {
        expect(.wrongType, in: lint(#"{"id": "t/x", "name": "X", "version": 1}"#))
        expect(.wrongType, in: lint(manifest(variables: #"[{"name": "who", "type": "text"}]"#)))
        expect(.wrongType, in: lint(manifest(variables: #"[{"name": "who", "type": "int", "min": 1.5}]"#)))
        expect(.wrongType, in: lint("[]"))
    }

    func testGivenAMissingRequiredKeyWhenLintedThenT105() {
        expect(.missingKey, in: lint(#"{"id": "t/x", "version": "1.0.0"}"#))
        expect(.missingKey, in: lint(manifest(variables: #"[{"name": "who"}]"#)))
    }

    func testGivenAnIDThatClimbsWhenLintedThenT106() {
        expect(.invalidID, in: lint(#"{"id": "../x", "name": "X", "version": "1.0.0"}"#, files: ["a.txt": "hi"]))
    }

    func testGivenAVersionThatIsNotSemverWhenLintedThenT107() {
        expect(.invalidVersion, in: lint(manifest(version: #""version": "one", "#)))
        expect(.invalidVersion, in: lint(manifest(#", "minFolioVersion": "soon""#)))
    }

    func testGivenNoVersionWhenLintedThenT108Warning() {
        expect(.noVersion, in: lint(manifest(version: "")))
    }

    func testGivenANewerMinimumFolioWhenLintedThenT109Warning() {
        expect(.newerFolio, in: lint(manifest(#", "minFolioVersion": "99.0.0""#)))
    }

    func testGivenABadVariableNameWhenLintedThenT110() {
        expect(.invalidVariableName, in: lint(manifest(variables: #"[{"name": "1who", "type": "string", "default": "w"}]"#), files: ["a.txt": "x"]))
    }

    func testGivenAVariableDeclaredTwiceWhenLintedThenT111() {
        expect(.duplicateVariable, in: lint(manifest(variables: #"[{"name": "who", "type": "string", "default": "a"}, {"name": "who", "type": "string", "default": "b"}]"#)))
    }

    func testGivenAChoiceWithoutChoicesWhenLintedThenT112() {
        expect(.choicesMismatch, in: lint(manifest(variables: #"[{"name": "who", "type": "choice"}]"#)))
        expect(.choicesMismatch, in: lint(manifest(variables: #"[{"name": "who", "type": "string", "default": "w", "choices": ["a"]}]"#)))
    }

    func testGivenAnInvalidPatternWhenLintedThenT113() {
        expect(.invalidPattern, in: lint(manifest(variables: #"[{"name": "who", "type": "string", "default": "w", "pattern": "["}]"#)))
    }

    func testGivenMinAboveMaxWhenLintedThenT114() {
        expect(.minAboveMax, in: lint(manifest(variables: #"[{"name": "who", "type": "int", "default": 3, "min": 5, "max": 1}]"#)))
    }

    func testGivenWhenNamingALaterVariableWhenLintedThenT115() {
        let variables = #"[{"name": "who", "type": "string", "default": "w", "when": "loud"}, {"name": "loud", "type": "bool"}]"#
        let finding = expect(.whenNotEarlier, in: lint(manifest(variables: variables), files: ["a.txt": "{{who}}{{loud}}"]))
        XCTAssertTrue(finding?.message.contains("declared later") ?? false, finding?.message ?? "")
    }

    func testGivenADefaultFailingItsOwnCheckWhenLintedThenT116() {
        for variable in [#"{"name": "who", "type": "string", "default": "abc", "pattern": "[0-9]+"}"#,
                         #"{"name": "who", "type": "int", "default": 99, "max": 10}"#,
                         #"{"name": "who", "type": "choice", "choices": ["a", "b"], "default": "c"}"#,
                         #"{"name": "who", "type": "string", "default": "{{folder_name}}", "max": 3}"#] {
            expect(.badDefault, in: lint(manifest(variables: "[\(variable)]")))
        }
    }

    // MARK: Tags

    func testGivenAnUnclosedSectionWhenLintedThenT201AtItsLine() {
        let finding = expect(.mustacheSyntax, in: lint(manifest(), files: ["a.txt": "{{who}}\n{{#who}}open\n"]))
        XCTAssertEqual(finding.map { [$0.line, $0.column] }, [2, 1])
        XCTAssertEqual(finding?.file, "files/a.txt")
    }

    func testGivenATagNamingNoVariableWhenLintedThenT202WithItsPosition() {
        let finding = expect(.unknownName, in: lint(manifest(), files: ["a.txt": "{{who}}\n  {{Who}}\n"]))
        XCTAssertEqual(finding.map { [$0.line, $0.column] }, [2, 3])
        XCTAssertTrue(finding?.message.contains("did you mean 'who'") ?? false)
        // folder_name exists only for defaults; in a file it renders empty.
        expect(.unknownName, in: lint(manifest(), files: ["a.txt": "{{who}} {{folder_name}}"]))
        // a default sees only earlier answers
        let later = #"[{"name": "who", "type": "string", "default": "{{other}}"}, {"name": "other", "type": "string", "default": "x"}]"#
        expect(.unknownName, in: lint(manifest(variables: later), files: ["a.txt": "{{who}}{{other}}"]))
        // a path segment
        let path = expect(.unknownName, in: lint(manifest(), files: ["{{nope}}/a.txt": "{{who}}"]))
        XCTAssertEqual(path?.file, "files/{{nope}}/a.txt")
    }

    func testGivenSectionContextsAndChoiceFlagsWhenLintedThenTheyAreKnown() {
        let variables = #"[{"name": "who", "type": "multichoice", "choices": ["a", "b-c"], "default": ["a"]}]"#
        XCTAssertEqual(lint(manifest(variables: variables), files: ["a.txt": "{{#who}}{{.}}{{/who}}{{#who_b_c}}x{{/who_b_c}}"]).map(\.description), [])
    }

    func testGivenAnUnknownCaseHelperWhenLintedThenT203() {
        expect(.unknownHelper, in: lint(manifest(), files: ["a.txt": "{{who.shout}}"]))
        expect(.unknownHelper, in: lint(manifest(variables: #"[{"name": "who", "type": "int", "default": 1}]"#), files: ["a.txt": "{{who.slug}}"]))
    }

    func testGivenAVariableUsedNowhereWhenLintedThenT204Warning() {
        let variables = #"[{"name": "who", "type": "string", "default": "w"}, {"name": "extra", "type": "bool"}]"#
        XCTAssertTrue(expect(.unusedVariable, in: lint(manifest(variables: variables)))?.message.contains("'extra'") ?? false)
    }

    func testGivenAMissingPartialWhenLintedThenT205AndARepositoryPartialResolves() {
        expect(.missingPartial, in: lint(manifest(), files: ["a.txt": "{{who}}{{>nope}}"]))
        expect(.missingPartial, in: lint(manifest(), files: ["a.txt": "{{who}}{{>../../etc/passwd}}"]))
        XCTAssertEqual(lint(manifest(), files: ["a.txt": "{{>licenses/MIT}}"], repositoryPartials: ["licenses/MIT": "MIT {{who}}"]).map(\.description), [])
        // names inside a partial are checked too, in the partial's file
        let inner = expect(.unknownName, in: lint(manifest(), files: ["a.txt": "{{who}}{{>p}}"], partials: ["p": "{{ghost}}"]))
        XCTAssertEqual(inner?.file, "partials/p.mustache")
    }

    func testGivenAFileWithTagsThatIsNotUTF8WhenLintedThenT206Warning() {
        expect(.notUTF8, in: lint(manifest(), raw: ["b.txt": Data([0x7B, 0x7B, 0x77, 0x68, 0x6F, 0x7D, 0x7D, 0xFF])]))
    }

    // MARK: Globs

    func testGivenAnExcludeMatchingNothingWhenLintedThenT301Warning() {
        expect(.excludeMatchesNothing, in: lint(manifest(#", "exclude": ["*.bak"]"#)))
    }

    func testGivenACopyOnlyMatchingNothingWhenLintedThenT302Warning() {
        expect(.copyOnlyMatchesNothing, in: lint(manifest(#", "copyOnly": ["assets/**"]"#)))
    }

    func testGivenACopyOnlyFileHoldingTagsWhenLintedThenT303Warning() {
        let findings = lint(manifest(#", "copyOnly": ["raw/**"]"#), files: ["a.txt": "{{who}}", "raw/b.txt": "{{kept}}"])
        XCTAssertEqual(expect(.copyOnlyHasTags, in: findings)?.file, "files/raw/b.txt")
        XCTAssertFalse(findings.contains { $0.code == TemplateLintCode.unknownName.rawValue }, "copied files are not rendered, so their tags are not names")
    }

    // MARK: Paths and rendering

    func testGivenAFreeTextAnswerInAPathWhenLintedThenT401AndAPatternOrSlugFixesIt() {
        let finding = expect(.unsafePathSegment, in: lint(manifest(), files: ["src/{{who}}.txt": "x"]))
        XCTAssertEqual(finding.map { [$0.line, $0.column] }, [1, 5])
        let safe = #"[{"name": "who", "type": "string", "default": "w", "pattern": "[a-z]+"}]"#
        XCTAssertEqual(lint(manifest(variables: safe), files: ["src/{{who}}.txt": "x"]).map(\.description), [])
        XCTAssertEqual(lint(manifest(), files: ["src/{{who.slug}}.txt": "x", "a.txt": "{{who}}"]).map(\.description), [])
        let choices = #"[{"name": "who", "type": "choice", "choices": ["ok", "../up"], "default": "ok"}]"#
        expect(.unsafePathSegment, in: lint(manifest(variables: choices), files: ["{{who}}/a.txt": "x"]))
    }

    func testGivenASectionThatPutsDotsInAPathWhenLintedThenT401ForThoseAnswers() {
        let variables = #"[{"name": "who", "type": "string", "default": "w"}, {"name": "up", "type": "bool", "default": false}]"#
        let finding = expect(.unsafePathSegment, in: lint(manifest(variables: variables), files: ["{{#up}}..{{%2Fup}}{{^up}}ok{{%2Fup}}/a.txt": "{{who}}"]))
        XCTAssertTrue(finding?.message.contains("up=yes") ?? false, finding?.message ?? "")
    }

    func testGivenAPathRefusedWithTheDefaultsWhenLintedThenT402() {
        expect(.refusedPath, in: lint(manifest(), files: ["a.txt": "{{who}}", ".folio/x": "y"]))
        expect(.refusedPath, in: lint(manifest(), files: ["a.txt": "{{who}}", "b.txt": "x", "{{#who}}b.txt{{%2Fwho}}": "y"]))
    }

    func testGivenALinkPointingOutsideWhenLintedThenT402EvenWithOtherErrors() {
        let tree = TemplateAuthoringTree(name: "t", manifest: Data(manifest().utf8),
                                         files: [TemplateFile(path: "a.txt", data: Data("{{who}}{{ghost}}".utf8)),
                                                 TemplateFile(path: "passwd", data: Data("/etc/passwd".utf8), mode: 0o120000)],
                                         tests: [TemplateFile(path: "one/fixture.json", data: Data("{}".utf8))])
        let findings = TemplateLinter.lint(tree).findings
        XCTAssertEqual(expect(.refusedPath, in: findings)?.file, "files/passwd")
        expect(.unknownName, in: findings)
    }

    func testGivenAPrimaryFileThatIsNotRenderedWhenLintedThenT403() {
        expect(.primaryFileMissing, in: lint(manifest(#", "primaryFile": "missing.txt""#)))
    }

    func testGivenARenderFailingWithTheDefaultsWhenLintedThenT404() {
        expect(.renderFails, in: lint(manifest(), files: ["a.txt": "{{who}}{{>loop}}"], partials: ["loop": "{{>loop}}"]))
    }

    func testGivenNoFixturesWhenLintedThenT501Warning() {
        expect(.noFixtures, in: lint(manifest(), fixtures: false))
    }

    func testGivenTheAuthoringGuideWhenReadThenEveryLintCodeIsDocumentedWithItsSeverity() throws {
        let guide = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/TEMPLATES.md"), encoding: .utf8)
        for code in TemplateLintCode.allCases {
            XCTAssertTrue(guide.contains("| \(code.rawValue) | \(code.severity.rawValue) |"), "\(code.rawValue) is not in docs/TEMPLATES.md's table")
        }
    }

    // MARK: Hostile input

    func testGivenHostileManifestsAndTemplatesWhenLintedThenFindingsNeverACrashOrHang() {
        let started = Date()
        expect(.manifestInvalidJSON, in: lint("\u{FEFF}{"))
        let tree = TemplateAuthoringTree(name: "t", manifest: Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]), files: [])
        XCTAssertTrue(TemplateLinter.lint(tree).findings.contains { $0.code == "T102" })
        expect(.manifestInvalidJSON, in: lint(String(repeating: "[", count: 100_000)))
        expect(.manifestInvalidJSON, in: lint(manifest() + "}"))
        let huge = #"{"id": "t/x", "name": "X", "version": "1.0.0", "summary": ""# + String(repeating: "a", count: 8 << 20) + #"", "variables": \#(Self.variables)}"#
        XCTAssertEqual(lint(huge).map(\.code), [])
        expect(.mustacheSyntax, in: lint(manifest(), files: ["a.txt": "{{who}}" + String(repeating: "{{#who}}", count: 50_000)]))
        expect(.mustacheSyntax, in: lint(manifest(), files: ["a.txt": "{{who}}{{", "{{#x/a.txt": "y"]))
        expect(.wrongType, in: lint(manifest(variables: #"[{"name": "who", "type": "int", "min": 1e300}]"#)))
        let manyTags = String(repeating: "{{who}} ", count: 200_000)
        XCTAssertEqual(lint(manifest(), files: ["a.txt": manyTags]).map(\.code), [])
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "hostile input must lint in linear time")
    }
}
