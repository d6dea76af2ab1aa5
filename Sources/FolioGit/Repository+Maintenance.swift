import CGit2
import FoundationEssentials
import Glibc

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
    ///
    /// Nothing is judged unreachable here: every loose object goes into the new pack and merged packs are rewritten
    /// whole, so objects of a change not yet referenced survive. Callers serialize packers on a lock of their own.
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

    /// Rewrites the given packs as one (the objects they hold, read from their indexes); an old pack is removed
    /// only once the new one is durable and lists every object of it.
    func merge(packs names: [String]) throws {
        let builder = try PackBuilder(self)
        var contents: [String: [ObjectID]] = [:]
        for name in names {
            guard let ids = packIndexIDs(name) else { continue }  // unreadable: left alone, not merged
            contents[name] = ids
            for id in ids { try builder.insert(id) }
        }
        let written = try builder.writeDurably()
        for (name, ids) in contents where name != written.name && ids.allSatisfy(written.ids.contains) {
            removePack(name)
        }
    }

    /// The object ids listed in a version-2 pack index, nil when it is not one (or is cut short).
    static func objectIDs(inPackIndex data: Data) -> [ObjectID]? {
        let bytes = [UInt8](data)
        guard bytes.count >= 1072, bytes[0] == 0xff, bytes[1] == 0x74, bytes[2] == 0x4f, bytes[3] == 0x63 else { return nil }
        let count = Int(bytes[1028]) << 24 | Int(bytes[1029]) << 16 | Int(bytes[1030]) << 8 | Int(bytes[1031])
        guard bytes.count >= 1072 + 28 * count else { return nil }
        var ids: [ObjectID] = []
        ids.reserveCapacity(count)
        for index in 0..<count {
            let start = 1032 + index * 20
            var oid = git_oid()
            withUnsafeMutableBytes(of: &oid.id) { raw in for i in 0..<20 { raw[i] = bytes[start + i] } }
            ids.append(ObjectID(oid))
        }
        return ids
    }

    /// The ids in pack `name`'s index (`pack-…`), nil when it cannot be read.
    func packIndexIDs(_ name: String) -> [ObjectID]? {
        FileManager.default.contents(atPath: packFolderPath + name + ".idx").flatMap(Self.objectIDs(inPackIndex:))
    }

    var packFolderPath: String { gitDirectoryPath + "objects/pack/" }

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

    /// How long an object nothing reaches is kept by `pack(all: true)`: two weeks, git's `gc.pruneExpire` default.
    /// Objects are written before the ref that names them moves (a change in another process, a fetch, a program
    /// paused in between), and a young object cannot be told apart from one such a writer is about to reference;
    /// two weeks covers any writer that is still alive, at the cost of keeping the rare abandoned object a while.
    public static let pruneGracePeriod: TimeInterval = 14 * 24 * 3600

    /// Packs objects with libgit2's packbuilder and removes the copies the new pack holds.
    ///
    /// Without `all`, only the loose objects are packed (like `git repack -d`) and each is removed once the new
    /// pack is durable and lists it. With `all` (like `git gc`), one new pack receives everything reachable from
    /// `reachabilityRoots()` (all of them read, or nothing happens), plus `extraRoots`, plus every loose object and
    /// the content of every pack modified within `pruneGracePeriod` before `now`. Then loose copies it lists are
    /// removed, as are older loose objects it does not list (proven unreachable); an old pack is removed when the
    /// new one lists all its objects or when it is older than the grace period. Ages are checked again just before
    /// each removal, because libgit2 and git refresh the time of an object they are asked to write again.
    public func pack(all: Bool, extraRoots: [ObjectID] = [], now: Date = Date()) throws {
        let loose = looseObjectIDs()
        if !all {
            guard !loose.isEmpty else { return }
            let builder = try PackBuilder(self)
            for (id, _) in loose { try builder.insert(id) }
            let written = try builder.writeDurably()
            for (id, path) in loose where written.ids.contains(id) { unlink(path) }
            return
        }
        let cutoff = now.addingTimeInterval(-Self.pruneGracePeriod)
        let roots = try reachabilityRoots() + extraRoots.map { ReachabilityRoot(id: $0, source: "crash note", required: false) }
        let oldPacks = packNames()
        let builder = try PackBuilder(self)
        try builder.insertReachable(from: roots)
        for (id, path) in loose where !Self.isOlder(path, than: cutoff) { try builder.insertIfPresent(id) }
        var packContents: [String: [ObjectID]] = [:]
        for name in oldPacks {
            guard let ids = packIndexIDs(name) else { continue }
            packContents[name] = ids
            if !Self.isOlder(packFolderPath + name + ".pack", than: cutoff) { for id in ids { try builder.insertIfPresent(id) } }
        }
        let written = try builder.writeDurably()
        for (id, path) in loose where written.ids.contains(id) || Self.isOlder(path, than: cutoff) { unlink(path) }
        for (name, ids) in packContents where name != written.name {
            guard access(packFolderPath + name + ".keep", F_OK) != 0 else { continue }
            if ids.allSatisfy(written.ids.contains) || Self.isOlder(packFolderPath + name + ".pack", than: cutoff) { removePack(name) }
        }
    }

    /// Removes what killed writers and packers leave behind: partial packs (`objects/pack/pack_git2_*`, `tmp_*`)
    /// and partial loose objects (`objects/tmp_object_git2_*`) older than `age` seconds. Only call it holding the
    /// maintenance lock (no packer is writing then). A loose object is written in milliseconds, so an hour-old
    /// temporary file belongs to no live writer (and a writer that lost one fails; it was never acknowledged).
    public func removeStaleTemporaryFiles(olderThan age: TimeInterval = 3600, now: Date = Date()) {
        let cutoff = now.addingTimeInterval(-age)
        let folders = [(gitDirectoryPath + "objects/", ["tmp_object_git2_", "tmp_obj_"]), (packFolderPath, ["pack_git2_", "tmp_"])]
        for (folder, prefixes) in folders {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where prefixes.contains(where: name.hasPrefix) {
                if Self.isOlder(folder + name, than: cutoff) { unlink(folder + name) }
            }
        }
    }

    /// The packs by name (`pack-…`), each with its index.
    func packNames() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: packFolderPath)) ?? []
        return names.filter { $0.hasPrefix("pack-") && $0.hasSuffix(".idx") }.map { String($0.dropLast(4)) }
    }

    /// Removes a pack: its index first, so that no reader finds an index without its pack.
    private func removePack(_ name: String) {
        for ext in [".idx", ".pack", ".rev", ".bitmap"] { unlink(packFolderPath + name + ext) }
    }

    /// Whether the file at `path` was last modified before `date` (false when it cannot be read: keep it).
    static func isOlder(_ path: String, than date: Date) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        return modified < date.timeIntervalSince1970
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

    /// Writes the commit-graph (`writeCommitGraph()`); call holding Folio's maintenance lock. Every Folio writer of
    /// the commit-graph holds that lock, so a `commit-graph.lock` that outlives a short wait (about a second, for a
    /// git process writing it meanwhile) was left by a killed one: it is removed and the write tried again, so a
    /// packer or `compact` killed mid-write never makes every later `compact` fail (found by the soak benchmark).
    public func writeCommitGraphRemovingStaleLock() throws {
        var pause: useconds_t = 10_000
        for attempt in 0..<8 {
            do { return try writeCommitGraph() } catch let error as GitError where error.isLocked {
                if attempt >= 5 { unlink(gitDirectoryPath + "objects/info/commit-graph.lock") }
                usleep(pause)
                pause *= 2
            }
        }
        try writeCommitGraph()
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

/// One libgit2 packbuilder (owning it), writing packs that are durable before anything relies on them.
final class PackBuilder {
    private let repository: Repository
    private let pointer: OpaquePointer
    private let odb: OpaquePointer

    init(_ repository: Repository) throws {
        self.repository = repository
        var builder: OpaquePointer?
        try check(git_packbuilder_new(&builder, repository.pointer), "start pack", repository.displayPath)
        guard let builder else { throw GitError(operation: "start pack", subject: repository.displayPath, message: "no packbuilder") }
        var odb: OpaquePointer?
        let code = git_repository_odb(&odb, repository.pointer)
        guard code == 0, let odb else {
            git_packbuilder_free(builder)
            try check(code < 0 ? code : -1, "open object database", repository.displayPath)
            throw GitError(operation: "open object database", subject: repository.displayPath, message: "no database")
        }
        self.pointer = builder
        self.odb = odb
        git_packbuilder_set_threads(builder, 1)
    }

    deinit {
        git_packbuilder_free(pointer)
        git_odb_free(odb)
    }

    func insert(_ id: ObjectID) throws {
        try id.withOID { try check(git_packbuilder_insert(pointer, $0, nil), "add object to pack", id.hex) }
    }

    func exists(_ id: ObjectID) -> Bool { id.withOID { git_odb_exists(odb, $0) } == 1 }

    /// Adds `id` if the database still holds it.
    func insertIfPresent(_ id: ObjectID) throws {
        if exists(id) { try insert(id) }
    }

    /// Adds everything reachable from `roots`: commits through a revision walk (their trees and blobs too), tags
    /// peeled one by one, trees and blobs directly. A required root that is missing throws.
    func insertReachable(from roots: [ReachabilityRoot]) throws {
        var walker: OpaquePointer?
        try check(git_revwalk_new(&walker, repository.pointer), "start pack walk", repository.displayPath)
        defer { git_revwalk_free(walker) }
        var pushed = false
        var seen: Set<ObjectID> = []
        for root in roots where seen.insert(root.id).inserted {
            guard exists(root.id) else {
                if root.required {
                    throw MaintenanceError.missingObject(repository: repository.displayPath, reference: root.source, object: root.id.hex)
                }
                continue
            }
            var id = root.id
            for _ in 0..<64 {  // a tag of a tag …, bounded
                guard let type = objectType(id) else {
                    throw MaintenanceError.missingObject(repository: repository.displayPath, reference: root.source, object: id.hex)
                }
                if type == GIT_OBJECT_TAG {
                    try insert(id)
                    id = try tagTarget(id)
                    continue
                }
                if type == GIT_OBJECT_COMMIT {
                    try id.withOID { try check(git_revwalk_push(walker, $0), "walk from \(root.source)", id.hex) }
                    pushed = true
                } else if type == GIT_OBJECT_TREE {
                    try id.withOID { try check(git_packbuilder_insert_tree(pointer, $0), "add tree to pack", id.hex) }
                } else {
                    try insert(id)
                }
                break
            }
        }
        if pushed { try check(git_packbuilder_insert_walk(pointer, walker), "add history to pack", repository.displayPath) }
    }

    private func objectType(_ id: ObjectID) -> git_object_t? {
        var size = 0
        var type = GIT_OBJECT_INVALID
        let code = id.withOID { git_odb_read_header(&size, &type, odb, $0) }
        return code == 0 ? type : nil
    }

    private func tagTarget(_ id: ObjectID) throws -> ObjectID {
        var tag: OpaquePointer?
        try id.withOID { try check(git_tag_lookup(&tag, repository.pointer, $0), "read tag", id.hex) }
        defer { git_tag_free(tag) }
        guard let target = git_tag_target_id(tag) else { throw GitError(operation: "read tag", subject: id.hex, message: "no target") }
        return ObjectID(target)
    }

    /// Writes the pack, fsyncs its files and folder, reads its index back and checks that libgit2 loads it.
    /// Only then may anything the pack holds be removed elsewhere.
    func writeDurably() throws -> (name: String, ids: Set<ObjectID>) {
        let folder = repository.packFolderPath
        let display = repository.displayPath
        try check(git_packbuilder_write(pointer, folder, 0, nil, nil), "write pack", display)
        guard let hash = git_packbuilder_hash(pointer) else {
            throw MaintenanceError.packNotDurable(repository: display, pack: folder, reason: "libgit2 gave no pack name")
        }
        let name = "pack-" + ObjectID(hash).hex
        for path in [folder + name + ".pack", folder + name + ".idx", folder] {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw MaintenanceError.packNotDurable(repository: display, pack: name, reason: "cannot open \(path)") }
            defer { close(fd) }
            guard fsync(fd) == 0 else {
                throw MaintenanceError.packNotDurable(repository: display, pack: name, reason: "fsync \(path): \(String(cString: strerror(errno)))")
            }
        }
        guard let ids = repository.packIndexIDs(name), ids.count == Int(git_packbuilder_object_count(pointer)) else {
            throw MaintenanceError.packNotDurable(repository: display, pack: name, reason: "its index does not list what was written")
        }
        var backend: UnsafeMutablePointer<git_odb_backend>?
        guard git_odb_backend_one_pack(&backend, folder + name + ".idx") == 0, let backend else {
            throw MaintenanceError.packNotDurable(repository: display, pack: name, reason: "libgit2 cannot load its index")
        }
        let loadable = ids.first.map { id in id.withOID { backend.pointee.exists?(backend, $0) } == 1 } ?? true
        backend.pointee.free?(backend)
        guard loadable else { throw MaintenanceError.packNotDurable(repository: display, pack: name, reason: "its objects cannot be found through it") }
        git_odb_refresh(odb)
        return (name, Set(ids))
    }
}
