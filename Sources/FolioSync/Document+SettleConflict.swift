import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioGit
import FolioPlugins

extension Document {
    /// The primary file as settling kept conflict `ref` with `choices` would leave it, without writing anything: what
    /// `settleConflict` commits (the preview of the conflict screen). `choices` is checked as `settleConflict` checks it.
    public func settledBytes(_ ref: String, choices: [String: ItemChoice], editors: (any ItemMerging)?) throws -> Data {
        let plan = try conflictPlan(ref, editors: editors)
        try checkChoices(choices, plan: plan)
        let path = metadata.primaryFile
        if let primary = plan.primary { return try settledPrimary(primary, choices: choices) }
        if let file = plan.files.first(where: { $0.path == path }) {
            let side = choices[path] == .theirs ? file.theirs : file.ours
            return try side.map { try repository.readBlob($0.id) } ?? Data()
        }
        for case let .upsert(changed, blob, _) in plan.merged where changed == path { return try repository.readBlob(blob) }
        guard let entry = try repository.entry(atPath: path, inTree: plan.merge.tree), entry.kind == .blob else { return Data() }
        return try repository.readBlob(entry.id)
    }

    /// Settles kept conflict `ref` as one merge commit "Settle conflict STAMP: 2 mine, 1 theirs, 1 both" whose
    /// parents are the current version and the kept one (both histories kept), then drops the ref.
    ///
    /// `choices` names every conflicting item of the primary file by its key in the common ancestor
    /// (`ConflictDetails.items`) and every file settled whole by its path (`ConflictDetails.files`; `both` is refused
    /// for those); a key missing or not in conflict is refused. Each item is settled through the editor: the losing
    /// side's change is made to look like no change (its version taken into the common ancestor; a removal undone by
    /// putting the ancestor's version back on that side), and the editor's semantic merge of the three then combines
    /// everything; for `both`, theirs is then added as a new item. The result is checked with the editor's item list
    /// before anything is written: every item the two sides agree on, each chosen version (`both`: both), and no
    /// version not chosen; else `SettleError.editorCouldNotSettle` and nothing is written. Other files merge as a pull
    /// merges them. Returns nil when the kept version is already part of the current one (the ref is dropped).
    @discardableResult
    public func settleConflict(_ ref: String, choices: [String: ItemChoice], editors: (any ItemMerging)?) throws -> CommitInfo? {
        let (name, theirs) = try keptConflict(ref)
        if try repository.isAncestor(theirs, of: head().id) {
            try repository.deleteReference(name)
            return nil
        }
        // Once checked, the choices name exactly the conflicting keys, so the message counts them alone.
        let message = Self.settleMessage(stamp: String(name.dropFirst(Self.conflictRefPrefix.count)), choices: choices)
        let commit = try commitTree(message: message, parents: [theirs]) { _ in
            let plan = try conflictPlan(ref, editors: editors)
            try checkChoices(choices, plan: plan)
            return try settledTree(plan, choices: choices)
        }
        try repository.deleteReference(name)
        return commit
    }

    /// The merged tree with the choices applied.
    private func settledTree(_ plan: ConflictPlan, choices: [String: ItemChoice]) throws -> ObjectID {
        var changes = plan.merged
        if let primary = plan.primary {
            let bytes = try settledPrimary(primary, choices: choices)
            changes.append(.upsert(path: primary.path, blob: try repository.writeBlob(bytes), mode: primary.mode))
        }
        for file in plan.files where choices[file.path] == .theirs {
            if let ours = file.ours, ours.path != file.theirs?.path { changes.append(.remove(path: ours.path)) }
            if let theirs = file.theirs { changes.append(.upsert(path: theirs.path, blob: theirs.id, mode: theirs.mode)) }
        }
        return try repository.updateTree(plan.merge.tree, changes)
    }

    /// "Settle conflict STAMP: 2 mine, 1 theirs, 1 both" (just "Settle conflict STAMP" when nothing was chosen).
    static func settleMessage(stamp: String, choices: [String: ItemChoice]) -> String {
        let counts = ItemChoice.allCases.compactMap { choice -> String? in
            let count = choices.values.filter { $0 == choice }.count
            return count == 0 ? nil : "\(count) \(choice.rawValue)"
        }
        return "Settle conflict \(stamp)" + (counts.isEmpty ? "" : ": " + counts.joined(separator: ", "))
    }

    /// Refuses choices naming keys not in conflict, conflicting keys without a choice, and `both` for a whole file.
    func checkChoices(_ choices: [String: ItemChoice], plan: ConflictPlan) throws {
        let keys = plan.keys, known = Set(keys)
        let unknown = choices.keys.filter { !known.contains($0) }.sorted(by: Self.keyOrder)
        if !unknown.isEmpty { throw SettleError.unknownKeys(document: url.path, ref: plan.name, keys: unknown, known: keys) }
        let missing = keys.filter { choices[$0] == nil }
        if !missing.isEmpty { throw SettleError.missingChoices(document: url.path, ref: plan.name, keys: missing) }
        if let file = plan.files.first(where: { choices[$0.path] == .both }) {
            throw SettleError.bothForWholeFile(document: url.path, path: file.path)
        }
    }

    /// Item keys in the order the editor numbers them ("2" before "10", "1.2" before "1.10").
    static func keyOrder(_ a: String, _ b: String) -> Bool {
        NumericOrder.ascending(a, b)
    }

    /// The primary file with each conflicting item settled as chosen, checked with the editor's item list.
    func settledPrimary(_ items: PrimaryItems, choices: [String: ItemChoice]) throws -> Data {
        let backend = items.backend
        var baseFromMine: [(from: String, into: String?)] = [], baseFromTheirs: [(from: String, into: String?)] = []
        var intoMine: [(from: String, into: String?)] = [], intoTheirs: [(from: String, into: String?)] = []
        var addTheirs: [(from: String, into: String?)] = []
        for conflict in items.conflicts {
            guard let choice = choices[conflict.key] else { continue }
            let mineWins = choice == .mine || (choice == .both && conflict.mine != nil)
            if choice == .both, let mine = conflict.mine, let theirs = conflict.theirs, mine.fingerprint != theirs.fingerprint {
                addTheirs.append((theirs.key, nil))
            }
            let (winner, loser) = mineWins ? (conflict.mine, conflict.theirs) : (conflict.theirs, conflict.mine)
            if let loser {
                // The loser's version becomes the ancestor's: its side then shows no change to this item.
                if mineWins { baseFromTheirs.append((loser.key, conflict.key)) } else { baseFromMine.append((loser.key, conflict.key)) }
            } else if winner != nil {
                // The loser removed it: the ancestor's version is put back on that side, in its place there, so that
                // side shows no change to this item and the merge takes the winner's version and place.
                if mineWins { intoTheirs.append((conflict.key, nil)) } else { intoMine.append((conflict.key, nil)) }
            }
        }
        var base = try take(backend, from: items.theirs, into: items.base, baseFromTheirs)
        base = try take(backend, from: items.mine, into: base, baseFromMine)
        let mine = try take(backend, from: items.base, into: items.mine, intoMine)
        let theirs = try take(backend, from: items.base, into: items.theirs, intoTheirs)
        var result: Data
        switch try backend.merge(base: base, ours: mine, theirs: theirs) {
        case let .merged(bytes)?:
            result = bytes
        case let .conflicts(why)?:
            let shown = why.prefix(3).map { PluginText.description($0) }.joined(separator: "; ")
            throw SettleError.editorCouldNotSettle(document: url.path, editor: backend.editorID, item: nil, why: shown.isEmpty ? "it still conflicts" : shown)
        case nil:
            throw SettleError.editorCouldNotSettle(document: url.path, editor: backend.editorID, item: nil, why: "it has no semantic merge")
        }
        result = try take(backend, from: items.theirs, into: result, addTheirs)
        try verify(result, items: items, choices: choices)
        return result
    }

    /// `into` with `pairs` of `from` taken in (unchanged when there are none). An editor that refuses the take is an
    /// editor that cannot settle this way (the file is then settled whole), not a failure of the command.
    private func take(_ backend: any EditorBackend, from: Data, into: Data, _ pairs: [(from: String, into: String?)]) throws -> Data {
        guard !pairs.isEmpty else { return into }
        let taken: (bytes: Data, description: String)?
        do { taken = try backend.takeItems(from: from, into: into, pairs: pairs) } catch {
            throw SettleError.editorCouldNotSettle(document: url.path, editor: backend.editorID, item: nil, why: "\(error)")
        }
        guard let taken else {
            throw SettleError.editorCouldNotSettle(document: url.path, editor: backend.editorID, item: nil, why: "it cannot take items")
        }
        return taken.bytes
    }

    /// Refuses a settled primary file that is not as chosen: an item both sides agree on (or only one changed) lost,
    /// a chosen version missing (`both`: either), or a version not chosen still there. Versions are compared by the
    /// editor's fingerprints, counted (two equal items are two).
    private func verify(_ result: Data, items: PrimaryItems, choices: [String: ItemChoice]) throws {
        let editor = items.backend.editorID
        guard let resultItems = try items.backend.items(of: result, previous: nil) else {
            throw SettleError.editorCouldNotSettle(document: url.path, editor: editor, item: nil, why: "it no longer lists items")
        }
        var have: [String: Int] = [:]
        for item in resultItems { have[item.fingerprint, default: 0] += 1 }
        var need: [String: Int] = [:], owner: [String: String] = [:]
        var refused: [(fingerprint: String, key: String)] = []
        func require(_ item: EditorItem?, as key: String) {
            guard let item else { return }
            need[item.fingerprint, default: 0] += 1
            owner[item.fingerprint] = owner[item.fingerprint] ?? key
        }
        let conflicting = Dictionary(uniqueKeysWithValues: items.conflicts.map { ($0.key, $0) })
        for base in items.baseItems {
            let mine = items.mine(of: base.key), theirs = items.theirs(of: base.key)
            if conflicting[base.key] != nil, let choice = choices[base.key] {
                if choice != .theirs { require(mine, as: base.key) }
                if choice != .mine { require(theirs, as: base.key) }
                if choice == .mine, let theirs { refused.append((theirs.fingerprint, base.key)) }
                if choice == .theirs, let mine { refused.append((mine.fingerprint, base.key)) }
            } else {
                // Not in conflict: the side that changed it (a removal keeps it out), else both agree.
                require(mine?.fingerprint == base.fingerprint ? theirs : mine, as: base.key)
            }
        }
        // Items new on either side (the same new item on both counted once).
        var added: [String: Int] = [:]
        for side in [items.mineItems, items.theirsItems] {
            var counts: [String: Int] = [:]
            for item in side where item.previous == nil { counts[item.fingerprint, default: 0] += 1 }
            added.merge(counts) { max($0, $1) }
        }
        for (fingerprint, count) in added { need[fingerprint, default: 0] += count }
        if let (fingerprint, _) = need.first(where: { have[$0.key, default: 0] < $0.value }) {
            let key = owner[fingerprint]
            let why = key.flatMap { conflicting[$0] } != nil ? "the chosen version is not in its result" : "its result lost an item the two sides agree on"
            throw SettleError.editorCouldNotSettle(document: url.path, editor: editor, item: key ?? "new", why: why)
        }
        if let stray = refused.first(where: { have[$0.fingerprint, default: 0] > need[$0.fingerprint, default: 0] }) {
            throw SettleError.editorCouldNotSettle(document: url.path, editor: editor, item: stray.key, why: "the version not chosen is still in its result")
        }
    }
}
