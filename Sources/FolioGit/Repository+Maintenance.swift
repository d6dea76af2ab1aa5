import CGit2
import Foundation

extension Repository {
    /// How many loose objects the repository holds, estimated from four of the 256 fan-out folders (like
    /// `git gc --auto`, which reads one).
    public func estimatedLooseObjects() -> Int {
        var count = 0
        for prefix in ["17", "5c", "a3", "e8"] {
            guard let dir = opendir(gitDirectoryPath + "objects/" + prefix) else { continue }
            while let entry = readdir(dir) {
                if entry.pointee.d_name.0 != 46 /* "." */ { count += 1 }
            }
            closedir(dir)
        }
        return count * 64
    }

    /// The packs with their object counts (read from the size of each version-2 `.idx`: 28 bytes an object
    /// after a 1,072-byte header and trailer), largest first.
    public func packs() -> [(name: String, objects: Int)] {
        let folder = gitDirectory.appendingPathComponent("objects/pack")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".idx") }
        return names.map { name -> (String, Int) in
            var info = stat()
            let size = stat(folder.appendingPathComponent(name).path, &info) == 0 ? Int(info.st_size) : 0
            return (String(name.dropLast(4)), max(0, (size - 1072) / 28))
        }.sorted { $0.1 > $1.1 }
    }

    /// How many packs may sit side by side before `packIncrementally` merges some. git's `gc.autoPackLimit` is 50;
    /// libgit2 and git look in the pack that held the last object first, so a walk through history hardly notices
    /// eight packs, while merging only beyond eight rewrites each object about 2.3 times over a 10,000-change
    /// history instead of 3.6 times beyond four (merging is most of what packing costs).
    public static let packsBeforeMerging = 8

    /// Packs loose objects; once there are more than `packsBeforeMerging` packs, merges them geometrically: a pack
    /// stays only while it holds more than twice the objects of all smaller packs together; the first one that
    /// does not is merged with every smaller one (as `git repack --geometric=2` does). Work stays proportional to
    /// what is new, not to the whole history. Returns whether packs were merged.
    @discardableResult
    public func packIncrementally() throws -> Bool {
        try pack(all: false)
        let packs = packs()
        guard packs.count > Self.packsBeforeMerging else { return false }
        var suffixSums = [Int](repeating: 0, count: packs.count + 1)
        for index in stride(from: packs.count - 1, through: 0, by: -1) { suffixSums[index] = suffixSums[index + 1] + packs[index].objects }
        guard let firstToMerge = packs.indices.first(where: { packs[$0].objects <= 2 * suffixSums[$0 + 1] }),
              packs.count - firstToMerge >= 2 else { return false }
        try merge(packs: packs[firstToMerge...].map(\.name))
        return true
    }

    /// Rewrites the given packs as one (the objects they hold, read from their indexes).
    func merge(packs names: [String]) throws {
        let folder = gitDirectory.appendingPathComponent("objects/pack")
        var builder: OpaquePointer?
        try check(git_packbuilder_new(&builder, pointer), "start pack", displayPath)
        defer { git_packbuilder_free(builder) }
        git_packbuilder_set_threads(builder, 1)
        for name in names {
            guard let index = FileManager.default.contents(atPath: folder.appendingPathComponent(name + ".idx").path) else { continue }
            for id in Self.objectIDs(inPackIndex: index) {
                try id.withOID { try check(git_packbuilder_insert(builder, $0, nil), "add object to pack", id.hex) }
            }
        }
        try check(git_packbuilder_write(builder, folder.path, 0, nil, nil), "write pack", displayPath)
        let newPack = "pack-" + ObjectID(git_packbuilder_hash(builder)).hex
        var odb: OpaquePointer?
        try check(git_repository_odb(&odb, pointer), "open object database", displayPath)
        git_odb_refresh(odb)
        git_odb_free(odb)
        for name in names where name != newPack {
            for ext in [".pack", ".idx", ".rev"] { unlink(folder.appendingPathComponent(name + ext).path) }
        }
    }

    /// The object ids listed in a version-2 pack index.
    static func objectIDs(inPackIndex data: Data) -> [ObjectID] {
        let bytes = [UInt8](data)
        guard bytes.count >= 1072, bytes[0] == 0xff, bytes[1] == 0x74, bytes[2] == 0x4f, bytes[3] == 0x63 else { return [] }
        let count = Int(bytes[1028]) << 24 | Int(bytes[1029]) << 16 | Int(bytes[1030]) << 8 | Int(bytes[1031])
        var ids: [ObjectID] = []
        ids.reserveCapacity(count)
        for index in 0..<count {
            let start = 1032 + index * 20
            guard start + 20 <= bytes.count else { break }
            var oid = git_oid()
            withUnsafeMutableBytes(of: &oid.id) { raw in for i in 0..<20 { raw[i] = bytes[start + i] } }
            ids.append(ObjectID(oid))
        }
        return ids
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
    /// How many commits the commit-graph file lists (the last entry of its OID fan-out), nil without a readable one.
    /// Reads the header, the chunk table and one word, not the whole file (megabytes on a long history).
    public func commitGraphCount() -> Int? {
        let fd = Glibc.open(gitDirectoryPath + "objects/info/commit-graph", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        func read(_ count: Int, at offset: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            return pread(fd, &bytes, count, off_t(offset)) == count ? bytes : nil
        }
        func number(_ bytes: ArraySlice<UInt8>) -> Int { bytes.reduce(0) { $0 << 8 | Int($1) } }
        guard let header = read(8, at: 0), header[0...3].elementsEqual("CGPH".utf8),
              let table = read(12 * Int(header[6]), at: 8) else { return nil }
        for entry in stride(from: 0, to: table.count, by: 12) where table[entry..<(entry + 4)].elementsEqual("OIDF".utf8) {
            let offset = number(table[(entry + 4)..<(entry + 12)])  // a damaged file may say anything
            guard offset >= 0, offset < 1 << 40 else { return nil }
            return read(4, at: offset + 255 * 4).map { number($0[...]) }
        }
        return nil
    }

    /// Whether the commit-graph should be rewritten because the history has outgrown it by a quarter: `commits` is
    /// the number of commits now (an estimate will do). Rewriting at each 25 % of growth keeps git's walks on a
    /// graph that covers most of the history while the total cost of rewrites stays a few times one rewrite.
    public func commitGraphIsStale(commits: Int) -> Bool {
        guard let listed = commitGraphCount() else { return commits >= 256 }
        return commits * 4 > listed * 5
    }

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
