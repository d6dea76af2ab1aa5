import CGit2
import FolioCore
import FolioGit
import Foundation

/// 1 KiB of text that differs per change.
func kilobyte(_ i: Int) -> Data {
    var text = "change \(i)\n"
    while text.utf8.count < 1024 { text += "line of the document, revision \(i)\n" }
    return Data(text.utf8.prefix(1024))
}

func changesSuite(_ bench: Bench) throws {
    let n = bench.option("--n", default: 2000)
    let gitN = bench.option("--git-n", default: 200)
    let env = bench.environment

    /// Changes per second, and the seconds spent at the end waiting for background packing to finish.
    func folioRate(_ sync: SyncMode) throws -> (rate: Double, packingTail: Double) {
        let store = DocumentStore(settings: Settings(sync: sync), environment: env)
        let document = try store.create(at: bench.work.appendingPathComponent("folio-\(sync.rawValue)"))
        let count = sync == .full ? min(n, 500) : n
        var tail = 0.0
        let seconds = try time {
            for i in 1...count { try document.write(kilobyte(i), to: "document.txt", message: "change \(i)") }
            tail = time { document.waitForMaintenance() }  // background packing is counted too
        }
        return (Double(count) / seconds, tail)
    }
    let (folioNone, noneTail) = try folioRate(.none)
    let (folioFull, fullTail) = try folioRate(.full)

    // The git CLI doing the same: write the file, git add, git commit.
    let gitRepo = bench.work.appendingPathComponent("git-cli")
    try FileManager.default.createDirectory(at: gitRepo, withIntermediateDirectories: true)
    try run("git", ["init", "-q", "-b", "main"], cwd: gitRepo, env: env)
    let gitSeconds = try time {
        for i in 1...gitN {
            try kilobyte(i).write(to: gitRepo.appendingPathComponent("document.txt"))
            try run("git", ["add", "document.txt"], cwd: gitRepo, env: env)
            try run("git", ["commit", "-q", "-m", "change \(i)"], cwd: gitRepo, env: env)
        }
    }
    let gitRate = Double(gitN) / gitSeconds

    // The limit: a bare libgit2 loop writing the same blob, tree and commit and moving the branch.
    let bareRate = try bareLibgit2Rate(bench.work.appendingPathComponent("bare"), count: n)

    bench.record("changes/s sync=none vs git CLI", folio: folioNone, peer: "git-cli", gitRate, unit: "changes/s", higherIsBetter: true,
                 note: "target ≥ 8× and ≥ 1,000/s; \(n) changes incl. \(Int(noneTail * 1000)) ms waiting for background packing at the end")
    bench.record("changes/s sync=full vs git CLI", folio: folioFull, peer: "git-cli", gitRate, unit: "changes/s", higherIsBetter: true,
                 note: "\(min(n, 500)) changes incl. \(Int(fullTail * 1000)) ms waiting for background packing")
    bench.record("changes/s sync=none vs bare libgit2 loop", folio: folioNone, peer: "libgit2-loop", bareRate, unit: "changes/s", higherIsBetter: true, note: "target ratio ≥ 0.67 (within 1.5×)")
    let acknowledged = Double(n) / (Double(n) / folioNone - noneTail)
    bench.record("changes/s sync=none acknowledged (background packing not waited for) vs bare libgit2 loop", folio: acknowledged,
                 peer: "libgit2-loop", bareRate, unit: "changes/s", higherIsBetter: true, note: "the bare loop packs nothing: it leaves \(3 * n) loose objects")
    bench.reproduceWith("git init -q r && cd r && for i in $(seq \(gitN)); do head -c 1024 /dev/urandom | base64 > document.txt; git add document.txt; git commit -q -m \"change $i\"; done")
}

/// Commits per second of the bare libgit2 loop: blob → tree → commit → ref, no work tree, no fsync.
func bareLibgit2Rate(_ url: URL, count: Int) throws -> Double {
    GitLibrary.ensureInitialized()  // libgit2 fsync is off process-wide
    var repo: OpaquePointer?
    guard git_repository_init(&repo, url.path, 0) == 0 else { throw GitError(operation: "init", message: "bare loop repository") }
    defer { git_repository_free(repo) }
    return Double(count) / time { libgit2CommitLoop(repo, count: count) }
}

/// The bare libgit2 loop: `count` commits on HEAD, each writing a 1 KiB `document.txt` into the previous tree.
func libgit2CommitLoop(_ repo: OpaquePointer?, count: Int) {
    var sig: UnsafeMutablePointer<git_signature>?
    git_signature_now(&sig, "Bench", "bench@example.com")
    defer { git_signature_free(sig) }
    var headID = git_oid()
    var parent: OpaquePointer?
    if git_reference_name_to_id(&headID, repo, "HEAD") == 0 { git_commit_lookup(&parent, repo, &headID) }
    for i in 1...count {
        let data = kilobyte(i)
        var blob = git_oid()
        _ = data.withUnsafeBytes { git_blob_create_from_buffer(&blob, repo, $0.baseAddress, $0.count) }
        var baseTree: OpaquePointer?
        if let parent { git_commit_tree(&baseTree, parent) }
        var builder: OpaquePointer?
        git_treebuilder_new(&builder, repo, baseTree)
        git_tree_free(baseTree)
        git_treebuilder_insert(nil, builder, "document.txt", &blob, GIT_FILEMODE_BLOB)
        var treeID = git_oid()
        git_treebuilder_write(&treeID, builder)
        git_treebuilder_free(builder)
        var tree: OpaquePointer?
        git_tree_lookup(&tree, repo, &treeID)
        var commitID = git_oid()
        var parents: [OpaquePointer?] = parent.map { [$0] } ?? []
        parents.withUnsafeMutableBufferPointer { buffer in
            _ = git_commit_create(&commitID, repo, "HEAD", sig, sig, nil, "change \(i)", tree, buffer.count, buffer.baseAddress)
        }
        git_tree_free(tree)
        if let parent { git_commit_free(parent) }
        git_commit_lookup(&parent, repo, &commitID)
    }
    if let parent { git_commit_free(parent) }
}
