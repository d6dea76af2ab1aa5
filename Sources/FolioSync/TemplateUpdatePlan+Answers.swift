import FoundationEssentials
import Glibc
import FolioCore
import FolioTemplates

/// The answers of an update: for the new version (carried over, changed or newly asked) and for the recorded one.
public struct UpdateAnswers: Sendable, Equatable {
    /// The answers the new version renders with.
    public let answers: [String: JSONValue]
    /// The answers the recorded version renders with (the merge base): what the document was made with.
    public let baseAnswers: [String: JSONValue]
    /// How the recorded answers carried over (renames, removals, refusals).
    public let migration: AnswerMigration
    /// Variables answered now, in manifest order: new in this version, or whose recorded answer was refused.
    public let fresh: [String]
    /// Given answers that differ from the recorded ones, in manifest order.
    public let changed: [String]
}

extension TemplateUpdatePlan {
    /// Collects the answers of an update from the document's `recorded` answers and the `given` ones (`--set`,
    /// which win, under the new or an old name): recorded answers follow renames, removed ones disappear, and only
    /// variables without an answer are asked (or take their default, per `mode`).
    public func answers(recorded: [String: JSONValue], given: [String: JSONValue], mode: AnswerMode,
                        context: [String: JSONValue] = [:]) throws -> UpdateAnswers {
        let migration = new.migrateAnswers(recorded)
        var renames: [String: String] = [:]
        for variable in new.manifest.variables { for old in variable.renamedFrom ?? [] { renames[old] = variable.name } }
        var givenNow: [String: JSONValue] = [:]
        for (name, value) in given { givenNow[renames[name] ?? name] = value }
        let carried = migration.answers.merging(givenNow) { _, now in now }
        let answers = try new.answers(given: carried, mode: mode, context: context)
        let order = new.manifest.variables.map(\.name)
        let fresh = order.filter { answers[$0] != nil && carried[$0] == nil }
        let changed = order.filter { givenNow[$0] != nil && answers[$0] != migration.answers[$0] }

        let oldDeclared = Set(old.manifest.variables.map(\.name))
        var baseGiven = recorded.filter { oldDeclared.contains($0.key) }
        for name in oldDeclared where baseGiven[name] == nil {
            // Not recorded (a secret, or skipped): the answer given now, under this name or the one it became.
            if let value = answers[name] ?? renames[name].flatMap({ answers[$0] }) { baseGiven[name] = value }
        }
        let baseAnswers = (try? old.answers(given: baseGiven, mode: .defaults, context: context)) ?? recorded
        return UpdateAnswers(answers: answers, baseAnswers: baseAnswers, migration: migration, fresh: fresh, changed: changed)
    }
}
