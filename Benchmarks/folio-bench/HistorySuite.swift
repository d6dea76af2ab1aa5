import CGit2
import FolioCore
import FolioGit
import Foundation

/// Appends `count` commits to a document's branch with raw libgit2 (fast set-up for big histories).
func appendHistory(to document: URL, count: Int) throws {
    var repo: OpaquePointer?
    guard git_repository_open(&repo, document.path) == 0 else { throw GitError(operation: "open", message: document.path) }
    defer { git_repository_free(repo) }
    libgit2CommitLoop(repo, count: count)
}

func historySuite(_ bench: Bench) throws {
    let n = bench.option("--n", default: 100_000)
    let env = bench.environment
    let store = DocumentStore(settings: Settings(sync: .none), environment: env)
    let url = bench.work.appendingPathComponent("history")
    let document = try store.create(at: url)
    try appendHistory(to: url, count: n)
    // Folio packs and writes a commit-graph as it goes; do the same once for the imported history,
    // and give git its own packed, commit-graphed copy for a fair comparison.
    try store.open(at: url).compact()
    _ = document
    try run("git", ["reset", "-q", "--hard"], cwd: url, env: env)
    let gitCopy = bench.work.appendingPathComponent("history-git")
    try run("git", ["clone", "-q", "--no-local", url.path, gitCopy.path], cwd: bench.work, env: env)
    try run("git", ["gc", "-q"], cwd: gitCopy, env: env)
    try run("git", ["commit-graph", "write", "--reachable"], cwd: gitCopy, env: env)

    let folio = folioExecutablePath
    let format = "--format=%h %ad %an %s"
    // First page, in-process (the library call the UI makes) and as processes.
    let opened = try store.open(at: url)
    let pageLibrary = try best(of: 5) { _ = try opened.log(limit: 50) }
    let pageCLI = try best(of: 5) { try run(folio, ["log", url.path, "--limit", "50"], env: env) }
    let pageGit = try best(of: 5) { try run("git", ["log", "-n", "50", format, "--date=format:%Y-%m-%d %H:%M"], cwd: gitCopy, env: env) }
    bench.record("log first 50 of \(n) (folio log vs git log -n 50)", folio: pageCLI * 1000, peer: "git", pageGit * 1000, unit: "ms", higherIsBetter: false,
                 note: "library call \(String(format: "%.2f", pageLibrary * 1000)) ms; target < 20 ms")
    bench.reproduceWith("git -C REPO log -n 50 '\(format)' --date='format:%Y-%m-%d %H:%M'")

    let fullCLI = try best(of: 3) { try run(folio, ["log", url.path, "--json"], env: env) }
    let fullGit = try best(of: 3) { try run("git", ["log", "--format=%H%x00%h%x00%aI%x00%an%x00%ae%x00%P%x00%B"], cwd: gitCopy, env: env) }
    bench.record("full log of \(n) (folio log --json vs git log)", folio: fullCLI * 1000, peer: "git", fullGit * 1000, unit: "ms", higherIsBetter: false, note: "target ratio ≥ 1")
    bench.reproduceWith("git -C REPO log --format='%H%x00%h%x00%aI%x00%an%x00%ae%x00%P%x00%B' > /dev/null")
    try oldVersionRenderFigures(bench)
    try itemHistoryFigures(bench)  // ItemHistorySuite.swift
}

func sizeSuite(_ bench: Bench) throws {
    let n = bench.option("--n", default: 10_000)
    let env = bench.environment
    let store = DocumentStore(settings: Settings(sync: .none), environment: env)
    let url = bench.work.appendingPathComponent("size")
    let document = try store.create(at: url)
    for i in 1...n { try document.write(kilobyte(i), to: "document.txt", message: "change \(i)") }
    document.waitForMaintenance()  // measure (and copy) the document once background packing is done
    let folioBytes = diskUsage(url.appendingPathComponent(".git"))
    let gitCopy = bench.work.appendingPathComponent("size-gc")
    try run("cp", ["-a", url.path, gitCopy.path], env: env)
    try run("git", ["gc", "-q", "--prune=now"], cwd: gitCopy, env: env)
    let gcBytes = diskUsage(gitCopy.appendingPathComponent(".git"))
    bench.record("disk after \(n) changes (folio vs same repo after git gc)", folio: Double(folioBytes) / 1e6, peer: "git-gc", Double(gcBytes) / 1e6,
                 unit: "MB", higherIsBetter: false, note: "target ratio ≥ 0.5 (within 2×)")
    bench.reproduceWith("cp -a DOC COPY && git -C COPY gc -q --prune=now && du -sb COPY/.git")
    let walkFolio = try best(of: 3) { try run("git", ["rev-list", "--count", "HEAD"], cwd: url, env: env) }
    let walkGit = try best(of: 3) { try run("git", ["rev-list", "--count", "HEAD"], cwd: gitCopy, env: env) }
    bench.record("git rev-list of \(n) on folio's packing vs git gc's", folio: walkFolio * 1000, peer: "git-gc", walkGit * 1000, unit: "ms", higherIsBetter: false)
    let folioWalk = try best(of: 3) { _ = try store.open(at: url).log() }
    let folioWalkOnGC = try best(of: 3) { _ = try store.open(at: gitCopy).log() }
    bench.record("folio full log on folio's packing vs on git gc's", folio: folioWalk * 1000, peer: "git-gc", folioWalkOnGC * 1000, unit: "ms", higherIsBetter: false)
}
