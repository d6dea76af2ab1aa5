import FoundationEssentials
import Glibc
import FolioCore
import FolioTemplates

/// What one fixture under a template's `tests/NAME/` checked.
public struct TemplateFixtureResult: Sendable, Encodable {
    /// The fixture's folder name.
    public let name: String
    /// `render` (the template with the answers) or `update` (an older version, the user's edits, then an update).
    public let kind: String
    public let passed: Bool
    /// What differs, one line each (empty when passed): missing, unexpected, mode or content differences with a line diff.
    public let differences: [String]
    /// Whether `--update-golden` rewrote its expected files.
    public let updated: Bool
}

/// The fixtures of one template.
public struct TemplateTestReport: Sendable, Encodable {
    public let template: String
    public let fixtures: [TemplateFixtureResult]
    /// Whether every fixture passed (after rewriting, with `updateGolden`).
    public var passed: Bool { fixtures.allSatisfy(\.passed) }
}

/// Runs the fixtures kept in a template (`folio templates test`): `tests/NAME/fixture.json` gives the answers;
/// `tests/NAME/expected/` is the tree the template must render, or — for an update fixture, which has `older/` (the
/// older template) and optionally `edits/` — the tree after rendering `older/`, applying the edits and updating
/// to the current template, with `conflicts.json` the conflicts the update must report.
public enum TemplateTester {
    /// Runs every fixture of `tree`; with `updateGolden`, rewrites each fixture's expected files from what it
    /// produced (only for a template in a local folder). A fixture that cannot run fails with the reason.
    public static func run(_ tree: TemplateAuthoringTree, updateGolden: Bool, limits: TemplateLimits = TemplateLimits()) throws -> TemplateTestReport {
        if updateGolden && tree.folder == nil {
            throw TemplateError(tree.name, "expected files can be rewritten only in a template folder on disk", kind: .notAFolderOnDisk)
        }
        let names = Set(tree.tests.compactMap { file -> String? in
            let parts = file.path.split(separator: "/", maxSplits: 1)
            return parts.count == 2 && parts[1] == "fixture.json" ? String(parts[0]) : nil
        }).sorted()
        var results: [TemplateFixtureResult] = []
        for name in names {
            results.append(runFixture(name, tree: tree, updateGolden: updateGolden, limits: limits))
        }
        return TemplateTestReport(template: tree.name, fixtures: results)
    }

    private static func runFixture(_ name: String, tree: TemplateAuthoringTree, updateGolden: Bool, limits: TemplateLimits) -> TemplateFixtureResult {
        var kind = "render"
        do {
            let fixture = try TemplateFixture.parse(tree.tests.first { $0.path == "\(name)/fixture.json" }?.data ?? Data(), file: "\(tree.name)/tests/\(name)/fixture.json")
            if fixture.update != nil { kind = "update" }
            let actual: FixtureTree
            let conflicts: [UpdateConflict]
            var versionProblem: String?
            if let update = fixture.update {
                (actual, conflicts, versionProblem) = try runUpdate(name, fixture: fixture, update: update, tree: tree, limits: limits)
            } else {
                let template = try tree.template(commit: String(repeating: "0", count: 40), limits: limits)
                let answers = try template.answers(given: fixture.answers, mode: .defaults, context: fixture.context)
                actual = FixtureTree(try template.render(answers: answers))
                conflicts = []
            }
            let expected = FixtureTree(tree.tests, under: "\(name)/expected/")
            let expectedConflicts = try fixture.expectedConflicts(tree.tests.first { $0.path == "\(name)/conflicts.json" }?.data,
                                                                   file: "\(tree.name)/tests/\(name)/conflicts.json")
            var differences = expected.differences(to: actual)
            if kind == "update" && expectedConflicts != conflicts {
                differences.append("conflicts: expected \(describe(expectedConflicts)), got \(describe(conflicts))")
            }
            if let versionProblem { differences.append(versionProblem) }
            if updateGolden, !differences.isEmpty, let folder = tree.folder {
                try FixtureGolden.write(actual, conflicts: kind == "update" ? conflicts : nil, to: folder.appendingPathComponent("tests/\(name)"))
                return TemplateFixtureResult(name: name, kind: kind, passed: versionProblem == nil, differences: differences, updated: true)
            }
            return TemplateFixtureResult(name: name, kind: kind, passed: differences.isEmpty, differences: differences, updated: false)
        } catch {
            return TemplateFixtureResult(name: name, kind: kind, passed: false, differences: ["cannot run: \(TemplateError.oneLine(error))"], updated: false)
        }
    }

    private static func describe(_ conflicts: [UpdateConflict]) -> String {
        conflicts.isEmpty ? "none" : conflicts.map { "\($0.path) (\($0.resolution))" }.joined(separator: ", ")
    }
}

extension TemplateError {
    static func oneLine(_ error: any Error) -> String {
        String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
