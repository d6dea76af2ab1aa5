import FolioCore
import FolioGit
import FolioPlugins
import FolioSync
import Foundation

/// Issue 32's model-based run: 3–5 clones of one document behind one bare remote, each applying random commands
/// through the bundled editor and syncing in random orders, some offline for a while, one of them (when `watched`)
/// kept in sync by a `folio sync --watch` process that is killed with SIGKILL at random moments and started again.
/// Every merge is checked against the reference model (`ModelList`, the format's rules): when a sync makes it, and
/// once more at the end for every merge in the final history, whoever made it. A kept conflict must be one the model
/// sees, and one the model sees must be kept. Conflicts are settled item by item with random choices. In the end all
/// clones sync until they hold one version: no item twice, none lost that nobody deleted, every field a value someone
/// wrote, every version any clone made in the final history, `git fsck --strict` clean everywhere.
///
/// The commands, choices and sync order come from the seed; with a watched clone, when the watch's rounds fall
/// between them depends on timing as well.
package struct ReplicaRun {
    /// What a run saw.
    package struct Tally: Sendable {
        package var operations = 0, syncs = 0, fastForwards = 0, merges = 0, checkedMerges = 0, crissCross = 0
        package var conflicts = 0, settledWhole = 0, notItemByItem = 0, crissCrossWhole = 0, kills = 0, watchMerges = 0, refusedStale = 0

        package init() {}

        package mutating func add(_ other: Tally) {
            operations += other.operations; syncs += other.syncs; fastForwards += other.fastForwards; merges += other.merges
            checkedMerges += other.checkedMerges; crissCross += other.crissCross; conflicts += other.conflicts
            settledWhole += other.settledWhole; notItemByItem += other.notItemByItem; crissCrossWhole += other.crissCrossWhole; refusedStale += other.refusedStale; kills += other.kills; watchMerges += other.watchMerges
        }

        package var summary: String {
            "\(operations) operations, \(syncs) syncs, \(fastForwards) fast-forwards, \(merges) merges by the syncs, \(watchMerges) by the watch, "
                + "\(checkedMerges) checked against the model (\(crissCross) with several merge bases, not checked), \(conflicts) kept conflicts settled "
                + "(\(settledWhole) whole, \(notItemByItem) of them because the editor could not settle them item by item, \(crissCrossWhole) between versions with several merge bases, the others against a base written before ids), \(kills) watch processes killed with SIGKILL, \(refusedStale) commands refused because the watch had merged a version they conflict with"
        }
    }

    package let format: any ReplicaFormat
    package let seed: UInt64
    package let replicas: Int
    package private(set) var tally = Tally()
    /// What went wrong, each naming the seed and step; empty when the run is faithful.
    package private(set) var problems: [String] = []

    private let workspace: ReplicaWorkspace
    private let registry: EditorRegistry
    private let editors: PluginSemanticMerger
    private var random: SeededRandom
    private var documents: [Document] = []
    private var offline: [Bool] = []
    private var watch: ReplicaWatch?
    private var bare: URL
    /// Every value each field of each item was ever given, the ids some clone deleted (or a settling choice dropped),
    /// every version a clone made, the merges already checked and the versions that settle a conflict.
    private var written: [String: [String: Set<String>]] = [:]
    private var deleted = Set<String>()
    private var made = Set<String>()
    private var checked = Set<String>()
    private var settlements = Set<String>()
    private var counter = 0
    /// The last push each clone could not make (a push may be refused while another clone pushed first).
    private var pushFailures: [Int: String] = [:]

    /// A run of `format` from `seed`; `products` holds the bundled plugins and `folio`, whose watch keeps the first
    /// clone in sync when `watched`.
    package init(format: any ReplicaFormat, seed: UInt64, replicas: Int, products: URL, watched: Bool) throws {
        self.format = format
        self.seed = seed
        self.replicas = replicas
        random = SeededRandom(seed: seed)
        workspace = try ReplicaWorkspace()
        registry = EditorRegistry(searchPath: PluginSearchPath(folders: [.init(products, bundled: true)]))
        editors = PluginSemanticMerger(host: registry)
        bare = workspace.url.appendingPathComponent("remote.git")
        if watched { watch = ReplicaWatch(folio: products.appendingPathComponent("folio"), workspace: workspace) }
    }

    /// The whole run: the start, `steps` random steps, then convergence and the final checks.
    package mutating func run(steps: Int) throws {
        try start()
        for step in 0..<steps { try self.step(step) }
        try converge()
        watch?.stop()
    }

    private var transfer: TransferOptions { TransferOptions(environment: workspace.environment) }
    private var syncOptions: SyncOptions { SyncOptions(transfer: transfer, semanticMerger: editors) }

    private mutating func fail(_ text: String) { problems.append("\(format.name), seed \(seed): \(text)") }

    /// The first clone writes an old document (no ids, as a Folio before them wrote it) and shares it.
    private mutating func start() throws {
        try workspace.git(["init", "--bare", "-q", "-b", "main", bare.path], in: workspace.url)
        let first = try workspace.store.create(at: workspace.url.appendingPathComponent("r0"), contentType: format.contentType, title: "Replica model")
        try first.write(Data(format.oldDocument.utf8), to: first.metadata.primaryFile, message: "Old \(format.name)")
        try first.addRemote("origin", url: bare.path)
        _ = try first.push(options: transfer)
        documents = [first]
        for index in 1..<replicas {
            documents.append(try workspace.store.clone(from: bare.path, to: workspace.url.appendingPathComponent("r\(index)"), options: transfer))
        }
        offline = Array(repeating: false, count: replicas)
        record(try model(first), since: nil)
        try watch?.start(first.url)
    }

    /// The version at `rev` as the model reads it; a version without ids reads with the ids the plugin derives.
    private func model(_ document: Document, at rev: String = "HEAD") throws -> ModelDocument {
        let bytes = try document.read(path: document.metadata.primaryFile, at: rev)
        if let model = format.model(Array(bytes)) { return model }
        let identified = try registry.backend(format.name).openDocument(bytes).bytes()
        guard let model = format.model(Array(identified)) else { throw ReplicaModelError("the \(format.name) plugin's version of \(rev) does not read") }
        return model
    }

    private func bytes(_ document: Document, at rev: String) -> String {
        (try? String(decoding: document.read(path: document.metadata.primaryFile, at: rev), as: UTF8.self)) ?? "?"
    }

    /// Notes every value `after` gives a field that `before` did not, and the ids `after` no longer has.
    private mutating func record(_ after: ModelDocument, since before: ModelDocument?) {
        for list in after.lists.values {
            for item in list.items {
                for (field, value) in item.fields { written[item.id, default: [:]][field, default: []].insert(value) }
            }
        }
        if let before { deleted.formUnion(before.allIDs.subtracting(after.allIDs)) }
    }

    private mutating func step(_ step: Int) throws {
        let r = random.int(below: replicas)
        switch random.int(below: 100) {
        case 0..<6:
            offline[r].toggle()
            if r == 0, let watch { offline[0] ? watch.kill() : try watch.start(documents[0].url) }
        case 6..<36: if !offline[r] { try sync(r, step: step) }
        default: try edit(r, step: step)
        }
    }

    private mutating func edit(_ r: Int, step: Int) throws {
        let document = documents[r]
        let before = try model(document)
        counter += 1
        let command = format.command(on: before, name: "r\(r)-\(counter)", random: &random)
        let outcome: EditOutcome
        do {
            outcome = try registry.edit(document, command: command[0], arguments: Array(command.dropFirst()))
        } catch where r == 0 && watch != nil && "\(error)".contains("since it was shown") {
            // The watch merged a version meanwhile and the command conflicts with it: refused, nothing changed, as
            // for a person whose window showed the older version.
            tally.refusedStale += 1
            return
        } catch {
            return fail("step \(step), replica r\(r): '\(command.joined(separator: " "))' failed: \(error)")
        }
        tally.operations += 1
        if let commit = outcome.commit { made.insert(commit) }
        record(try model(document), since: before)
    }

    private mutating func sync(_ r: Int, step: Int) throws {
        let where_ = "step \(step), replica r\(r)"
        if r == 0, let watch { return try tend(watch, where_) }
        let document = documents[r]
        // A conflict the watch kept (it was stopped since) is settled first, as its user would.
        try settleKept(document, where_)
        let ours = try document.head().id
        let outcome: PullOutcome
        do { outcome = try document.pull(options: syncOptions) } catch {
            throw ReplicaModelError("\(where_): \(error); kept: \(try document.keptConflicts()); refs: \(try workspace.git(["for-each-ref", "refs/folio"], in: document.url))")
        }
        tally.syncs += 1
        switch outcome {
        case .upToDate: break
        case .fastForwarded: tally.fastForwards += 1
        case let .merged(commit):
            tally.merges += 1
            let head = try document.head()
            guard head.id == commit.id, head.parents.count == 2, head.parents[0] == ours else {
                return fail("\(where_): the merge \(commit.id.hex) is not the head with our version as first parent")
            }
            try checkMerge(document, head.id.hex, ours: ours.hex, theirs: head.parents[1].hex, where_)
        case let .conflict(conflict):
            tally.conflicts += 1
            try checkConflict(document, ours: ours.hex, theirs: conflict.commit.hex, reasons: conflict.reasons, where_)
            try settle(document, conflict.ref, "\(where_), conflict in \(conflict.paths): \(conflict.reasons)")
        case let .rewound(rewind): fail("\(where_): the remote was rewound: \(rewind)")
        case .held: fail("\(where_): held back although no clone changes the content type")
        }
        do { _ = try document.push(options: transfer); pushFailures[r] = nil } catch { pushFailures[r] = "\(error)" }
    }

    /// The watched clone's turn: settle what its watch kept (the watch stopped meanwhile), or kill the watch at a
    /// random moment and start it again.
    private mutating func tend(_ watch: ReplicaWatch, _ where_: String) throws {
        if let ended = watch.endedByItself() { fail("\(where_): the watch exited by itself (\(ended)): \(watch.logTail())") }
        let document = documents[0]
        let kept = try document.keptConflicts()
        if kept.isEmpty, random.int(below: 3) != 0 { return }
        watch.kill()
        tally.kills += 1
        try settleKept(document, where_)
        try watch.start(document.url)
    }

    /// Settles the conflicts a watch kept.
    private mutating func settleKept(_ document: Document, _ where_: String) throws {
        for conflict in try document.keptConflicts() {
            tally.conflicts += 1
            let ours = try document.head().id.hex
            try checkConflict(document, ours: ours, theirs: conflict.commit, reasons: [conflict.summary], where_)
            try settle(document, conflict.ref, "\(where_), the watch's kept conflict: \(conflict.summary)")
        }
    }

    private func mergeBases(_ document: Document, _ a: String, _ b: String) throws -> [String] {
        try workspace.git(["merge-base", "--all", a, b], in: document.url).split(separator: "\n").map(String.init)
    }

    /// The model's expectation for merging `ours` and `theirs` (nil when they have several merge bases).
    private struct Expected {
        let base: ModelDocument, ours: ModelDocument, theirs: ModelDocument, baseCommit: String, conflicting: Set<String>
    }

    private func expectation(_ document: Document, ours: String, theirs: String) throws -> Expected? {
        let bases = try mergeBases(document, ours, theirs)
        guard bases.count == 1 else { return nil }
        let b = try model(document, at: bases[0]), o = try model(document, at: ours), t = try model(document, at: theirs)
        var expected: [String: ModelList.Expectation] = [:]
        for name in Set(b.lists.keys).union(o.lists.keys).union(t.lists.keys) { expected[name] = ModelList.expect(base: b[name], ours: o[name], theirs: t[name]) }
        let own = format.conflicts(in: expected)
        let conflicting = expected.values.reduce(into: Set<String>()) { $0.formUnion($1.conflicting) }.union(own)
        return Expected(base: b, ours: o, theirs: t, baseCommit: bases[0], conflicting: conflicting)
    }

    private mutating func checkMerge(_ document: Document, _ result: String, ours: String, theirs: String, _ where_: String) throws {
        guard checked.insert(result).inserted else { return }
        guard let expected = try expectation(document, ours: ours, theirs: theirs) else { tally.crissCross += 1; return }
        var problems: [String] = []
        if !expected.conflicting.isEmpty { problems.append("merged what the model says conflicts: \(expected.conflicting.sorted())") }
        let merged = try model(document, at: result)
        for name in merged.lists.keys.sorted() {
            if let problem = ModelList.problem(result: merged[name], base: expected.base[name], ours: expected.ours[name], theirs: expected.theirs[name]) { problems.append("\(name): \(problem)") }
        }
        if let problem = format.problem(in: merged, bytes: Array(try document.read(path: document.metadata.primaryFile, at: result))) { problems.append(problem) }
        tally.checkedMerges += 1
        guard !problems.isEmpty else { return }
        fail("\(where_): the merge \(result) \(problems.joined(separator: "; "))\nbase:\n\(bytes(document, at: expected.baseCommit))ours:\n\(bytes(document, at: ours))theirs:\n\(bytes(document, at: theirs))merged:\n\(bytes(document, at: result))")
    }

    private mutating func checkConflict(_ document: Document, ours: String, theirs: String, reasons: [String], _ where_: String) throws {
        guard let expected = try expectation(document, ours: ours, theirs: theirs), expected.conflicting.isEmpty else { return }
        fail("\(where_): kept a conflict the model does not see: \(reasons)\nbase:\n\(bytes(document, at: expected.baseCommit))ours:\n\(bytes(document, at: ours))theirs:\n\(bytes(document, at: theirs))")
    }

    /// Settles a kept conflict item by item, each choice random; only against a base written before ids, where
    /// settling pairs items by their content and the merge by their derived ids, may it have to be settled whole.
    private mutating func settle(_ document: Document, _ ref: String, _ where_: String) throws {
        let items = try document.itemConflicts(ref, editors: editors)
        var choices: [String: ItemChoice] = [:]
        for item in items { choices[item.key] = random.pick([ItemChoice.mine, .theirs]) }
        let theirs = try document.repository.resolveCommit(ref).hex
        let before = try model(document).allIDs.union(try model(document, at: theirs).allIDs)
        var settled: CommitInfo?
        do {
            if items.isEmpty { throw ReplicaModelError("no items listed") }
            settled = try document.settleConflict(ref, choices: choices, editors: editors)
        } catch let error where items.isEmpty || error is SettleError {
            let legacy = try againstLegacyBase(document, theirs: theirs)
            // Versions with several merge bases (criss-cross) may hold an item added on both sides that no base
            // has, which no base key names: such a conflict may be settled whole; the model checks none of them.
            let crissCross = try mergeBases(document, try document.head().id.hex, theirs).count > 1
            if crissCross { tally.crissCrossWhole += 1 }
            guard legacy || crissCross || !format.settlesEveryConflictItemByItem else {
                let ours = try document.head().id.hex, base = try mergeBases(document, ours, theirs).first ?? ours
                return fail("\(where_): a conflict that cannot be settled item by item (\(error)); choices \(choices)\nbase:\n\(bytes(document, at: base))ours:\n\(bytes(document, at: ours))theirs:\n\(bytes(document, at: theirs))")
            }
            if !legacy && !crissCross { tally.notItemByItem += 1 }
            settled = try document.resolveConflict(ref, keep: random.pick([ConflictSide.local, .remote]))
            tally.settledWhole += 1
        }
        if let settled { settlements.insert(settled.id.hex); made.insert(settled.id.hex) }
        if try !document.keptConflicts().isEmpty { fail("\(where_): still kept after settling") }
        let after = try model(document)
        if let problem = format.problem(in: after, bytes: Array(try document.read(path: document.metadata.primaryFile, at: "HEAD"))) { fail("\(where_): settled as \(problem)") }
        // What a settling choice drops was dropped by the person choosing.
        deleted.formUnion(before.subtracting(after.allIDs))
        record(after, since: nil)
    }

    /// Whether the two versions' merge base was written before ids: settling pairs items by their content there, and
    /// the merge by their derived ids, so the conflict may have to be settled whole.
    private func againstLegacyBase(_ document: Document, theirs: String) throws -> Bool {
        let ours = try document.head().id.hex
        return try mergeBases(document, ours, theirs).allSatisfy { format.model(Array(try document.read(path: document.metadata.primaryFile, at: $0))) == nil }
    }

    /// Every clone online, the watch stopped, syncing in turn until all hold one version and no conflict is kept; then
    /// every merge in the final history is checked, and the final version against everything anyone did.
    private mutating func converge() throws {
        watch?.stop()
        watch = nil
        offline = Array(repeating: false, count: replicas)
        for round in 0..<12 {
            for r in 0..<replicas { try sync(r, step: 100_000 + round) }
            let heads = Set(try documents.map { try $0.head().id })
            if heads.count == 1, try documents.allSatisfy({ try $0.keptConflicts().isEmpty }) { break }
        }
        guard Set(try documents.map { try $0.head().id }).count == 1 else { return fail("the clones did not converge: \(try convergenceReport())") }
        let document = documents[0]
        let head = try document.head().id.hex
        try checkHistory(document, head: head)
        let final = try model(document)
        for (name, list) in final.lists where Set(list.ids).count != list.ids.count { fail("\(name): an item is there twice: \(list.ids)") }
        for id in written.keys.sorted() where !deleted.contains(id) && !final.allIDs.contains(id) { fail("item \(id) (\(written[id] ?? [:])) was never deleted but is gone") }
        for list in final.lists.values {
            for item in list.items {
                for (field, value) in item.fields where !(written[item.id]?[field]?.contains(value) ?? false) {
                    fail("item \(item.id)'s \(field) is '\(value)', which nobody wrote")
                }
            }
        }
        for url in [bare] + documents.map(\.url) {
            let fsck = try workspace.run("git", ["fsck", "--strict", "--no-progress"], in: url)
            if fsck.status != 0 || fsck.output.contains("error") { fail("git fsck --strict in \(url.lastPathComponent): \(fsck.output)") }
        }
    }

    /// Each clone's head, kept conflicts and last refused push, and the remote's head.
    private func convergenceReport() throws -> String {
        var lines = ["remote main \(try workspace.git(["rev-parse", "main"], in: bare).trimmingCharacters(in: .whitespacesAndNewlines))"]
        for (r, document) in documents.enumerated() {
            lines.append("r\(r) \(try document.head().id.hex) kept \(try document.keptConflicts().count) push \(pushFailures[r] ?? "ok")")
        }
        return lines.joined(separator: "\n")
    }

    /// Every version a clone made is in the final history, and every merge there (the watch's too) is the model's.
    private mutating func checkHistory(_ document: Document, head: String) throws {
        let history = Set(try workspace.git(["rev-list", head], in: document.url).split(separator: "\n").map(String.init))
        for commit in made.sorted() where !history.contains(commit) { fail("the version \(commit) a clone made is not in the final history") }
        for line in try workspace.git(["rev-list", "--merges", "--parents", head], in: document.url).split(separator: "\n") {
            let ids = line.split(separator: " ").map(String.init)
            guard ids.count == 3, !settlements.contains(ids[0]), !checked.contains(ids[0]) else { continue }
            tally.watchMerges += 1
            try checkMerge(document, ids[0], ours: ids[1], theirs: ids[2], "in the final history")
        }
    }
}

/// A run that could not go on (not a finding about the merge).
package struct ReplicaModelError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
