import FolioCore
import Foundation

/// `pull-memory`: the peak memory of `folio pull` bringing in one large file (`--mib N`, default 200; random bytes,
/// so the pack is as large as the file), as a multiple of the file's size. Every pull is a process of its own, its
/// peak taken from `wait4` (`ru_maxrss`: the resident set at its largest, pages of mapped packs included). Over a
/// path, where libgit2's local transport packs the objects in the pulling process as a server would, and over
/// `git daemon` on loopback, the pull alone. The peer is `git pull --ff-only` of the same commit into a plain git
/// clone (the largest of git's processes). With `--old PATH` (another build of `folio`, e.g. an older commit's: `git
/// archive REV | tar -x -C /tmp/old && (cd /tmp/old && swift build -c release --product folio)`) that build pulls
/// the same, taking turns with this one. `--n` rounds (default 3); the figure is the median.
func pullMemorySuite(_ bench: Bench) throws {
    let mib = bench.option("--mib", default: 200), rounds = bench.option("--n", default: 3)
    let env = bench.environment
    let old = pullMemoryOption(bench, "--old")
    let setup = try PullMemorySetup(bench, mib: mib, env: env)
    let port = UInt16.random(in: 20_000...60_000)
    let daemon = try startDaemon(base: setup.base, port: port, env: env)
    defer { kill(daemon, SIGTERM); var status: Int32 = 0; waitpid(daemon, &status, 0) }
    let transports = [("a path", setup.remote.path), ("git daemon", "git://127.0.0.1:\(port)/remote.git")]
    for (label, url) in transports {
        var this: [Double] = [], before: [Double] = [], git: [Double] = []
        for round in 0..<rounds {
            this.append(try setup.folioPull(folioExecutablePath, url: url, name: "this-\(round)"))
            if let old { before.append(try setup.folioPull(old, url: url, name: "old-\(round)")) }
            git.append(try setup.gitPull(url: url, name: "git-\(round)"))
        }
        let oldNote = old == nil ? "" : String(format: "; the --old build: %.2f× (%.0f MiB)", median(before), median(before) * Double(mib))
        bench.record("folio pull of a \(mib) MiB file over \(label), peak RSS ÷ file size", folio: median(this), peer: "git pull --ff-only",
                     median(git), unit: "×", higherIsBetter: false,
                     note: String(format: "%.0f MiB vs %.0f MiB", median(this) * Double(mib), median(git) * Double(mib)) + oldNote)
    }
    bench.reproduceWith("/usr/bin/time -f %M folio pull DOC  (DOC one version behind a remote whose new version adds a \(mib) MiB file); "
        + "git's: /usr/bin/time -f %M git pull --ff-only in a plain clone")
}

/// A remote one version ahead (a `--mib` MiB file of random bytes), a Folio document and a plain git clone one
/// version behind it, copied afresh for every pull.
private struct PullMemorySetup {
    let base: URL
    let remote: URL
    let fileBytes: Int
    private let document: URL
    private let gitClone: URL
    private let env: [String: String]

    init(_ bench: Bench, mib: Int, env: [String: String]) throws {
        self.env = env
        base = bench.work.appendingPathComponent("pull-memory")
        remote = base.appendingPathComponent("remote.git")
        document = base.appendingPathComponent("document")
        gitClone = base.appendingPathComponent("git-clone")
        fileBytes = mib << 20
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        try check("git", ["init", "-q", "--bare", "-b", "main", remote.path])
        let author = base.appendingPathComponent("author")
        try check(folioExecutablePath, ["new", author.path, "--type", "public.plain-text"])
        try check(folioExecutablePath, ["remote", author.path, "add", "origin", remote.path])
        try check(folioExecutablePath, ["push", author.path])
        try check(folioExecutablePath, ["clone", remote.path, document.path])
        try check("git", ["clone", "-q", remote.path, gitClone.path])
        let work = base.appendingPathComponent("work")
        try check("git", ["clone", "-q", remote.path, work.path])
        try check("/bin/sh", ["-c", "head -c \(fileBytes) /dev/urandom > \"$0\"", work.appendingPathComponent("big.bin").path])
        try check("git", ["-C", work.path, "add", "big.bin"])
        try check("git", ["-C", work.path, "commit", "-qm", "A big file"])
        try check("git", ["-C", work.path, "push", "-q", "origin", "main"])
        try? FileManager.default.removeItem(at: work)
    }

    /// `folio pull` by `folio` into a fresh copy of the document pointed at `url`: its peak RSS ÷ the file's size.
    func folioPull(_ folio: String, url: String, name: String) throws -> Double {
        let copy = try fresh(document, name: name, url: url)
        defer { try? FileManager.default.removeItem(at: copy) }
        return try measured([folio, "pull", copy.path], pulled: copy)
    }

    /// `git pull --ff-only` into a fresh copy of the plain clone pointed at `url`: its peak RSS ÷ the file's size.
    func gitPull(url: String, name: String) throws -> Double {
        let copy = try fresh(gitClone, name: name, url: url)
        defer { try? FileManager.default.removeItem(at: copy) }
        return try measured(["git", "-C", copy.path, "pull", "-q", "--ff-only", "origin", "main"], pulled: copy)
    }

    private func fresh(_ template: URL, name: String, url: String) throws -> URL {
        let copy = base.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: template, to: copy)
        try check("git", ["-C", copy.path, "config", "remote.origin.url", url])
        return copy
    }

    /// Runs `words`, checks the file arrived whole in `pulled`, and answers the peak RSS ÷ the file's size.
    private func measured(_ words: [String], pulled: URL) throws -> Double {
        let (status, kib) = try peakResidentKiB(words, env: env)
        guard status == 0 else { throw BenchFailure("\(words.joined(separator: " ")) exited with \(status)") }
        let size = (try? FileManager.default.attributesOfItem(atPath: pulled.appendingPathComponent("big.bin").path)[.size] as? Int) ?? nil
        guard size == fileBytes else { throw BenchFailure("\(words.joined(separator: " ")) did not bring the whole file") }
        return Double(kib) * 1024 / Double(fileBytes)
    }

    private func check(_ program: String, _ args: [String]) throws {
        let (status, _) = try run(program, args, env: env)
        guard status == 0 else { throw BenchFailure("\(program) \(args.joined(separator: " ")) exited with \(status)") }
    }
}

/// Runs a program with its output discarded and answers its exit status and peak resident set in KiB (`wait4`'s
/// `ru_maxrss`, which takes in the children it waited for).
private func peakResidentKiB(_ words: [String], env: [String: String]) throws -> (Int32, Int) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd: Int32 in [1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawnp(&pid, words[0], &actions, nil, argv, envp)
    guard spawned == 0 else { throw POSIXFailure(operation: "spawn", path: words[0], code: spawned) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return (code, usage.ru_maxrss)
}

/// A value option such as `--old PATH`.
private func pullMemoryOption(_ bench: Bench, _ name: String) -> String? {
    guard let index = bench.arguments.firstIndex(of: name), index + 1 < bench.arguments.count else { return nil }
    return bench.arguments[index + 1]
}
