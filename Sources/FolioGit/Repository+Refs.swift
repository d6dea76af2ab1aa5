import CGit2
import FoundationEssentials
import Glibc

/// A tag: its name and the commit it names.
public struct TagInfo: Sendable, Equatable {
    public let name: String
    public let target: ObjectID
    public let message: String?
}

extension Repository {
    /// The full name of the branch HEAD points at (`refs/heads/main`), even when unborn.
    public func headBranch() throws -> String? {
        var ref: OpaquePointer?
        let code = git_reference_lookup(&ref, pointer, "HEAD")
        if code == GIT_ENOTFOUND.rawValue { return nil }
        try check(code, "read HEAD", displayPath)
        defer { git_reference_free(ref) }
        guard git_reference_type(ref) == GIT_REFERENCE_SYMBOLIC, let target = git_reference_symbolic_target(ref) else { return nil }
        return String(cString: target)
    }

    /// The commit a ref points at (peeled through tags), or nil when the ref does not exist.
    public func referenceTarget(_ name: String) throws -> ObjectID? {
        var oid = git_oid()
        let code = git_reference_name_to_id(&oid, pointer, name)
        if code == GIT_ENOTFOUND.rawValue { return nil }
        try check(code, "read ref \(name)", displayPath)
        return ObjectID(oid)
    }

    /// The commit HEAD points at, or nil for an unborn branch.
    public func headCommitID() throws -> ObjectID? {
        try referenceTarget("HEAD")
    }

    /// Moves `name` to `target` only if it still points at `expected` (nil: only if it does not exist yet).
    /// Throws a `GitError` with `isModified`/`isExists` when another writer moved it, `isLocked` when locked.
    public func updateReference(_ name: String, to target: ObjectID, expecting expected: ObjectID?, logMessage: String) throws {
        var ref: OpaquePointer?
        let code: Int32 = target.withOID { targetOID in
            if let expected {
                return expected.withOID { git_reference_create_matching(&ref, pointer, name, targetOID, 1, $0, logMessage) }
            }
            return git_reference_create(&ref, pointer, name, targetOID, 0, logMessage)
        }
        if ref != nil { git_reference_free(ref) }
        try check(code, "update \(name)", displayPath)
    }

    /// Points `name` at `target` unconditionally. A lock on the ref that outlives a short wait and is over a second
    /// old was left by a writer killed mid-write (a live one holds it for microseconds) and is removed, so that one
    /// kill -9 during a fetch or push does not leave the ref unwritable for good.
    public func setReference(_ name: String, to target: ObjectID, logMessage: String) throws {
        var pause: useconds_t = 1000
        for _ in 0..<12 {
            do { return try setReferenceOnce(name, to: target, logMessage: logMessage) } catch let error as GitError where error.isLocked {
                removeLockIfStale(gitDirectoryPath + name + ".lock")
                usleep(pause)
                pause = min(pause * 2, 250_000)
            }
        }
        try setReferenceOnce(name, to: target, logMessage: logMessage)
    }

    private func setReferenceOnce(_ name: String, to target: ObjectID, logMessage: String) throws {
        var ref: OpaquePointer?
        try target.withOID { try check(git_reference_create(&ref, pointer, name, $0, 1, logMessage), "set \(name)", displayPath) }
        git_reference_free(ref)
    }

    /// Removes the lock file at `path` when it was last written over a second ago.
    private func removeLockIfStale(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0, time(nil) - info.st_mtim.tv_sec > 1 else { return }
        unlink(path)
    }

    /// Deletes a ref if it exists.
    public func deleteReference(_ name: String) throws {
        var ref: OpaquePointer?
        let code = git_reference_lookup(&ref, pointer, name)
        if code == GIT_ENOTFOUND.rawValue { return }
        try check(code, "read ref \(name)", displayPath)
        defer { git_reference_free(ref) }
        try check(git_reference_delete(ref), "delete \(name)", displayPath)
    }

    /// Every ref name matching a glob such as `refs/folio/conflicts/*`.
    public func referenceNames(matching glob: String) throws -> [String] {
        var array = git_strarray()
        try check(git_reference_list(&array, pointer), "list refs", displayPath)
        defer { git_strarray_dispose(&array) }
        var names: [String] = []
        for index in 0..<array.count {
            if let name = array.strings[index].map({ String(cString: $0) }), fnmatch(glob, name, 0) == 0 { names.append(name) }
        }
        return names.sorted()
    }

    /// Creates an annotated tag `name` on `target`; fails if the tag exists.
    public func createTag(_ name: String, target: ObjectID, tagger: Signature, message: String) throws {
        var object: OpaquePointer?
        try target.withOID { try check(git_object_lookup(&object, pointer, $0, GIT_OBJECT_COMMIT), "read commit", target.hex) }
        defer { git_object_free(object) }
        var oid = git_oid()
        try tagger.withSignature { sig in
            try check(git_tag_create(&oid, pointer, name, object, sig, message, 0), "create tag '\(name)'", displayPath)
        }
    }

    /// Every tag with the commit it names, sorted by name.
    public func tags() throws -> [TagInfo] {
        var result: [TagInfo] = []
        for name in try referenceNames(matching: "refs/tags/*") {
            var ref: OpaquePointer?
            guard git_reference_lookup(&ref, pointer, name) == 0 else { continue }
            defer { git_reference_free(ref) }
            var peeled: OpaquePointer?
            guard git_reference_peel(&peeled, ref, GIT_OBJECT_COMMIT) == 0 else { continue }
            defer { git_object_free(peeled) }
            var message: String?
            if let direct = git_reference_target(ref) {
                var tag: OpaquePointer?
                if git_tag_lookup(&tag, pointer, direct) == 0 {
                    message = git_tag_message(tag).map { String(cString: $0) }
                    git_tag_free(tag)
                }
            }
            result.append(TagInfo(name: String(name.dropFirst("refs/tags/".count)), target: ObjectID(git_object_id(peeled)), message: message))
        }
        return result
    }
}
