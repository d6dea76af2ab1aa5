import FoundationEssentials
import Glibc
import FolioCore

extension TemplateManifest {
    /// Checks `renamedFrom`: each old name is a valid variable name, is not a variable of this version (that would
    /// be a name clash, and two variables renamed from each other a cycle), and is claimed by one variable only.
    static func checkRenames(_ variables: [TemplateVariable], fail: (Int, String) -> TemplateError) throws {
        let declared = Set(variables.map(\.name))
        var claimedBy: [String: String] = [:]
        for (index, variable) in variables.enumerated() {
            for old in variable.renamedFrom ?? [] {
                guard !old.isEmpty, old.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), old.first.map({ !$0.isNumber }) ?? false else {
                    throw fail(index, "variable '\(variable.name)': renamedFrom '\(old)' must be letters, digits and '_'")
                }
                guard !declared.contains(old) else {
                    throw fail(index, "variable '\(variable.name)': renamedFrom '\(old)' is also a variable of this version")
                }
                if let other = claimedBy[old] {
                    throw fail(index, "variable '\(variable.name)': renamedFrom '\(old)' is already claimed by '\(other)'")
                }
                claimedBy[old] = variable.name
            }
        }
    }
}

/// How recorded answers carry over to a newer version of a template.
public struct AnswerMigration: Sendable, Equatable {
    /// The recorded answers under the new version's names (renamed ones moved, removed ones gone).
    public var answers: [String: JSONValue]
    /// Old name → new name, for each answer carried over through a rename.
    public var renamed: [String: String]
    /// Recorded answers whose variable the new version no longer has.
    public var removed: [String]
    /// Recorded answers the new version's variable no longer accepts (its type or checks changed), with why: they
    /// are asked again.
    public var refused: [String: String]
}

extension Template {
    /// Carries `recorded` answers (made with an earlier version) over to this version's variables: an answer under
    /// a variable's own name wins, else the first of its `renamedFrom` names that has one. Answers this version
    /// does not declare are dropped; answers its checks refuse are dropped and reported.
    public func migrateAnswers(_ recorded: [String: JSONValue]) -> AnswerMigration {
        var result = AnswerMigration(answers: [:], renamed: [:], removed: [], refused: [:])
        var used: Set<String> = []
        for variable in manifest.variables {
            let source = recorded[variable.name] != nil ? variable.name : (variable.renamedFrom ?? []).first { recorded[$0] != nil }
            guard let source, let value = recorded[source] else { continue }
            used.insert(source)
            do {
                result.answers[variable.name] = try variable.accept(value, template: manifest.id)
                if source != variable.name { result.renamed[source] = variable.name }
            } catch let error as TemplateError {
                result.refused[variable.name] = error.message
            } catch {
                result.refused[variable.name] = "\(error)"
            }
        }
        result.removed = recorded.keys.filter { !used.contains($0) }.sorted()
        return result
    }
}
