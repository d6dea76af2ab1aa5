import CGit2
import FoundationEssentials
import Glibc

/// One file changed between two trees.
public struct FileDelta: Sendable, Equatable {
    public enum Status: String, Sendable { case added, deleted, modified, renamed, typeChanged }
    public let status: Status
    public let oldPath: String
    public let newPath: String
    public let oldID: ObjectID?
    public let newID: ObjectID?
    public let newMode: UInt32
}

extension Repository {
    /// The unified diff (git's patch format) from tree `old` to tree `new`; nil trees mean empty.
    public func patch(from old: ObjectID?, to new: ObjectID?, paths: [String] = [], contextLines: Int = 3) throws -> String {
        try withDiff(from: old, to: new, paths: paths, contextLines: contextLines) { diff in
            var buf = git_buf()
            defer { git_buf_dispose(&buf) }
            try check(git_diff_to_buf(&buf, diff, GIT_DIFF_FORMAT_PATCH), "format diff", displayPath)
            guard let ptr = buf.ptr else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: ptr, count: buf.size), as: UTF8.self)
        }
    }

    /// The files that differ between two trees (renames detected).
    public func deltas(from old: ObjectID?, to new: ObjectID?, detectRenames: Bool = false) throws -> [FileDelta] {
        try withDiff(from: old, to: new, paths: [], contextLines: 0) { diff in
            if detectRenames {
                var options = git_diff_find_options()
                git_diff_find_options_init(&options, UInt32(GIT_DIFF_FIND_OPTIONS_VERSION))
                options.flags = GIT_DIFF_FIND_RENAMES.rawValue
                try check(git_diff_find_similar(diff, &options), "find renames", displayPath)
            }
            var result: [FileDelta] = []
            for index in 0..<git_diff_num_deltas(diff) {
                guard let delta = git_diff_get_delta(diff, index) else { continue }
                let d = delta.pointee
                let status: FileDelta.Status
                switch d.status {
                case GIT_DELTA_ADDED: status = .added
                case GIT_DELTA_DELETED: status = .deleted
                case GIT_DELTA_RENAMED: status = .renamed
                case GIT_DELTA_TYPECHANGE: status = .typeChanged
                default: status = .modified
                }
                var oldID = d.old_file.id, newID = d.new_file.id
                let zero = ObjectID(git_oid())
                let o = ObjectID(&oldID), n = ObjectID(&newID)
                result.append(FileDelta(
                    status: status,
                    oldPath: d.old_file.path.map { String(cString: $0) } ?? "",
                    newPath: d.new_file.path.map { String(cString: $0) } ?? "",
                    oldID: o == zero ? nil : o, newID: n == zero ? nil : n,
                    newMode: UInt32(d.new_file.mode)))
            }
            return result
        }
    }

    private func withDiff<R>(from old: ObjectID?, to new: ObjectID?, paths: [String], contextLines: Int, _ body: (OpaquePointer?) throws -> R) throws -> R {
        var oldTree: OpaquePointer?, newTree: OpaquePointer?
        if let old { try old.withOID { try check(git_tree_lookup(&oldTree, pointer, $0), "read tree", old.hex) } }
        defer { git_tree_free(oldTree) }
        if let new { try new.withOID { try check(git_tree_lookup(&newTree, pointer, $0), "read tree", new.hex) } }
        defer { git_tree_free(newTree) }
        var options = git_diff_options()
        try check(git_diff_options_init(&options, UInt32(GIT_DIFF_OPTIONS_VERSION)), "diff options")
        options.context_lines = UInt32(contextLines)
        var cPaths: [UnsafeMutablePointer<CChar>?] = paths.map { strdup($0) }
        defer { cPaths.forEach { free($0) } }
        var diff: OpaquePointer?
        try cPaths.withUnsafeMutableBufferPointer { buffer in
            options.pathspec = git_strarray(strings: buffer.baseAddress, count: buffer.count)
            try check(git_diff_tree_to_tree(&diff, pointer, oldTree, newTree, &options), "diff", displayPath)
        }
        defer { git_diff_free(diff) }
        return try body(diff)
    }
}
