import FoundationEssentials
import FolioCore
import FolioJinja

/// The two sides of a copier update, as its `_migrations` see them: copier's `_version_from`/`_version_to` (the
/// versions' `_commit`) and their PEP 440 forms.
struct CopierUpdateVersions {
    let from: String, to: String
    let pep440From: PEP440Version, pep440To: PEP440Version
}

extension CopierSession {
    /// `_tasks` whose `when` holds, rendered as copier renders them: a string runs through the shell, a list is
    /// the program and its arguments; each in its `working_directory`, with `STAGE=task` and `_stage` in context;
    /// `operation` is copier's `_copier_operation` (`copy`, or `update` when an update renders a version).
    func tasks(operation: String = "copy") throws -> [TemplateProgram] {
        guard case let .list(list)? = config.settings["tasks"] else { return [] }
        let extra: [(String, JinjaValue)] = [("_stage", .string("task")), ("_copier_operation", .string(operation))]
        var out: [TemplateProgram] = []
        for (index, task) in list.items.enumerated() {
            var command = task, when: JinjaValue = .string("true"), folder: JinjaValue = .string(".")
            if case let .dict(spec) = task {
                command = spec["command"] ?? .none
                when = spec["when"] ?? when
                folder = spec["working_directory"] ?? folder
            }
            if let program = try program(command, when: when, folder: folder, name: "task \(index + 1)", what: "_tasks[\(index)]", extra: extra) {
                out.append(program)
            }
        }
        return out
    }

    /// The `_migrations` of `stage` (`before` or `after`) an update across `versions` runs, in order, as copier 9
    /// picks them: an entry with a `version` only when the update crosses it (from < version ≤ to); an entry's
    /// `when` (by default `{{ _stage == "after" }}`) over the answers, `_stage`, `_version_*` and
    /// `_copier_operation`; each also given them as `STAGE`, `VERSION_FROM`, … in its environment. The legacy form
    /// (`version` with `before:`/`after:` lists) is read as copier still reads it.
    func migrations(stage: String, versions: CopierUpdateVersions) throws -> [TemplateProgram] {
        guard case let .list(list)? = config.settings["migrations"] else { return [] }
        var out: [TemplateProgram] = []
        var envops = JinjaDict()
        if case let .dict(given)? = config.settings["envops"] { envops = given }
        let start = envops["variable_start_string"]?.pythonString ?? "{{", end = envops["variable_end_string"]?.pythonString ?? "}}"
        let defaultWhen = JinjaValue.string("\(start) _stage == \"after\" \(end)")
        for (index, entry) in list.items.enumerated() {
            let what = "_migrations[\(index)]"
            var extra = Self.migrationContext(stage: stage, versions: versions)
            var command = entry, when = defaultWhen, folder: JinjaValue = .string(".")
            if case let .dict(spec) = entry {
                if let version = spec["version"] {
                    guard let current = PEP440Version(version.pythonString) else {
                        throw TemplateError(file, "\(what) names the version '\(version.pythonString)', which is not a PEP 440 version", kind: .invalidFile)
                    }
                    guard versions.pep440From < current, current <= versions.pep440To else { continue }
                    extra += [("_version_current", .string(version.pythonString)), ("_version_pep440_current", .string(current.description))]
                }
                if spec["before"] != nil || spec["after"] != nil {
                    guard spec["version"] != nil else { throw TemplateError(file, "\(what) has before/after lists but no version", kind: .invalidFile) }
                    guard case let .list(commands)? = spec[stage] else { continue }
                    for (step, legacy) in commands.items.enumerated() {
                        if let program = try program(legacy, when: .bool(true), folder: folder, name: "migration \(index + 1).\(step + 1)",
                                                     what: "\(what).\(stage)[\(step)]", extra: extra) { out.append(program) }
                    }
                    continue
                }
                command = spec["command"] ?? .none
                when = spec["when"] ?? defaultWhen
                folder = spec["working_directory"] ?? folder
            }
            if let program = try program(command, when: when, folder: folder, name: "migration \(index + 1)", what: what, extra: extra) {
                out.append(program)
            }
        }
        return out
    }

    private static func migrationContext(stage: String, versions: CopierUpdateVersions) -> [(String, JinjaValue)] {
        [("_stage", .string(stage)), ("_version_from", .string(versions.from)), ("_version_to", .string(versions.to)),
         ("_version_pep440_from", .string(versions.pep440From.description)), ("_version_pep440_to", .string(versions.pep440To.description)),
         ("_copier_operation", .string("update"))]
    }

    /// One task or migration: nil when its `when` is false. Its context variables are also its environment, as
    /// copier gives them (`_version_from` as `VERSION_FROM`).
    private func program(_ command: JinjaValue, when: JinjaValue, folder: JinjaValue, name: String, what: String,
                         extra: [(String, JinjaValue)]) throws -> TemplateProgram? {
        let condition: Bool
        if case let .bool(flag) = when { condition = flag } else { condition = CopierValues.castToBool(.string(try renderString(when.pythonString, what: what, extra: extra))) }
        guard condition else { return nil }
        let arguments: [String]
        switch command {
        case let .string(text): arguments = ["sh", "-c", try renderString(text, what: what, extra: extra)]
        case let .list(parts): arguments = try parts.items.map { try renderString($0.pythonString, what: what, extra: extra) }
        default: throw TemplateError(file, "\(what) has no command", kind: .invalidFile)
        }
        guard !arguments.isEmpty else { throw TemplateError(file, "\(what) has no command", kind: .invalidFile) }
        let place = try renderString(folder.pythonString, what: what, extra: extra)
        let parts = place.split(separator: "/").filter { $0 != "." }
        guard !place.hasPrefix("/"), !parts.contains("..") else {
            throw TemplateError(file, "\(what) would run in \(place), outside the project", kind: .refusedPath)
        }
        var environment: [String: String] = [:]
        for (key, value) in extra { environment[String(key.dropFirst()).uppercased()] = value.pythonString }
        return TemplateProgram(name: name, stage: .afterFiles, arguments: arguments, script: nil, folder: parts.joined(separator: "/"), environment: environment)
    }
}
