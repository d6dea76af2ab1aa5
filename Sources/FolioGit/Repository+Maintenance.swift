import CGit2
import Foundation

extension Repository {
    /// How many loose objects the repository holds, estimated from one fan-out folder as `git gc --auto` does.
    public func estimatedLooseObjects() -> Int {
        let folder = gitDirectory.appendingPathComponent("objects/17").path
        guard let dir = opendir(folder) else { return 0 }
        defer { closedir(dir) }
        var count = 0
        while let entry = readdir(dir) {
            if entry.pointee.d_name.0 != 46 /* "." */ { count += 1 }
        }
        return count * 256
    }

    private func looseObjectIDs() -> [(ObjectID, String)] {
        let objects = gitDirectory.appendingPathComponent("objects")
        var result: [(ObjectID, String)] = []
        let fm = FileManager.default
        guard let fanout = try? fm.contentsOfDirectory(atPath: objects.path) else { return [] }
        for prefix in fanout where prefix.count == 2 && prefix.allSatisfy(\.isHexDigit) {
            let folder = objects.appendingPathComponent(prefix)
            for name in (try? fm.contentsOfDirectory(atPath: folder.path)) ?? [] where name.count == 38 {
                if let id = ObjectID(hex: prefix + name) { result.append((id, folder.appendingPathComponent(name).path)) }
            }
        }
        return result
    }

    /// The number of pack files.
    public func packCount() -> Int {
        let folder = gitDirectory.appendingPathComponent("objects/pack")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".pack") }.count
    }

    /// Packs objects with libgit2's packbuilder and removes the loose copies the new pack holds.
    /// With `all`, everything reachable from any ref goes into one new pack and the old packs are removed
    /// (like `git repack -a -d`); otherwise only the loose objects are packed (like `git repack -d`).
    public func pack(all: Bool) throws {
        let loose = looseObjectIDs()
        let packFolder = gitDirectory.appendingPathComponent("objects/pack")
        let oldPacks = all ? (((try? FileManager.default.contentsOfDirectory(atPath: packFolder.path)) ?? [])
            .filter { $0.hasPrefix("pack-") && ($0.hasSuffix(".pack") || $0.hasSuffix(".idx") || $0.hasSuffix(".rev")) }) : []
        if loose.isEmpty && !all { return }
        var builder: OpaquePointer?
        try check(git_packbuilder_new(&builder, pointer), "start pack", displayPath)
        defer { git_packbuilder_free(builder) }
        git_packbuilder_set_threads(builder, 1)
        if all {
            var walker: OpaquePointer?
            try check(git_revwalk_new(&walker, pointer), "start pack walk", displayPath)
            defer { git_revwalk_free(walker) }
            try check(git_revwalk_push_glob(walker, "refs/*"), "walk refs for packing", displayPath)
            try check(git_packbuilder_insert_walk(builder, walker), "add history to pack", displayPath)
            // Annotated tag objects are not reached by the walk; add them by hand.
            for tag in try referenceNames(matching: "refs/tags/*") {
                if let direct = try directTarget(tag) { _ = direct.withOID { git_packbuilder_insert(builder, $0, nil) } }
            }
        }
        for (id, _) in loose {
            try id.withOID { try check(git_packbuilder_insert(builder, $0, nil), "add object to pack", id.hex) }
        }
        try check(git_packbuilder_write(builder, packFolder.path, 0, nil, nil), "write pack", displayPath)
        let newPack = ObjectID(git_packbuilder_hash(builder)).hex
        var odb: OpaquePointer?
        try check(git_repository_odb(&odb, pointer), "open object database", displayPath)
        git_odb_refresh(odb)
        git_odb_free(odb)
        for (_, path) in loose { unlink(path) }
        for name in oldPacks where !name.contains(newPack) { unlink(packFolder.appendingPathComponent(name).path) }
        if all {
            // Empty fan-out folders are left by git too; remove them so the folder stays small.
            let objects = gitDirectory.appendingPathComponent("objects")
            for prefix in (try? FileManager.default.contentsOfDirectory(atPath: objects.path)) ?? [] where prefix.count == 2 {
                rmdir(objects.appendingPathComponent(prefix).path)
            }
        }
    }

    private func directTarget(_ name: String) throws -> ObjectID? {
        var ref: OpaquePointer?
        guard git_reference_lookup(&ref, pointer, name) == 0 else { return nil }
        defer { git_reference_free(ref) }
        return git_reference_target(ref).map { ObjectID($0) }
    }

    /// Writes `objects/info/commit-graph` for every commit reachable from a ref, with libgit2's own writer.
    public func writeCommitGraph() throws {
        let info = gitDirectory.appendingPathComponent("objects/info")
        try FileManager.default.createDirectory(at: info, withIntermediateDirectories: true)
        var writer: OpaquePointer?
        try check(git_commit_graph_writer_new(&writer, info.path), "start commit-graph", displayPath)
        defer { git_commit_graph_writer_free(writer) }
        var walker: OpaquePointer?
        try check(git_revwalk_new(&walker, pointer), "start commit-graph walk", displayPath)
        defer { git_revwalk_free(walker) }
        try check(git_revwalk_push_glob(walker, "refs/*"), "walk refs for commit-graph", displayPath)
        try check(git_commit_graph_writer_add_revwalk(writer, walker), "add commits to commit-graph", displayPath)
        var options = git_commit_graph_writer_options()
        try check(git_commit_graph_writer_options_init(&options, UInt32(GIT_COMMIT_GRAPH_WRITER_OPTIONS_VERSION)), "commit-graph options")
        try check(git_commit_graph_writer_commit(writer, &options), "write commit-graph", displayPath)
    }
}
