import CGit2
import FolioGit
import Foundation

/// `fetch`: what the incoming-object check costs. A source with `--n` commits (default 10,000; 200 files in 20
/// folders, each commit changing one file) is fetched whole into an empty repository, through Folio's fetch
/// (quarantine, every new commit and tree checked, objects moved in, refs set) and through a bare libgit2
/// `git_remote_fetch` with the same refspec and no check — the fetch alone. Over a path and over `git daemon` on
/// loopback; runs alternate, best of 5. Then over ssh: OpenSSH against libssh2 and git (`sshFetchComparison`).
func fetchSuite(_ bench: Bench) throws {
    let commits = bench.option("--n", default: 10_000)
    let env = bench.environment
    let source = bench.work.appendingPathComponent("source.git")
    try makeHistory(commits, at: source, env: env)
    try checkedFetchComparison(bench, label: "path", url: source.path, commits: commits)
    let port = UInt16.random(in: 20_000...60_000)
    let daemon = try startDaemon(base: bench.work, port: port, env: env)
    defer { kill(daemon, SIGTERM); var status: Int32 = 0; waitpid(daemon, &status, 0) }
    try checkedFetchComparison(bench, label: "git daemon", url: "git://127.0.0.1:\(port)/source.git", commits: commits)
    try gitFsckComparison(bench, url: "git://127.0.0.1:\(port)/source.git", commits: commits)
    try sshFetchComparison(bench, source: source, commits: commits)
    bench.reproduceWith("the fetch alone: git_remote_fetch(+refs/heads/*:refs/remotes/origin/*) into an empty bare repository "
        + "(FetchSuite.swift: bareFetch); git's own: git init --bare x && git -C x fetch URL '+refs/heads/*:refs/remotes/origin/*'")
}

private func checkedFetchComparison(_ bench: Bench, label: String, url: String, commits: Int) throws {
    var checked: [Double] = []
    var bare: [Double] = []
    for round in 0..<5 {
        let a = bench.work.appendingPathComponent("checked-\(label.hashValue)-\(round)")
        let b = bench.work.appendingPathComponent("bare-\(label.hashValue)-\(round)")
        let repository = try Repository.create(at: a, bare: true)
        try repository.addRemote("origin", url: url)
        checked.append(try time { try repository.fetch("origin", options: TransferOptions(environment: bench.environment), downloadTags: false) })
        bare.append(try time { try bareFetch(url, into: b) })
        try? FileManager.default.removeItem(at: a)
        try? FileManager.default.removeItem(at: b)
    }
    bench.record("fetch \(commits) commits over \(label), checked", folio: checked.min() ?? 0, peer: "fetch alone (libgit2)", bare.min() ?? 0,
                 unit: "s", higherIsBetter: false,
                 note: "medians \(String(format: "%.3f", median(checked))) vs \(String(format: "%.3f", median(bare))) s; the check is target ≤ 1.1×")
}

/// What git's own check costs it on the same fetch: `git fetch` with and without `fetch.fsckObjects`.
private func gitFsckComparison(_ bench: Bench, url: String, commits: Int) throws {
    var checked: [Double] = []
    var plain: [Double] = []
    for round in 0..<5 {
        for fsck in [true, false] {
            let folder = bench.work.appendingPathComponent("git-\(fsck)-\(round)")
            _ = try run("git", ["init", "-q", "--bare", folder.path], env: bench.environment)
            let seconds = try time {
                let args = (fsck ? ["-c", "fetch.fsckObjects=true"] : []) + ["-C", folder.path, "fetch", "-q", url, "+refs/heads/*:refs/remotes/origin/*"]
                guard try run("git", args, env: bench.environment).0 == 0 else { throw BenchFailure("git fetch \(url)") }
            }
            if fsck { checked.append(seconds) } else { plain.append(seconds) }
            try? FileManager.default.removeItem(at: folder)
        }
    }
    bench.record("git's own: fetch \(commits) commits over git daemon with fetch.fsckObjects", folio: checked.min() ?? 0,
                 peer: "git fetch alone", plain.min() ?? 0, unit: "s", higherIsBetter: false, note: "what git's own check costs git, for scale")
    bench.reproduceWith("git init --bare x && git -C x -c fetch.fsckObjects=true fetch URL '+refs/heads/*:refs/remotes/origin/*' (and without -c)")
}

/// The fetch alone: libgit2's fetch into an empty bare repository, nothing checked.
private func bareFetch(_ url: String, into folder: URL) throws {
    var repo: OpaquePointer?
    guard git_repository_init(&repo, folder.path, 1) == 0 else { throw BenchFailure("init \(folder.path)") }
    defer { git_repository_free(repo) }
    var remote: OpaquePointer?
    guard git_remote_create(&remote, repo, "origin", url) == 0 else { throw BenchFailure("remote \(url)") }
    defer { git_remote_free(remote) }
    var options = git_fetch_options()
    git_fetch_options_init(&options, UInt32(GIT_FETCH_OPTIONS_VERSION))
    options.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_AUTO
    guard git_remote_fetch(remote, nil, &options, "fetch") == 0 else {
        throw BenchFailure("fetch \(url): " + (git_error_last().map { String(cString: $0.pointee.message) } ?? "?"))
    }
}

/// A bare repository with `commits` commits made by `git fast-import`: a document description and 200 files in 20
/// folders, each commit changing one file.
private func makeHistory(_ commits: Int, at folder: URL, env: [String: String]) throws {
    guard try run("git", ["init", "-q", "--bare", folder.path], env: env).0 == 0 else { throw BenchFailure("git init") }
    var script = ""
    let description = #"{"format": 1, "contentType": "public.plain-text", "title": "Bench", "primaryFile": "f0/0.txt", "created": "2026-01-01T00:00:00Z"}"#
    for index in 0..<commits {
        let body = index == 0
            ? (0..<200).map { "M 100644 inline f\($0 % 20)/\($0).txt\ndata <<EOF\nfile \($0)\nEOF\n" }.joined()
                + "M 100644 inline .folio/document.json\ndata <<EOF\n\(description)\nEOF\n"
            : "M 100644 inline f\(index % 20)/\(index % 200).txt\ndata <<EOF\nchange \(index)\nEOF\n"
        script += "commit refs/heads/main\ncommitter Bench <bench@example.com> \(1_700_000_000 + index) +0000\ndata <<EOF\nChange \(index)\nEOF\n"
            + body + "\n"
    }
    let file = folder.appendingPathComponent("import.txt")
    try Data(script.utf8).write(to: file)
    guard try run("/bin/sh", ["-c", "git -C \"$0\" fast-import --quiet < \"$1\"", folder.path, file.path], env: env).0 == 0 else {
        throw BenchFailure("git fast-import")
    }
    try? FileManager.default.removeItem(at: file)
    _ = try run("git", ["-C", folder.path, "repack", "-adq"], env: env)
}

/// Starts `git daemon` on loopback serving `base` (pushes too with `pushes`; its messages into `log` when given), and
/// waits until it answers.
func startDaemon(base: URL, port: UInt16, env: [String: String], pushes: Bool = false, log: String? = nil) throws -> pid_t {
    let args = ["git", "daemon", "--listen=127.0.0.1", "--port=\(port)", "--export-all", "--reuseaddr"]
        + (pushes ? ["--enable=receive-pack"] : []) + ["--base-path=\(base.path)", base.path]
    let argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let log {
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
    }
    var pid: pid_t = 0
    guard posix_spawnp(&pid, "git", &actions, nil, argv, envp) == 0 else { throw BenchFailure("git daemon") }
    for _ in 0..<100 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        close(fd)
        if connected == 0 { return pid }
        usleep(50_000)
    }
    throw BenchFailure("git daemon did not start on port \(port)")
}
