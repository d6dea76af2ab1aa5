import CGit2
import FolioCore
import FolioGit
import Foundation

/// `folio-bench history` (item figures, `--item-versions N`, default 10,000): the history of one checklist item over N
/// versions — each version changes one of 100 items, the measured one every 10th version — cold (no
/// `.git/folio/item-history`: every version listed by the editor) and warm (read from it), against `git log -L` on the
/// item's line of the same file (one item per line).
func itemHistoryFigures(_ bench: Bench) throws {
    let n = bench.option("--item-versions", default: 10_000)
    let env = bench.environment
    let store = DocumentStore(settings: Settings(sync: .none), environment: env)
    let url = bench.work.appendingPathComponent("item-history")
    let document = try store.create(at: url, contentType: ContentType("org.folio.checklist"), title: "Items")
    let file = document.metadata.primaryFile
    try appendChecklistHistory(to: url, file: file, count: n)
    try store.open(at: url).compact()
    try run("git", ["reset", "-q", "--hard"], cwd: url, env: env)

    let folio = folioExecutablePath
    let item = "50", line = 50 + 3  // items start on line 4 ("{", title, "items": [)
    let cache = url.appendingPathComponent(".git/folio/item-history")
    func folioItemLog() throws {
        let (code, output) = try run(folio, ["log", url.path, "--item", item, "--json"], env: env)
        guard code == 0, output.count > 1000 else { throw POSIXFailure(operation: "folio log --item", path: url.path) }
    }
    let cold = try best(of: 2) {
        try? FileManager.default.removeItem(at: cache)
        try folioItemLog()
    }
    try folioItemLog()  // leave the cache written
    let warm = try best(of: 5) { try folioItemLog() }
    let git = try best(of: 1) { try run("git", ["log", "-L", "\(line),\(line):\(file)", "--format=%h %s"], cwd: url, env: env) }
    bench.record("item history over \(n) versions, warm (folio log --item vs git log -L)", folio: warm * 1000, peer: "git", git * 1000, unit: "ms",
                 higherIsBetter: false, note: "target warm ≤ 1000 ms")
    bench.record("item history over \(n) versions, cold (no cache: every version listed by the editor)", folio: cold * 1000, peer: "git", git * 1000,
                 unit: "ms", higherIsBetter: false, note: "reported")
    bench.reproduceWith("folio log DOC --item \(item) --json; git -C DOC log -L \(line),\(line):\(file) --format='%h %s'")
}

/// Appends `count` versions of a 100-item checklist with raw libgit2: version i toggles item i*37 mod 100, renaming it
/// every 7th time; item 50 (index 49) is changed every 10th version.
private func appendChecklistHistory(to document: URL, file: String, count: Int) throws {
    var repo: OpaquePointer?
    guard git_repository_open(&repo, document.path) == 0 else { throw GitError(operation: "open", message: document.path) }
    defer { git_repository_free(repo) }
    var sig: UnsafeMutablePointer<git_signature>?
    git_signature_now(&sig, "Bench", "bench@example.com")
    defer { git_signature_free(sig) }
    var items = (1...100).map { (title: "Item \($0)", checked: false) }
    var headID = git_oid()
    var parent: OpaquePointer?
    if git_reference_name_to_id(&headID, repo, "HEAD") == 0 { git_commit_lookup(&parent, repo, &headID) }
    for version in 0...count {
        if version > 0 {
            let index = version % 10 == 0 ? 49 : (version * 37) % 100 == 49 ? 50 : (version * 37) % 100
            if version % 7 == 0 { items[index].title = "Item \(index + 1) v\(version)" } else { items[index].checked.toggle() }
        }
        let json = "{\n  \"title\": \"Items\",\n  \"items\": [\n"
            + items.map { "    {\"title\": \"\($0.title)\", \"checked\": \($0.checked)}" }.joined(separator: ",\n") + "\n  ]\n}\n"
        let data = Data(json.utf8)
        var blob = git_oid()
        _ = data.withUnsafeBytes { git_blob_create_from_buffer(&blob, repo, $0.baseAddress, $0.count) }
        var baseTree: OpaquePointer?
        if let parent { git_commit_tree(&baseTree, parent) }
        var builder: OpaquePointer?
        git_treebuilder_new(&builder, repo, baseTree)
        git_tree_free(baseTree)
        git_treebuilder_insert(nil, builder, file, &blob, GIT_FILEMODE_BLOB)
        var treeID = git_oid()
        git_treebuilder_write(&treeID, builder)
        git_treebuilder_free(builder)
        var tree: OpaquePointer?
        git_tree_lookup(&tree, repo, &treeID)
        var commitID = git_oid()
        var parents: [OpaquePointer?] = parent.map { [$0] } ?? []
        parents.withUnsafeMutableBufferPointer { buffer in
            _ = git_commit_create(&commitID, repo, "HEAD", sig, sig, nil, "version \(version)", tree, buffer.count, buffer.baseAddress)
        }
        git_tree_free(tree)
        if let parent { git_commit_free(parent) }
        git_commit_lookup(&parent, repo, &commitID)
    }
    if let parent { git_commit_free(parent) }
}
