import CGit2
import FoundationEssentials
import Glibc

/// A commit something other than the branch still names: a ref, a reflog, a pseudo-ref (`ORIG_HEAD`).
public struct RecoveryEvidence: Sendable, Equatable {
    public let id: ObjectID
    /// Where it was found, for messages: `refs/remotes/origin/main`, `the reflog of refs/heads/main`, `ORIG_HEAD`.
    public let source: String
    /// Whether `source` is a ref that keeps the commit reachable (a reflog or pseudo-ref does not, for Folio).
    public let isRef: Bool

    public init(id: ObjectID, source: String, isRef: Bool) {
        self.id = id; self.source = source; self.isRef = isRef
    }
}

extension Repository {
    /// The commits of the object database that are no other commit's parent: every branch of history ends in one,
    /// whether a ref still names it or not. Reads every object's header (a repair, not a hot path).
    public func commitTips() throws -> [ObjectID] {
        var odb: OpaquePointer?
        try check(git_repository_odb(&odb, pointer), "open object database", displayPath)
        defer { git_odb_free(odb) }
        final class Collected { var ids: [ObjectID] = [] }
        let collected = Collected()
        let payload = Unmanaged.passUnretained(collected).toOpaque()
        try check(git_odb_foreach(odb, { oid, payload in
            guard let oid, let payload else { return 0 }
            Unmanaged<Collected>.fromOpaque(payload).takeUnretainedValue().ids.append(ObjectID(oid.pointee))
            return 0
        }, payload), "list objects", displayPath)
        var commits: Set<ObjectID> = []
        var parents: Set<ObjectID> = []
        for id in Set(collected.ids) {
            var size = 0
            var type = GIT_OBJECT_INVALID
            guard id.withOID({ git_odb_read_header(&size, &type, odb, $0) }) == 0, type == GIT_OBJECT_COMMIT,
                  let commit = try? commit(id) else { continue }
            commits.insert(id)
            parents.formUnion(commit.parents)
        }
        return commits.subtracting(parents).sorted()
    }

    /// What still names a commit, besides `excluded` (the damaged branch): every readable ref (peeled to its commit;
    /// libgit2 skips broken ones), the newest entry of each reflog, and the pseudo-refs.
    public func recoveryEvidence(excluding excluded: String) -> [RecoveryEvidence] {
        var found: [RecoveryEvidence] = []
        var array = git_strarray()
        if git_reference_list(&array, pointer) == 0 {
            defer { git_strarray_dispose(&array) }
            for index in 0..<array.count {
                guard let name = array.strings[index].map({ String(cString: $0) }), name != excluded, let id = peeledCommit(name) else { continue }
                found.append(RecoveryEvidence(id: id, source: name, isRef: true))
            }
        }
        found += newestReflogEntries(folder: "logs")
        for name in ["ORIG_HEAD", "FETCH_HEAD", "MERGE_HEAD"] {
            guard let data = FileManager.default.contents(atPath: gitDirectoryPath + name) else { continue }
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                if let id = ObjectID(hex: String(line.prefix(40))) { found.append(RecoveryEvidence(id: id, source: name, isRef: false)) }
            }
        }
        return found
    }

    private func peeledCommit(_ name: String) -> ObjectID? {
        var ref: OpaquePointer?
        guard git_reference_lookup(&ref, pointer, name) == 0 else { return nil }
        defer { git_reference_free(ref) }
        var peeled: OpaquePointer?
        guard git_reference_peel(&peeled, ref, GIT_OBJECT_COMMIT) == 0 else { return nil }
        defer { git_object_free(peeled) }
        return ObjectID(git_object_id(peeled))
    }

    /// The value each reflog under `folder` gave its ref last (its last line's new id).
    private func newestReflogEntries(folder: String) -> [RecoveryEvidence] {
        var found: [RecoveryEvidence] = []
        for name in filesBeneath(folder) {
            guard let data = FileManager.default.contents(atPath: gitDirectoryPath + name),
                  let last = String(decoding: data, as: UTF8.self).split(separator: "\n").last else { continue }
            let words = last.split(separator: " ")
            if words.count > 1, let id = ObjectID(hex: String(words[1])), !words[1].allSatisfy({ $0 == "0" }) {
                found.append(RecoveryEvidence(id: id, source: "the reflog of \(name.dropFirst("logs/".count))", isRef: false))
            }
        }
        return found
    }
}
