import CGit2
import FoundationEssentials
import Glibc

/// One side of a conflicted path: where the file is on that side, its blob and mode.
public struct MergeSide: Sendable, Equatable {
    public let path: String
    public let id: ObjectID
    public let mode: UInt32
}

/// A path both sides changed in ways libgit2 could not combine (overlapping edits, edit/delete, binary files).
public struct MergeConflict: Sendable, Equatable {
    public let ancestor: MergeSide?
    public let ours: MergeSide?
    public let theirs: MergeSide?

    /// The path to show: ours, else theirs, else the ancestor's.
    public var path: String { ours?.path ?? theirs?.path ?? ancestor?.path ?? "" }
}

/// A three-way tree merge: the merged tree and what could not be merged.
public struct TreeMergeResult: Sendable, Equatable {
    /// Every cleanly merged path, with each conflicted path at our version (absent where we have none).
    public let tree: ObjectID
    /// The conflicted paths, in index order.
    public let conflicts: [MergeConflict]
    /// Whether nothing conflicted.
    public var isClean: Bool { conflicts.isEmpty }
}

/// A text merge of one conflicted file.
public struct FileMergeResult: Sendable, Equatable {
    /// The merged bytes, with conflict markers where the sides overlap.
    public let data: Data
    /// Whether the merge needed no markers.
    public let isClean: Bool
}

extension Repository {
    /// Merges tree `theirs` into tree `ours` against `ancestor` (nil: no common ancestor) with rename detection.
    public func mergeTrees(ancestor: ObjectID?, ours: ObjectID, theirs: ObjectID, findRenames: Bool = true) throws -> TreeMergeResult {
        var ancestorTree: OpaquePointer?, ourTree: OpaquePointer?, theirTree: OpaquePointer?
        defer { git_tree_free(ancestorTree); git_tree_free(ourTree); git_tree_free(theirTree) }
        if let ancestor { try ancestor.withOID { try check(git_tree_lookup(&ancestorTree, pointer, $0), "read tree", ancestor.hex) } }
        try ours.withOID { try check(git_tree_lookup(&ourTree, pointer, $0), "read tree", ours.hex) }
        try theirs.withOID { try check(git_tree_lookup(&theirTree, pointer, $0), "read tree", theirs.hex) }
        var options = try mergeOptions(findRenames: findRenames)
        var index: OpaquePointer?
        try check(git_merge_trees(&index, pointer, ancestorTree, ourTree, theirTree, &options), "merge trees", displayPath)
        defer { git_index_free(index) }
        return try collectMerge(index)
    }

    /// Merges commit `theirs` into commit `ours` (libgit2 finds the merge base, recursively for criss-cross histories).
    public func mergeCommits(ours: ObjectID, theirs: ObjectID, findRenames: Bool = true) throws -> TreeMergeResult {
        var ourCommit: OpaquePointer?, theirCommit: OpaquePointer?
        defer { git_commit_free(ourCommit); git_commit_free(theirCommit) }
        try ours.withOID { try check(git_commit_lookup(&ourCommit, pointer, $0), "read commit", ours.hex) }
        try theirs.withOID { try check(git_commit_lookup(&theirCommit, pointer, $0), "read commit", theirs.hex) }
        var options = try mergeOptions(findRenames: findRenames)
        var index: OpaquePointer?
        try check(git_merge_commits(&index, pointer, ourCommit, theirCommit, &options), "merge commits", displayPath)
        defer { git_index_free(index) }
        return try collectMerge(index)
    }

    /// Merges commit `theirs` into commit `ours` as `mergeCommits` does, except that each of `wholeFiles` both sides
    /// changed, differently, is a conflict even where a line merge would be clean: a file an editor merges by meaning
    /// (a checklist's JSON) must not be merged line by line, where a line one side moved and the other deleted comes
    /// back, or an item both renamed appears twice.
    public func mergeCommits(ours: ObjectID, theirs: ObjectID, wholeFiles: Set<String>, findRenames: Bool = true) throws -> TreeMergeResult {
        let merged = try mergeCommits(ours: ours, theirs: theirs, findRenames: findRenames)
        let open = wholeFiles.subtracting(merged.conflicts.map(\.path))
        guard !open.isEmpty, let base = try mergeBase(ours, theirs) else { return merged }
        let trees = (base: try commit(base).tree, ours: try commit(ours).tree, theirs: try commit(theirs).tree)
        var conflicts = merged.conflicts
        var ourSides: [TreeChange] = []
        for path in open.sorted() {
            let a = try entry(atPath: path, inTree: trees.base), o = try entry(atPath: path, inTree: trees.ours)
            let t = try entry(atPath: path, inTree: trees.theirs)
            guard o?.id != t?.id, o?.id != a?.id, t?.id != a?.id, o?.kind ?? .blob == .blob, t?.kind ?? .blob == .blob else { continue }
            func side(_ entry: TreeEntry?) -> MergeSide? { entry.map { MergeSide(path: $0.path, id: $0.id, mode: $0.mode) } }
            conflicts.append(MergeConflict(ancestor: side(a), ours: side(o), theirs: side(t)))
            // As for every conflicted path, the tree holds our side.
            ourSides.append(o.map { .upsert(path: path, blob: $0.id, mode: $0.mode) } ?? .remove(path: path))
        }
        let tree = ourSides.isEmpty ? merged.tree : try updateTree(merged.tree, ourSides)
        return TreeMergeResult(tree: tree, conflicts: conflicts)
    }

    /// A line-based three-way merge of one conflicted file with standard conflict markers labelled `ourLabel` and
    /// `theirLabel`; nil when it cannot be merged as text (a side is missing, or a side is binary).
    public func mergeFileText(_ conflict: MergeConflict, ourLabel: String, theirLabel: String, ancestorLabel: String = "base") throws -> FileMergeResult? {
        guard let ours = conflict.ours, let theirs = conflict.theirs else { return nil }
        guard ours.mode != 0o120000, theirs.mode != 0o120000 else { return nil }
        let base = try conflict.ancestor.map { try readBlob($0.id) } ?? Data()
        let ourData = try readBlob(ours.id), theirData = try readBlob(theirs.id)
        return try Self.mergeText(base: base, ours: ourData, theirs: theirData, path: ours.path, mode: ours.mode, theirPath: theirs.path,
                                  theirMode: theirs.mode, ourLabel: ourLabel, theirLabel: theirLabel, ancestorLabel: ancestorLabel)
    }

    /// A line-based three-way merge of one file's three versions given as bytes (libgit2's `git_merge_file`, the
    /// merge pulls use); nil when a side is binary. Conflicting lines get standard markers and `isClean` false.
    public static func mergeText(base: Data, ours ourData: Data, theirs theirData: Data, path: String, mode: UInt32 = 0o100644,
                                 theirPath: String? = nil, theirMode: UInt32? = nil, ourLabel: String = "ours", theirLabel: String = "theirs",
                                 ancestorLabel: String = "base") throws -> FileMergeResult? {
        guard !looksBinary(base), !looksBinary(ourData), !looksBinary(theirData) else { return nil }
        var options = git_merge_file_options()
        try check(git_merge_file_options_init(&options, UInt32(GIT_MERGE_FILE_OPTIONS_VERSION)), "merge file options")
        var result = git_merge_file_result()
        defer { git_merge_file_result_free(&result) }
        let code: Int32 = base.withUnsafeBytes { b in ourData.withUnsafeBytes { o in theirData.withUnsafeBytes { t in
            ancestorLabel.withCString { al in ourLabel.withCString { ol in theirLabel.withCString { tl in
                path.withCString { op in (theirPath ?? path).withCString { tp in
                    options.ancestor_label = al
                    options.our_label = ol
                    options.their_label = tl
                    var baseInput = git_merge_file_input(), ourInput = git_merge_file_input(), theirInput = git_merge_file_input()
                    git_merge_file_input_init(&baseInput, UInt32(GIT_MERGE_FILE_INPUT_VERSION))
                    git_merge_file_input_init(&ourInput, UInt32(GIT_MERGE_FILE_INPUT_VERSION))
                    git_merge_file_input_init(&theirInput, UInt32(GIT_MERGE_FILE_INPUT_VERSION))
                    baseInput.ptr = b.baseAddress?.assumingMemoryBound(to: CChar.self); baseInput.size = b.count
                    ourInput.ptr = o.baseAddress?.assumingMemoryBound(to: CChar.self); ourInput.size = o.count
                    ourInput.path = op; ourInput.mode = mode
                    theirInput.ptr = t.baseAddress?.assumingMemoryBound(to: CChar.self); theirInput.size = t.count
                    theirInput.path = tp; theirInput.mode = theirMode ?? mode
                    return git_merge_file(&result, &baseInput, &ourInput, &theirInput, &options)
                } }
            } } }
        } } }
        try check(code, "merge text", path)
        let data = result.ptr.map { Data(bytes: $0, count: result.len) } ?? Data()
        return FileMergeResult(data: data, isClean: result.automergeable != 0)
    }

    /// Whether bytes look binary the way git decides it: a NUL in the first 8,000 bytes.
    public static func looksBinary(_ data: Data) -> Bool {
        data.prefix(8000).contains(0)
    }

    private func mergeOptions(findRenames: Bool) throws -> git_merge_options {
        var options = git_merge_options()
        try check(git_merge_options_init(&options, UInt32(GIT_MERGE_OPTIONS_VERSION)), "merge options")
        options.flags = findRenames ? GIT_MERGE_FIND_RENAMES.rawValue : 0
        return options
    }

    /// Reads the conflicts out of a merge index, puts our side (if any) at each conflicted path, and writes the tree.
    private func collectMerge(_ index: OpaquePointer?) throws -> TreeMergeResult {
        var conflicts: [MergeConflict] = []
        if git_index_has_conflicts(index) != 0 {
            var iterator: OpaquePointer?
            try check(git_index_conflict_iterator_new(&iterator, index), "read merge conflicts", displayPath)
            defer { git_index_conflict_iterator_free(iterator) }
            func side(_ entry: UnsafePointer<git_index_entry>?) -> MergeSide? {
                guard let entry, let path = entry.pointee.path else { return nil }
                return MergeSide(path: String(cString: path), id: ObjectID(entry.pointee.id), mode: entry.pointee.mode)
            }
            while true {
                var a: UnsafePointer<git_index_entry>?, o: UnsafePointer<git_index_entry>?, t: UnsafePointer<git_index_entry>?
                let code = git_index_conflict_next(&a, &o, &t, iterator)
                if code == GIT_ITEROVER.rawValue { break }
                try check(code, "read merge conflicts", displayPath)
                conflicts.append(MergeConflict(ancestor: side(a), ours: side(o), theirs: side(t)))
            }
            for conflict in conflicts {
                for path in Set([conflict.ancestor?.path, conflict.ours?.path, conflict.theirs?.path].compactMap { $0 }) {
                    let code = git_index_conflict_remove(index, path)
                    if code != GIT_ENOTFOUND.rawValue { try check(code, "clear conflict", path) }
                }
            }
            for conflict in conflicts {
                guard let ours = conflict.ours else { continue }
                var entry = git_index_entry()
                entry.mode = ours.mode
                entry.id = ours.id.oid
                let code = ours.path.withCString { path -> Int32 in
                    entry.path = path
                    return git_index_add(index, &entry)
                }
                try check(code, "keep our side", ours.path)
            }
        }
        var out = git_oid()
        try check(git_index_write_tree_to(&out, index, pointer), "write merged tree", displayPath)
        return TreeMergeResult(tree: ObjectID(out), conflicts: conflicts)
    }
}
