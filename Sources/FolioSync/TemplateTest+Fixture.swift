import FoundationEssentials
import Glibc
import FolioCore
import FolioTemplates

/// `tests/NAME/fixture.json`.
struct TemplateFixture {
    struct Update {
        /// A ref of the template's git repository holding the older version; nil: the tree in `older/`.
        var from: String?
        var delete: [String]
    }

    /// Given answers (the rest take their defaults).
    var answers: [String: JSONValue]
    /// What defaults see as `folder_name` and `current_year` (fixed, so expected trees do not change with the date).
    var context: [String: JSONValue]
    /// Present for an update fixture.
    var update: Update?

    static let defaultContext: [String: JSONValue] = ["folder_name": .string("example-project"), "current_year": .string("2025")]

    static func parse(_ data: Data, file: String) throws -> TemplateFixture {
        let node: JSONNode
        do {
            node = try JSONNode.parse(data)
            try node.rejectUnknownKeys { path in
                switch path {
                case []: return ["description", "answers", "context", "update"]
                case ["update"]: return ["from", "delete"]
                default: return nil
                }
            }
        } catch { throw TemplateError(file, JSONKeys.describe(error), kind: .invalidFile) }
        guard case let .object(root) = node.value else { throw TemplateError(file, "expected a JSON object", kind: .invalidFile) }
        func object(_ key: String) throws -> [String: JSONValue] {
            guard let value = root[key] else { return [:] }
            guard case let .object(members) = value else { throw TemplateError(file, "'\(key)' must be an object", kind: .invalidFile) }
            return members
        }
        var fixture = TemplateFixture(answers: try object("answers"), context: defaultContext.merging(try object("context")) { _, given in given })
        if let update = root["update"] {
            guard case let .object(members) = update else { throw TemplateError(file, "'update' must be an object", kind: .invalidFile) }
            var deletes: [String] = []
            if let list = members["delete"] {
                guard case let .array(items) = list, let paths = Optional(items.compactMap(\.stringValue)), paths.count == items.count else {
                    throw TemplateError(file, "'update.delete' must be a list of paths", kind: .invalidFile)
                }
                deletes = paths
            }
            var from: String?
            if let ref = members["from"] {
                guard case let .string(text) = ref, !text.isEmpty else { throw TemplateError(file, "'update.from' must be a ref (a tag, branch or commit)", kind: .invalidFile) }
                from = text
            }
            fixture.update = Update(from: from, delete: deletes)
        }
        return fixture
    }

    /// The conflicts an update fixture expects (`conflicts.json`: a list of `{"path", "resolution"}`; none without it).
    func expectedConflicts(_ data: Data?, file: String) throws -> [UpdateConflict] {
        guard let data else { return [] }
        struct Entry: Decodable { let path: String; let resolution: String }
        do {
            return try StrictJSON.decode([Entry].self, from: data, strictAt: []).map { UpdateConflict(path: $0.path, resolution: $0.resolution) }
        } catch { throw TemplateError(file, JSONKeys.describe(error), kind: .invalidFile) }
    }
}

extension TemplateTester {
    /// Renders `older/` with the answers into a new document, applies `edits/` and the deletions, updates it to
    /// the current template with `Document.updateFromTemplate`, and returns the document's files and the conflicts.
    static func runUpdate(_ name: String, fixture: TemplateFixture, update: TemplateFixture.Update, tree: TemplateAuthoringTree,
                          limits: TemplateLimits) throws -> (FixtureTree, [UpdateConflict], String?) {
        let olderTree: TemplateAuthoringTree
        if let ref = update.from {
            guard let atRef = tree.atRef else {
                throw TemplateError(tree.name, "fixture '\(name)' updates from '\(ref)', but the template is in no git repository; describe the older version in tests/\(name)/older/", kind: .invalidFile)
            }
            olderTree = try atRef(ref)
        } else {
            olderTree = tree.subtree("\(name)/older")
        }
        let older = try olderTree.template(commit: String(repeating: "1", count: 40), limits: limits)
        let current = try tree.template(commit: String(repeating: "2", count: 40), limits: limits)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("folio-template-test-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        // A scratch document thrown away at once: no fsync.
        let settings = Settings(author: Settings.Author(name: "Folio template test", email: "template-test@folio.invalid"), sync: .none)
        let store = DocumentStore(settings: settings, environment: ["HOME": scratch.path, "XDG_CONFIG_HOME": scratch.path])

        let oldDeclared = Set(older.manifest.variables.map(\.name))
        let baseAnswers = try older.answers(given: fixture.answers.filter { oldDeclared.contains($0.key) }, mode: .defaults, context: fixture.context)
        let document = try older.instantiate(at: scratch.appendingPathComponent("document"), answers: baseAnswers, store: store)
        var changes: [DocumentChange] = []
        for file in tree.tests {
            guard let path = file.path.dropping(prefix: "\(name)/edits/") else { continue }
            changes.append(.write(path: path, data: file.data, executable: file.mode == 0o100755))
        }
        changes += update.delete.map { DocumentChange.delete(path: $0) }
        if !changes.isEmpty { try document.apply(changes, message: "Fixture edits") }

        // The answers as `folio update` carries them: recorded ones the new version still declares, then defaults.
        let declared = Set(current.manifest.variables.map(\.name))
        let given = older.recordableAnswers(baseAnswers).filter { declared.contains($0.key) }.merging(fixture.answers.filter { declared.contains($0.key) }) { _, new in new }
        let answers = try current.answers(given: given, mode: .defaults, context: fixture.context)
        let result = try document.updateFromTemplate(TemplateUpdatePlan(old: older, new: current), baseAnswers: baseAnswers, answers: answers,
                                                     conflictMode: .markers)
        var files: [String: FixtureTree.Entry] = [:]
        for entry in try document.files() where entry.kind == .blob {
            files[entry.path] = FixtureTree.Entry(data: try document.read(path: entry.path), mode: entry.mode)
        }
        document.waitForMaintenance()
        return (FixtureTree(files: files), result.conflicts, versionProblem(older: older.manifest.version, current: current.manifest.version))
    }
}

/// Why an update from `older` to `current` would not move forward, or nil when it does (or either is unversioned).
func versionProblem(older: String?, current: String?) -> String? {
    guard let older, let current, let from = SemanticVersion(older), let to = SemanticVersion(current) else { return nil }
    return from < to ? nil : "version: the current version \(current) is not newer than the older version \(older) (bump \"version\" in template.json)"
}

extension String {
    func dropping(prefix: String) -> String? { hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil }
}
