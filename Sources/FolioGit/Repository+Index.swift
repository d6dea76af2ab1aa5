import CGit2
import FoundationEssentials
import Glibc

/// A work-tree file to record in the index after Folio wrote it.
public struct IndexUpdate: Sendable {
    public let path: String
    public let blob: ObjectID
    public let mode: UInt32
    /// What `fstat` said of the file right after Folio wrote it, when the writer kept it (saves an `lstat`).
    public let written: stat?
    public init(path: String, blob: ObjectID, mode: UInt32, written: stat? = nil) {
        self.path = path; self.blob = blob; self.mode = mode; self.written = written
    }
}

extension Repository {
    private func withIndex<R>(_ body: (OpaquePointer?) throws -> R) throws -> R {
        var index: OpaquePointer?
        try check(git_repository_index(&index, pointer), "open index", displayPath)
        defer { git_index_free(index) }
        try check(git_index_read(index, 0), "read index", displayPath)
        return try body(index)
    }

    /// Records files Folio has just written (with their stat data, so `git status` needs no rehash) and
    /// removals, then writes the index.
    public func updateIndex(_ updates: [IndexUpdate], removing removals: [String]) throws {
        guard let work = workDirectoryPath else { return }
        try withIndex { index in
            for update in updates {
                var entry = git_index_entry()
                var info = update.written ?? stat()
                if update.written != nil || lstat(work + update.path, &info) == 0 {
                    entry.ctime.seconds = Int32(truncatingIfNeeded: info.st_ctim.tv_sec)
                    entry.ctime.nanoseconds = UInt32(truncatingIfNeeded: info.st_ctim.tv_nsec)
                    entry.mtime.seconds = Int32(truncatingIfNeeded: info.st_mtim.tv_sec)
                    entry.mtime.nanoseconds = UInt32(truncatingIfNeeded: info.st_mtim.tv_nsec)
                    entry.dev = UInt32(truncatingIfNeeded: info.st_dev)
                    entry.ino = UInt32(truncatingIfNeeded: info.st_ino)
                    entry.uid = info.st_uid
                    entry.gid = info.st_gid
                    entry.file_size = UInt32(truncatingIfNeeded: info.st_size)
                }
                entry.mode = update.mode
                entry.id = update.blob.oid
                let code = update.path.withCString { path -> Int32 in
                    entry.path = path
                    return git_index_add(index, &entry)
                }
                try check(code, "record \(update.path) in the index", displayPath)
            }
            for path in removals {
                let code = git_index_remove_bypath(index, path)
                if code != GIT_ENOTFOUND.rawValue { try check(code, "remove \(path) from the index", displayPath) }
            }
            try check(git_index_write(index), "write index", displayPath)
        }
    }

    /// Stages every change in the work tree (new, modified, deleted; ignored files stay out) and returns the
    /// resulting tree. The index is written only when `write` is true.
    public func stageWorkTree(write: Bool) throws -> ObjectID {
        try withIndex { index in
            var star: UnsafeMutablePointer<CChar>? = strdup("*")
            defer { free(star) }
            var out = git_oid()
            try withUnsafeMutablePointer(to: &star) { strings in
                var spec = git_strarray(strings: strings, count: 1)
                // A folder that is a repository of its own comes as "b/", which no index can hold: it is left out.
                let skipNested: git_index_matched_path_cb = { path, _, _ in
                    guard let path else { return 0 }
                    let length = strlen(path)
                    return length > 0 && path[length - 1] == 0x2F ? 1 : 0  // ends with "/"
                }
                try check(git_index_add_all(index, &spec, GIT_INDEX_ADD_DEFAULT.rawValue, skipNested, nil), "stage work tree", displayPath)
                try check(git_index_update_all(index, &spec, nil, nil), "stage deletions", displayPath)
            }
            try check(git_index_write_tree(&out, index), "write tree from index", displayPath)
            if write { try check(git_index_write(index), "write index", displayPath) }
            return ObjectID(out)
        }
    }

    /// Paths whose work-tree state differs from HEAD or the index (untracked included, ignored excluded), without
    /// the folders that are repositories of their own (see `workTreeChanges`).
    public func changedPaths() throws -> [String] {
        try workTreeChanges().changed
    }

    /// The work tree's changes (as `changedPaths`) and, apart, its folders that are git repositories of their own
    /// ("b/"): git lists such a folder as one untracked entry it cannot record, so it is never a change to record.
    public func workTreeChanges() throws -> (changed: [String], nestedRepositories: [String]) {
        var options = git_status_options()
        try check(git_status_options_init(&options, UInt32(GIT_STATUS_OPTIONS_VERSION)), "status options")
        options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR
        options.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED.rawValue | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS.rawValue
        var list: OpaquePointer?
        try check(git_status_list_new(&list, pointer, &options), "read status", displayPath)
        defer { git_status_list_free(list) }
        var paths: [String] = []
        var nested: [String] = []
        for index in 0..<git_status_list_entrycount(list) {
            guard let entry = git_status_byindex(list, index)?.pointee else { continue }
            let delta = entry.index_to_workdir ?? entry.head_to_index
            guard let path = (delta?.pointee.new_file.path ?? delta?.pointee.old_file.path).map({ String(cString: $0) }) else { continue }
            // With untracked folders listed file by file, only a repository of its own is listed as a folder.
            if path.hasSuffix("/") { nested.append(path) } else { paths.append(path) }
        }
        return (paths, nested)
    }
}
