import FoundationEssentials
import Glibc
import FolioGit

/// What is wrong with HEAD or with the branch it names. A document always has a version, so a branch that is
/// missing or unreadable is damage, never "no versions yet".
public enum RefProblem: Sendable, Equatable, CustomStringConvertible {
    /// HEAD cannot be read (why: "empty", "garbled", "a folder", …).
    case headUnreadable(String)
    /// HEAD names a version directly, not a branch (git's "detached HEAD").
    case headDetached(ObjectID)
    /// HEAD names a ref that is not a branch (`refs/tags/x`) or a branch name git refuses.
    case headOutsideBranches(String)
    /// The branch (full name) does not exist.
    case branchMissing(String)
    /// The branch's ref file is a folder.
    case branchIsFolder(String)
    /// The branch's ref file is empty.
    case branchEmpty(String)
    /// The branch's ref file holds neither a version id nor a ref.
    case branchGarbled(String)
    /// The branch names an object the repository does not hold.
    case branchDangling(branch: String, object: ObjectID)
    /// The branch names an object that is not a version (its kind: tree, blob, tag).
    case branchNotAVersion(branch: String, object: ObjectID, kind: String)

    public var description: String {
        switch self {
        case let .headUnreadable(why): return "HEAD is damaged (\(why))"
        case let .headDetached(id): return "HEAD names version \(id.short) instead of a branch"
        case let .headOutsideBranches(target): return "HEAD names \(GitNames.shown(target)), which is not a branch"
        case let .branchMissing(branch): return "the branch \(branch) is missing"
        case let .branchIsFolder(branch): return "the branch \(branch) is a folder, not a ref"
        case let .branchEmpty(branch): return "the branch \(branch) is an empty file"
        case let .branchGarbled(branch): return "the branch \(branch) holds no version id"
        case let .branchDangling(branch, id): return "the branch \(branch) names \(id.short), which is not in the repository"
        case let .branchNotAVersion(branch, id, kind): return "the branch \(branch) names \(id.short), a \(kind), not a version"
        }
    }
}

/// A document whose HEAD or branch is damaged: nothing is read or written through it until it is repaired.
public enum RefError: Error, CustomStringConvertible, LocalizedError, Equatable {
    /// HEAD or the branch is damaged (document path, what is wrong); the history is still in the repository.
    case damaged(document: String, problem: RefProblem)
    /// The repair cannot go on (document path, what is wrong, why); nothing was changed.
    case unrepairable(document: String, problem: RefProblem, why: String)

    public var description: String {
        switch self {
        case let .damaged(document, problem):
            return "\(document): \(problem); nothing was read or changed"
        case let .unrepairable(document, problem, why):
            return "\(document): \(problem) and cannot be repaired: \(why); nothing was changed"
        }
    }

    public var errorDescription: String? { description }
}

/// What `Document.repairRefs()` did.
public struct RefRepair: Sendable, Equatable {
    /// What was wrong.
    public let problem: RefProblem
    /// The branch (full name).
    public let branch: String
    /// The version the branch names now and its first line, when the repair moved it.
    public let restored: ObjectID?
    public let summary: String?
    /// Why that version: what named it, or that nothing did.
    public let reason: String?
    /// Whether HEAD was made to name the branch again.
    public let headRepaired: Bool
    /// Refs made to keep versions that nothing else named (`refs/folio/recovered/<id>`), so that none is lost.
    public let kept: [String]
}

extension Document {
    /// The branch a document writes to: the one HEAD names when that is a branch git accepts; when HEAD names none,
    /// the only branch there, else `main`, else `master` (which `repairRefs` then makes HEAD name again).
    static func branchHEADNames(_ repository: Repository) -> String {
        if let named = try? repository.headBranch(), isBranchName(named) { return named }
        let branches = repository.branchNamesOnDisk().filter(isBranchName)
        if branches.count == 1, let only = branches.first { return only }
        return ["refs/heads/main", "refs/heads/master"].first(where: branches.contains) ?? "refs/heads/main"
    }

    static func isBranchName(_ full: String) -> Bool {
        full.hasPrefix("refs/heads/") && GitNames.problem(with: String(full.dropFirst("refs/heads/".count)), as: .branch) == nil
    }

    /// The version the branch names, once HEAD is found to name the branch and the branch a version the
    /// repository holds; throws `RefError.damaged` otherwise. Every read and every change starts here.
    func branchTip() throws -> ObjectID {
        if let problem = headProblem() { throw RefError.damaged(document: url.path, problem: problem) }
        switch try branchState() {
        case let .tip(id): return id
        case let .damaged(problem): throw RefError.damaged(document: url.path, problem: problem)
        }
    }

    /// What is wrong with HEAD or the branch, nil when both are sound.
    public func refProblem() throws -> RefProblem? {
        if let problem = headProblem() { return problem }
        if case let .damaged(problem) = try branchState() { return problem }
        return nil
    }

    private func headProblem() -> RefProblem? {
        switch repository.refFileState("HEAD") {
        case let .symbolic(target):
            // HEAD moved to another branch since the document was opened: the writes still go to `branch`.
            return Self.isBranchName(target) ? nil : .headOutsideBranches(target)
        case let .direct(id): return .headDetached(id)
        case .absent: return .headUnreadable("missing")
        case .emptyFile: return .headUnreadable("empty")
        case .garbage: return .headUnreadable("garbled")
        case .folder: return .headUnreadable("a folder")
        case let .unreadable(why): return .headUnreadable(why)
        }
    }

    private enum BranchState { case tip(ObjectID), damaged(RefProblem) }

    private func branchState() throws -> BranchState {
        let id: ObjectID?
        do { id = try repository.referenceTarget(branch) } catch let error as GitError {
            switch repository.refFileState(branch) {
            case .emptyFile: return .damaged(.branchEmpty(branch))
            case .folder: return .damaged(.branchIsFolder(branch))
            case .garbage, .symbolic: return .damaged(.branchGarbled(branch))
            case .absent, .direct, .unreadable: throw error
            }
        }
        guard let id else {
            if case .folder = repository.refFileState(branch) { return .damaged(.branchIsFolder(branch)) }
            return .damaged(.branchMissing(branch))
        }
        switch try repository.objectKind(id) {
        case .commit?: return .tip(id)
        case nil: return .damaged(.branchDangling(branch: branch, object: id))
        case let kind?: return .damaged(.branchNotAVersion(branch: branch, object: id, kind: kind.rawValue))
        }
    }

    // MARK: Repair

    /// Repairs a damaged HEAD or branch; nil when neither is damaged. A branch that is missing, unreadable or names
    /// a missing object is pointed at the newest version the repository holds — the newest commit no other commit
    /// builds on whose `.folio/document.json` is valid, preferring those a remote-tracking or conflict ref does not
    /// name (they are the remote's) — and every other such version that nothing names is kept under
    /// `refs/folio/recovered/`, so no history is lost. HEAD is made to name the branch; a version it named on its
    /// own becomes the branch's tip when it builds on it, else it is kept. The work tree is not touched.
    public func repairRefs() throws -> RefRepair? {
        try lock.withLock {
            let headProblem = headProblem()
            switch try branchState() {
            case let .damaged(branchProblem):
                let problem = headProblem ?? branchProblem
                let (move, keep) = try chooseTip(problem: problem)
                return try write(RefRepairPlan(problem: problem, move: move, keep: keep, repairHead: headProblem != nil))
            case let .tip(tip):
                guard let headProblem else { return nil }
                var plan = RefRepairPlan(problem: headProblem, move: nil, keep: [], repairHead: true)
                if case let .headDetached(detached) = headProblem { (plan.move, plan.keep) = try placeDetached(detached, tip: tip) }
                return try write(plan)
            }
        }
    }

    /// The branch's new tip and why that one.
    private typealias NewTip = (id: ObjectID, reason: String)

    private struct RefRepairPlan {
        let problem: RefProblem
        var move: NewTip?
        var keep: [ObjectID]
        let repairHead: Bool
    }

    /// Kept versions first (nothing is unreachable at any moment), then the branch, then HEAD; a branch that cannot
    /// be cleared (a folder holding other refs) stops the repair before anything is written.
    private func write(_ plan: RefRepairPlan) throws -> RefRepair {
        if plan.move != nil, case let .folder(holding) = repository.refFileState(branch), !holding.isEmpty {
            throw RefError.unrepairable(document: url.path, problem: plan.problem,
                                        why: "\(branch) is a folder holding other refs (\(holding.joined(separator: ", ")))")
        }
        var kept: [String] = []
        for id in plan.keep {
            let name = "refs/folio/recovered/\(id.hex)"
            if try repository.referenceTarget(name) == nil { try repository.setReference(name, to: id, logMessage: "folio: keep \(id.short)") }
            kept.append(name)
        }
        var summary: String?
        if let move = plan.move {
            do {
                try repository.removeBrokenLooseReference(branch)
            } catch let error as FileSystemError {
                throw RefError.unrepairable(document: url.path, problem: plan.problem, why: "\(branch) could not be cleared: \(error.reason)")
            }
            try repository.setReference(branch, to: move.id, logMessage: "folio: repair \(branch)")
            summary = try repository.commit(move.id).summary
        }
        if plan.repairHead { try repository.pointHead(at: branch, logMessage: "folio: repair HEAD") }
        if store.settings.sync == .full { try repository.syncToDisk([branch, "HEAD"] + kept) }
        return RefRepair(problem: plan.problem, branch: branch, restored: plan.move?.id, summary: summary, reason: plan.move?.reason,
                         headRepaired: plan.repairHead, kept: kept)
    }

    /// What names commits besides the damaged branch: refs, reflogs, pseudo-refs, a detached HEAD, the crash note.
    private func evidence(for problem: RefProblem) -> [RecoveryEvidence] {
        var evidence = repository.recoveryEvidence(excluding: branch)
        if case let .headDetached(id) = problem { evidence.append(RecoveryEvidence(id: id, source: "HEAD", isRef: false)) }
        if let note = lock.readNote(), let first = note.split(separator: " ").first, let id = ObjectID(hex: String(first)) {
            evidence.append(RecoveryEvidence(id: id, source: "Folio's note of the change it was making", isRef: false))
        }
        return evidence
    }

    /// The branch's new tip and the versions to keep beside it.
    private func chooseTip(problem: RefProblem) throws -> (NewTip?, [ObjectID]) {
        let tips = try documentTips()
        let evidence = evidence(for: problem)
        let remoteOnly: (ObjectID) -> Bool = { tip in
            let refs = evidence.filter { $0.id == tip && $0.isRef }
            return !refs.isEmpty && refs.allSatisfy { $0.source.hasPrefix("refs/remotes/") || $0.source.hasPrefix("refs/folio/conflicts/") }
        }
        let local = tips.filter { !remoteOnly($0) }
        let times = try Dictionary(uniqueKeysWithValues: tips.map { ($0, try repository.commit($0).committer.time) })
        let newestFirst: (ObjectID, ObjectID) -> Bool = { a, b in
            (times[a] ?? .distantPast, a.hex) < (times[b] ?? .distantPast, b.hex)
        }
        guard let chosen = (local.isEmpty ? tips : local).max(by: newestFirst) else {
            throw RefError.unrepairable(document: url.path, problem: problem, why: "the repository holds no version of the document")
        }
        let names = evidence.filter { $0.id == chosen }.map(\.source)
        var reason = "the newest version the repository holds"
        if tips.count > 1 { reason += " (of \(tips.count) that no other version builds on)" }
        if !names.isEmpty { reason += ", also named by \(Array(Set(names)).sorted().joined(separator: ", "))" }
        let keep = tips.filter { tip in tip != chosen && !evidence.contains { $0.id == tip && $0.isRef } }
        return ((chosen, reason), keep)
    }

    /// The versions of the document no other version builds on: the object database's commit tips, each one that
    /// is not a document (no valid `.folio/document.json`) replaced by its parents, those below another dropped.
    private func documentTips() throws -> [ObjectID] {
        var queue = try repository.commitTips()
        var seen: Set<ObjectID> = []
        var found: [ObjectID] = []
        while let id = queue.popLast() {
            guard seen.insert(id).inserted else { continue }
            if isDocumentVersion(id) { found.append(id) } else if let commit = try? repository.commit(id) { queue += commit.parents }
        }
        var tips: [ObjectID] = []
        for id in found {
            var below = false
            for other in found where other != id && !below { below = try repository.isAncestor(id, of: other) }
            if !below { tips.append(id) }
        }
        return tips.sorted()
    }

    /// A version HEAD named on its own, with the branch sound: it becomes the tip when it builds on the tip, and is
    /// kept when nothing else reaches it.
    private func placeDetached(_ detached: ObjectID, tip: ObjectID) throws -> (NewTip?, [ObjectID]) {
        guard try repository.objectKind(detached) == .commit, isDocumentVersion(detached) else { return (nil, []) }
        if detached != tip, try repository.isAncestor(tip, of: detached) {
            return ((detached, "the version HEAD named, which builds on \(tip.short)"), [])
        }
        let refs = repository.recoveryEvidence(excluding: "").filter(\.isRef).map(\.id) + [tip]
        for target in Set(refs) where try repository.isAncestor(detached, of: target) { return (nil, []) }
        return (nil, [detached])
    }

    /// Whether commit `id`'s tree holds a `.folio/document.json` that validates.
    private func isDocumentVersion(_ id: ObjectID) -> Bool {
        guard let commit = try? repository.commit(id),
              let entry = (try? repository.entry(atPath: DocumentMetadata.path, inTree: commit.tree)) ?? nil, entry.kind == .blob,
              let data = try? repository.readBlob(entry.id) else { return false }
        return (try? DocumentMetadata.decode(data)) != nil
    }
}
