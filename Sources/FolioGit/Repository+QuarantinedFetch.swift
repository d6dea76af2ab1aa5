import CGit2
import FoundationEssentials
import FolioBasics
import Dispatch
import Glibc
import Synchronization

/// What a fetch accepts beyond git's object rules, which always apply.
public struct IncomingRules: Sendable {
    /// Names refused in every new tree beyond git's rules (Folio's temporary files).
    public var reserved: ReservedNamePrefixes?
    /// Called for every branch (`refs/heads/*`, `refs/remotes/*`) the fetch moves, with the commit it would name and a
    /// handle on the incoming objects; throws a `GitObjectProblem` to refuse (a document's own description file).
    public var branchTip: (@Sendable (_ ref: String, _ commit: ObjectID, _ objects: Repository) throws -> Void)?
    /// The most bytes one incoming file (blob) may have; a larger one is refused (`GitObjectProblem.blobTooLarge`),
    /// its size read from the object's header, never by reading the file.
    public var largestBlob: Int
    /// Whether every new or changed symbolic link must stay inside its tree: relative, never climbing past the root
    /// (`GitObjectRules.linkProblem`); a link that leaves is refused (`GitObjectProblem.linkLeavesTree`).
    public var linksStayInside: Bool

    /// Folio's default `largestBlob`: 1 GiB.
    public static let defaultLargestBlob = 1 << 30

    public init(reserved: ReservedNamePrefixes? = nil,
                branchTip: (@Sendable (_ ref: String, _ commit: ObjectID, _ objects: Repository) throws -> Void)? = nil,
                largestBlob: Int = IncomingRules.defaultLargestBlob, linksStayInside: Bool = false) {
        self.reserved = reserved
        self.branchTip = branchTip
        self.largestBlob = largestBlob
        self.linksStayInside = linksStayInside
    }
}

/// A fetch refused because of what arrived: where from, and the object and rule. Nothing was kept: refs, objects,
/// work tree and index are as they were.
public struct IncomingRefused: Error, Sendable, Equatable, CustomStringConvertible {
    /// The remote's name or URL.
    public let source: String
    /// The ref that would have moved (`refs/remotes/origin/main`).
    public let ref: String
    public let refused: RefusedObject

    public init(source: String, ref: String, refused: RefusedObject) {
        self.source = source
        self.ref = ref
        self.refused = refused
    }

    public var description: String { "\(source): refused \(ref) at \(refused); nothing was fetched" }
}

/// A bare repository inside the receiving one (`<git dir>/folio/incoming-PID-HEX`) that borrows its objects through
/// `objects/info/alternates` and starts with copies of its refs, so a fetch into it negotiates as the real one would
/// and writes nothing there: what arrives is checked in it, then its objects move over and the refs follow. A
/// refused fetch removes the folder, leaving nothing behind for `git fsck` to find. Like git's receive quarantine.
final class IncomingQuarantine {
    let folder: URL
    let repository: Repository

    init(for target: Repository) throws {
        let parent = URL(fileURLWithPath: target.gitDirectoryPath + "folio", isDirectory: true)
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        Self.removeAbandoned(in: parent)
        folder = parent.appendingPathComponent("incoming-\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))")
        do {
            repository = try Repository.create(at: folder, bare: true)
            let alternates = folder.appendingPathComponent("objects/info/alternates")
            try FileManager.default.createDirectory(at: alternates.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data((target.gitDirectoryPath + "objects\n").utf8).write(to: alternates)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Removes the quarantines of processes that died mid-fetch (their pid no longer runs).
    private static func removeAbandoned(in parent: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        for name in names where name.hasPrefix("incoming-") {
            let parts = name.split(separator: "-")
            guard parts.count == 3, let pid = pid_t(parts[1]), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
        }
    }

    /// Moves the objects that arrived into `target`'s object folder: packs (the index last, as git does, so a pack
    /// is seen only whole) and any loose objects.
    func moveObjects(into target: Repository) throws {
        let fm = FileManager.default
        let from = folder.path + "/objects/"
        let to = target.gitDirectoryPath + "objects/"
        let packs = ((try? fm.contentsOfDirectory(atPath: from + "pack")) ?? []).sorted { order($0) < order($1) }
        for name in packs where order(name) < 3 { try move(from + "pack/" + name, to + "pack/" + name) }
        for folder in (try? fm.contentsOfDirectory(atPath: from)) ?? [] where folder.count == 2 {
            try fm.createDirectory(atPath: to + folder, withIntermediateDirectories: true)
            for name in (try? fm.contentsOfDirectory(atPath: from + folder)) ?? [] {
                try move(from + folder + "/" + name, to + folder + "/" + name)
            }
        }
    }

    private func order(_ name: String) -> Int {
        name.hasSuffix(".pack") ? 0 : name.hasSuffix(".rev") ? 1 : name.hasSuffix(".idx") ? 2 : 3
    }

    private func move(_ source: String, _ destination: String) throws {
        guard Glibc.rename(source, destination) == 0 else {
            throw FileSystemError.errno("keep fetched objects", path: destination)
        }
    }
}

extension Repository {
    /// Fetches from a remote (a configured name, or a URL used anonymously) with its configured refspecs or
    /// `refspecs`, and returns what was transferred.
    ///
    /// This is the one way objects come in from outside. They arrive in an `IncomingQuarantine`, and every new commit,
    /// tree and tag is checked with `GitObjectRules` (and `rules`) before any ref moves or object is kept: a refusal
    /// throws `IncomingRefused` and leaves the repository exactly as it was. An interrupted fetch does the same.
    @discardableResult
    public func fetch(_ nameOrURL: String, refspecs: [String] = [], options: TransferOptions = TransferOptions(),
                      pruning: Bool = false, downloadTags: Bool = true, rules: IncomingRules = IncomingRules()) throws -> TransferProgress {
        let quarantine = try IncomingQuarantine(for: self)
        let incoming = quarantine.repository
        let before = try directReferences()
        for (name, id) in before { try incoming.setReference(name, to: id, logMessage: "quarantine") }
        try copyRemote(nameOrURL, to: incoming)
        let progress = try incoming.fetchIntoThisRepository(nameOrURL, refspecs: refspecs, options: options, pruning: pruning, downloadTags: downloadTags)
        let after = try incoming.directReferences()
        let moved = after.filter { before[$0.key] != $0.value }
        let removed = before.keys.filter { after[$0] == nil }
        try incoming.checkIncoming(moved, known: before, quarantine: quarantine.folder, source: nameOrURL, rules: rules)
        try quarantine.moveObjects(into: self)
        for (name, id) in moved.sorted(by: { $0.key < $1.key }) { try setReference(name, to: id, logMessage: "fetch: \(RemoteURL.redacted(nameOrURL))") }
        for name in removed.sorted() { try deleteReference(name) }
        return progress
    }

    /// Every ref that names an object directly (symbolic refs and refs that cannot be read are left out).
    func directReferences() throws -> [String: ObjectID] {
        var iterator: OpaquePointer?
        try check(git_reference_iterator_new(&iterator, pointer), "list refs", displayPath)
        defer { git_reference_iterator_free(iterator) }
        var result: [String: ObjectID] = [:]
        var ref: OpaquePointer?
        while git_reference_next(&ref, iterator) == 0 {
            defer { git_reference_free(ref) }
            guard git_reference_type(ref) == GIT_REFERENCE_DIRECT, let target = git_reference_target(ref),
                  let name = git_reference_name(ref) else { continue }
            result[String(cString: name)] = ObjectID(target)
        }
        return result
    }

    /// Gives `incoming` the same remote (URL and fetch refspecs) when `name` is one of ours.
    private func copyRemote(_ name: String, to incoming: Repository) throws {
        var remote: OpaquePointer?
        guard git_remote_lookup(&remote, pointer, name) == 0 else { return }
        defer { git_remote_free(remote) }
        // As configured, not as libgit2 rewrote it: the transfer applies the user's insteadOf itself.
        let url = configString("remote.\(name).url") ?? git_remote_url(remote).map { String(cString: $0) } ?? ""
        var specs = git_strarray()
        try check(git_remote_get_fetch_refspecs(&specs, remote), "read refspecs of \(name)", displayPath)
        defer { git_strarray_dispose(&specs) }
        let refspecs = (0..<specs.count).compactMap { specs.strings[$0].map { String(cString: $0) } }
        try incoming.addRemote(name, url: url, fetchRefspec: refspecs.first ?? "+refs/heads/*:refs/remotes/\(name)/*")
        for extra in refspecs.dropFirst() { try check(git_remote_add_fetch(incoming.pointer, name, extra), "add refspec", name) }
    }
}

extension Repository {
    /// Checks what arrived in this (quarantine) repository: every object it holds itself (not those it borrows) with
    /// `GitObjectRules` — trees, commits and tags, each read once, as `git index-pack --strict` does — then what the
    /// `moved` refs name (tags' names, branches naming commits, `rules.branchTip`). On a refusal the new history is
    /// walked to name the commit and path that hold the object.
    fileprivate func checkIncoming(_ moved: [String: ObjectID], known: [String: ObjectID], quarantine: URL, source: String,
                                   rules: IncomingRules) throws {
        let odb = try ObjectDatabase(self)
        let links: Set<ObjectID>
        do {
            links = try checkEveryNewObject(in: quarantine, rules: rules)
        } catch let rejection as NewObjectRejection {
            throw try attribute(rejection, moved: moved, known: known, odb: odb, source: source, rules: rules)
        }
        if rules.linksStayInside, try links.contains(where: { try !Self.staysInsideAnywhere($0, odb: odb) }) {
            try checkNewLinks(moved: moved, known: known, odb: odb, source: source, rules: rules)
        }
        let trees = TreeChecker(odb: odb, reserved: rules.reserved, linksStayInside: rules.linksStayInside)
        for (name, id) in moved.sorted(by: { $0.key < $1.key }) {
            do {
                guard let commit = try peelChecked(id, ref: name, odb: odb, trees: trees) else { continue }
                if let branchTip = rules.branchTip, name.hasPrefix("refs/heads/") || name.hasPrefix("refs/remotes/") {
                    do { try branchTip(name, commit, self) } catch let problem as GitObjectProblem {
                        throw RefusedObject(commit: commit, object: commit, path: nil, problem: problem)
                    }
                }
            } catch let refused as RefusedObject {
                throw IncomingRefused(source: source, ref: name, refused: refused)
            }
        }
    }

    /// Names the commit and path of a refused object by walking the new history from each moved ref (parents first,
    /// each tree from its first parent's; a refused file where a tree first holds it); an object no ref reaches is
    /// named alone.
    private func attribute(_ rejection: NewObjectRejection, moved: [String: ObjectID], known: [String: ObjectID], odb: ObjectDatabase,
                           source: String, rules: IncomingRules) throws -> IncomingRefused {
        let trees = TreeChecker(odb: odb, reserved: rules.reserved, linksStayInside: rules.linksStayInside)
        if rejection.isBlob { trees.refusedBlob = (rejection.object, rejection.rejection.problem) }
        let hidden = try known.values.compactMap { try peeledCommit($0, odb: odb) }
        var walkedTrees: [ObjectID: ObjectID] = [:]
        for (name, id) in moved.sorted(by: { $0.key < $1.key }) {
            do {
                guard let tip = try peelChecked(id, ref: name, odb: odb, trees: trees) else { continue }
                try walkNewCommits(from: tip, hiding: hidden, odb: odb, trees: trees, treeOf: &walkedTrees)
            } catch let refused as RefusedObject {
                return IncomingRefused(source: source, ref: name, refused: refused)
            }
        }
        let ref = moved.keys.sorted().first ?? "a ref"
        return IncomingRefused(source: source, ref: ref, refused: RefusedObject(commit: nil, object: rejection.object, path: rejection.rejection.name,
                                                                               problem: rejection.rejection.problem))
    }

    /// Whether the link target in blob `id` stays inside its tree wherever the link sits: relative, no `..` at all
    /// (`GitObjectRules.linkProblem` at depth 0). Most links are; only the others need the walk that knows depths.
    private static func staysInsideAnywhere(_ id: ObjectID, odb: ObjectDatabase) throws -> Bool {
        try odb.withObject(id) { type, bytes in
            type == GIT_OBJECT_BLOB && GitObjectRules.linkProblem(target: bytes.prefix(GitObjectRules.longestLinkTarget + 1), depth: 0) == nil
        }
    }

    /// Walks the new history of every moved ref with links checked (`rules.linksStayInside`): a link's target is
    /// judged by where it sits, which only a walk from a commit's root knows. Run only when a new tree holds a link
    /// whose target climbs with `..` or leaves in any case.
    private func checkNewLinks(moved: [String: ObjectID], known: [String: ObjectID], odb: ObjectDatabase, source: String,
                               rules: IncomingRules) throws {
        let trees = TreeChecker(odb: odb, reserved: rules.reserved, linksStayInside: true)
        let hidden = try known.values.compactMap { try peeledCommit($0, odb: odb) }
        var walkedTrees: [ObjectID: ObjectID] = [:]
        for (name, id) in moved.sorted(by: { $0.key < $1.key }) {
            do {
                guard let tip = try peelChecked(id, ref: name, odb: odb, trees: trees) else { continue }
                try walkNewCommits(from: tip, hiding: hidden, odb: odb, trees: trees, treeOf: &walkedTrees)
            } catch let refused as RefusedObject {
                throw IncomingRefused(source: source, ref: name, refused: refused)
            }
        }
    }

    /// Reads every object the quarantine at `folder` holds itself (its packs and loose objects, not its alternates)
    /// and applies `GitObjectRules` to trees, commits and tags; a blob's size is read from its header and checked
    /// against `rules.largestBlob`, its bytes never read. Throws `NewObjectRejection` for the first refused; returns
    /// the targets (blobs) of the symbolic links new trees hold. Up to `workers` threads share the objects, each with
    /// object database handles of its own.
    private func checkEveryNewObject(in folder: URL, rules: IncomingRules,
                                     workers: Int = ProcessInfo.processInfo.activeProcessorCount) throws -> Set<ObjectID> {
        let ids = try OwnObjects(folder: folder).ids()
        let workers = max(1, min(workers, 4, ids.count / 2048))
        let failed = Mutex(false)  // set by the first refusal: the other workers stop early
        let links = Mutex<Set<ObjectID>>([])
        _ = try parallelMap(workers) { worker throws in
            do {
                let own = try OwnObjects(folder: folder)
                var index = worker
                while index < ids.count, !failed.withLock({ $0 }) {
                    let id = ids[index]
                    let found = try Self.checkObject(id, in: own, rules: rules)
                    if !found.isEmpty { links.withLock { $0.formUnion(found) } }
                    index += workers
                }
            } catch {
                failed.withLock { $0 = true }
                throw error
            }
        }
        return links.withLock { $0 }
    }

    /// One object: a blob by its size alone, anything else read whole through `GitObjectRules`. Returns the targets
    /// (blobs) of the symbolic links it holds, when it is a tree.
    private static func checkObject(_ id: ObjectID, in own: OwnObjects, rules: IncomingRules) throws -> [ObjectID] {
        let header = try own.header(id)
        guard header.type == GIT_OBJECT_BLOB else {
            return try own.withObject(id) { type, bytes in try checkObject(id, type: type, bytes: bytes, reserved: rules.reserved) }
        }
        guard header.size <= rules.largestBlob else {
            throw NewObjectRejection(object: id, rejection: GitObjectRejection(name: nil, problem: .blobTooLarge(size: header.size, limit: rules.largestBlob)),
                                     isBlob: true)
        }
        return []
    }

    /// One object through `GitObjectRules`: trees (and `reserved` names), commits and tags; blobs pass. Returns the
    /// targets (blobs) of the symbolic links a tree holds.
    private static func checkObject(_ id: ObjectID, type: git_object_t, bytes: UnsafeRawBufferPointer, reserved: ReservedNamePrefixes?) throws -> [ObjectID] {
        var links: [ObjectID] = []
        do {
            do throws(GitObjectRejection) {
                switch type {
                case GIT_OBJECT_TREE:
                    try GitObjectRules.checkTree(bytes) { (kind, _, name, idOffset) throws(GitObjectRejection) in
                        if kind == .symlink, let target = ObjectID(rawBytes: Array(bytes[idOffset..<idOffset + 20])) { links.append(target) }
                        if let reserved, reserved.matches(name) {
                            throw GitObjectRejection(name: String(decoding: name, as: UTF8.self), problem: .reservedName(reserved.why))
                        }
                    }
                case GIT_OBJECT_COMMIT: _ = try GitObjectRules.parseCommit(bytes)
                case GIT_OBJECT_TAG: _ = try GitObjectRules.parseTag(bytes)
                default: break
                }
            } catch {
                throw NewObjectRejection(object: id, rejection: error)
            }
        }
        return links
    }

    /// Follows annotated tags (checking each) to the object a ref names: the commit, or nil for a tree or blob (a
    /// tree is checked whole). Branches must name commits.
    private func peelChecked(_ id: ObjectID, ref: String, odb: ObjectDatabase, trees: TreeChecker) throws -> ObjectID? {
        var current = id
        for _ in 0..<8 {
            let next: ObjectID? = try odb.withObject(current) { type, bytes in
                switch type {
                case GIT_OBJECT_COMMIT: return nil
                case GIT_OBJECT_TAG:
                    let tag: (object: String, type: String, name: String)
                    do throws(GitObjectRejection) { tag = try GitObjectRules.parseTag(bytes) } catch {
                        throw RefusedObject(commit: nil, object: current, path: nil, problem: error.problem)
                    }
                    guard git_reference_name_is_valid_bool("refs/tags/" + tag.name) else {
                        throw RefusedObject(commit: nil, object: current, path: nil, problem: .malformedTag("the tag name is not a valid name"))
                    }
                    guard let target = ObjectID(hex: tag.object) else { throw RefusedObject(commit: nil, object: current, path: nil, problem: .malformedTag("a bad object id")) }
                    return target
                default:
                    if ref.hasPrefix("refs/heads/") || ref.hasPrefix("refs/remotes/") {
                        throw RefusedObject(commit: nil, object: current, path: nil, problem: .wrongObjectType(type == GIT_OBJECT_TREE ? "a tree" : "a file"))
                    }
                    if type == GIT_OBJECT_TREE { try trees.check(current, base: nil, commit: nil) }
                    return current
                }
            }
            guard let next else { return current }
            if next == current { return nil }  // a tree or blob, checked
            current = next
        }
        throw RefusedObject(commit: nil, object: id, path: nil, problem: .malformedTag("tags nested too deep"))
    }

    /// The commit an already-trusted ref value names (through tags), nil when it names none.
    private func peeledCommit(_ id: ObjectID, odb: ObjectDatabase) throws -> ObjectID? {
        var object: OpaquePointer?
        guard id.withOID({ git_object_lookup(&object, pointer, $0, GIT_OBJECT_ANY) }) == 0 else { return nil }
        defer { git_object_free(object) }
        var peeled: OpaquePointer?
        guard git_object_peel(&peeled, object, GIT_OBJECT_COMMIT) == 0 else { return nil }
        defer { git_object_free(peeled) }
        return ObjectID(git_object_id(peeled))
    }

    /// Checks every commit reachable from `tip` and not from `hidden`, parents first, each tree from its first
    /// parent's (only what a commit changed is read).
    private func walkNewCommits(from tip: ObjectID, hiding hidden: [ObjectID], odb: ObjectDatabase, trees: TreeChecker,
                                treeOf: inout [ObjectID: ObjectID]) throws {
        var walker: OpaquePointer?
        try check(git_revwalk_new(&walker, pointer), "start history walk", displayPath)
        defer { git_revwalk_free(walker) }
        try check(git_revwalk_sorting(walker, GIT_SORT_TOPOLOGICAL.rawValue | GIT_SORT_REVERSE.rawValue), "sort history walk", displayPath)
        try tip.withOID { try check(git_revwalk_push(walker, $0), "walk from", tip.hex) }
        for id in hidden { _ = id.withOID { git_revwalk_hide(walker, $0) } }
        var oid = git_oid()
        while true {
            let code = git_revwalk_next(&oid, walker)
            if code == GIT_ITEROVER.rawValue { return }
            try check(code, "walk fetched history", displayPath)
            let commit = ObjectID(oid)
            if treeOf[commit] != nil { continue }
            let (tree, parents) = try parsedCommit(commit, odb: odb)
            let base = try parents.first.flatMap { parent in try treeOf[parent] ?? (try? parsedCommit(parent, odb: odb))?.tree }
            try trees.check(tree, base: base, commit: commit)
            treeOf[commit] = tree
        }
    }

    private func parsedCommit(_ id: ObjectID, odb: ObjectDatabase) throws -> (tree: ObjectID, parents: [ObjectID]) {
        try odb.withObject(id) { type, bytes in
            guard type == GIT_OBJECT_COMMIT else { throw RefusedObject(commit: id, object: id, path: nil, problem: .malformedCommit("not a commit")) }
            do throws(GitObjectRejection) {
                let header = try GitObjectRules.parseCommit(bytes)
                guard let tree = ObjectID(hex: header.tree) else { throw GitObjectRejection(name: nil, problem: .malformedCommit("a bad tree id")) }
                return (tree, header.parents.compactMap(ObjectID.init(hex:)))
            } catch {
                throw RefusedObject(commit: id, object: id, path: nil, problem: error.problem)
            }
        }
    }
}

/// A new object refused by `GitObjectRules`, before the walk names its commit and path.
private struct NewObjectRejection: Error {
    let object: ObjectID
    let rejection: GitObjectRejection
    /// Whether the object is a file (blob), found in a tree by its id rather than by a tree's own problem.
    var isBlob = false
}

/// The objects a quarantine holds itself: an object database over its own packs and loose objects only. Objects are
/// read straight from its backends, past the object database's cache (each is read once: caching costs a lock and
/// a copy per object for nothing).
private final class OwnObjects {
    let odb: ObjectDatabase
    /// The backends, owned by `odb`, packs first.
    private var backends: [UnsafeMutablePointer<git_odb_backend>] = []

    init(folder: URL) throws {
        var handle: OpaquePointer?
        try check(git_odb_new(&handle), "open object database", folder.path)
        guard let handle else { throw GitError(operation: "open object database", subject: folder.path, message: "no handle") }
        odb = ObjectDatabase(owning: handle)
        let objects = folder.path + "/objects"
        var loose: UnsafeMutablePointer<git_odb_backend>?
        try check(git_odb_backend_loose(&loose, objects, -1, 0, 0, 0), "read loose objects", objects)
        try check(git_odb_add_backend(handle, loose, 1), "read loose objects", objects)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: objects + "/pack")) ?? [] where name.hasSuffix(".idx") {
            var pack: UnsafeMutablePointer<git_odb_backend>?
            try check(git_odb_backend_one_pack(&pack, objects + "/pack/" + name), "read pack", name)
            try check(git_odb_add_backend(handle, pack, 2), "read pack", name)
            if let pack { backends.append(pack) }
        }
        if let loose { backends.append(loose) }
    }

    /// Calls `body` with an object's type and bytes, read from the first backend that has it.
    func withObject<R>(_ id: ObjectID, _ body: (git_object_t, UnsafeRawBufferPointer) throws -> R) throws -> R {
        var oid = id.oid
        for backend in backends {
            guard let read = backend.pointee.read else { continue }
            var data: UnsafeMutableRawPointer?
            var size = 0
            var type = GIT_OBJECT_INVALID
            let code = read(&data, &size, &type, backend, &oid)
            if code == GIT_ENOTFOUND.rawValue { continue }
            try check(code, "read object", id.hex)
            defer { git_odb_backend_data_free(backend, data) }
            return try body(type, UnsafeRawBufferPointer(start: data, count: size))
        }
        return try odb.withObject(id, body)
    }

    /// An object's type and size, from the first backend that has it, read from its header (a packed delta's
    /// header holds the size of the object it makes): the contents are not inflated.
    func header(_ id: ObjectID) throws -> (type: git_object_t, size: Int) {
        var oid = id.oid
        for backend in backends {
            guard let readHeader = backend.pointee.read_header else { continue }
            var size = 0
            var type = GIT_OBJECT_INVALID
            let code = readHeader(&size, &type, backend, &oid)
            if code == GIT_ENOTFOUND.rawValue { continue }
            try check(code, "read object header", id.hex)
            return (type, size)
        }
        var size = 0
        var type = GIT_OBJECT_INVALID
        try check(git_odb_read_header(&size, &type, odb.pointer, &oid), "read object header", id.hex)
        return (type, size)
    }

    /// Every object id, each once.
    func ids() throws -> [ObjectID] {
        final class Collector { var ids: [ObjectID] = [] }
        let collector = Collector()
        try check(git_odb_foreach(odb.pointer, { oid, payload in
            guard let oid, let payload else { return 0 }
            Unmanaged<Collector>.fromOpaque(payload).takeUnretainedValue().ids.append(ObjectID(oid))
            return 0
        }, Unmanaged.passUnretained(collector).toOpaque()), "list fetched objects")
        return Array(Set(collector.ids))
    }
}

private func git_reference_name_is_valid_bool(_ name: String) -> Bool {
    var valid: Int32 = 0
    return git_reference_name_is_valid(&valid, name) == 0 && valid == 1
}
