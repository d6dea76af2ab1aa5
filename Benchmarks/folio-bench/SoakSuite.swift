import FolioCore
import Foundation
import Synchronization

// The soak: SIGKILLs at random moments across changes (the release `folio` CLI and long-running library writers that
// pack in the background), checklist edits, undo and compact, four processes at once on one document. Afterwards
// `git fsck --strict` must be clean, the document must open and take a change, its work tree must be clean, and
// every change a process acknowledged before it was killed must be in history with its content.
// `folio-bench soak [--n KILLS]` (default 200).

/// What one slot's process printed and how it ended.
private struct SoakRun {
    enum Kind: String, CaseIterable { case stream, write, edit, undo, compact }
    let kind: Kind
    let stdout: String
    let stderr: String
    let killed: Bool
    let exitCode: Int32?
    let signal: Int32?
}

private struct SoakFailure: Error, CustomStringConvertible { let description: String }

func soakSuite(_ bench: Bench) throws {
    let targetKills = bench.option("--n", default: 200)
    let env = bench.environment
    let doc = bench.work.appendingPathComponent("soak-checklist")
    let items = (1...50).map { "{\"title\": \"Item \($0)\", \"checked\": false}" }.joined(separator: ",\n    ")
    let json = "{\n  \"title\": \"Soak\",\n  \"items\": [\n    \(items)\n  ]\n}\n"
    let metadata = DocumentMetadata(contentType: "org.folio.checklist", title: "Soak", primaryFile: "checklist.json")
    _ = try DocumentStore(settings: Settings(sync: .none), environment: env)
        .create(at: doc, metadata: metadata, files: [DocumentFile(path: "checklist.json", data: Data(json.utf8))], message: "Create Soak")
    let benchPath = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path

    let scratch = bench.work
    let kills = Atomic(0)
    let runs = Mutex<[SoakRun]>([])
    let started = Date()
    // Four slots on threads of their own (concurrentPerform would run only as many as there are cores).
    let group = DispatchGroup()
    for slot in 0..<4 { DispatchQueue.global().async(group: group) {
        var generator = SystemRandomNumberGenerator()
        var serial = 0
        while kills.load(ordering: .relaxed) < targetKills {
            serial += 1
            let kind = soakPick(&generator)
            let label = "s\(slot)n\(serial)"
            let (program, arguments, input, maxDelay): (String, [String], String, Double) = switch kind {
            case .stream: (benchPath, ["soak-writer", doc.path, label], "", 1.5)
            case .write: (folioExecutablePath, ["write", doc.path, "cli-\(slot).txt"], "\(label) content\n", 0.25)
            case .edit: (folioExecutablePath, ["edit", doc.path, "toggle", "1"], "", 0.3)
            case .undo: (folioExecutablePath, ["undo", doc.path], "", 0.25)
            case .compact: (folioExecutablePath, ["compact", doc.path], "", 0.5)
            }
            // Most runs are killed at a random moment; some are left to finish (a library writer never finishes).
            let finish = kind != .stream && Double.random(in: 0...1, using: &generator) >= 0.85
            let delay = finish ? nil : Double.random(in: 0...maxDelay, using: &generator)
            let work = scratch.appendingPathComponent("run-\(label)")
            guard let run = try? soakSpawn(program, arguments, input: input, env: env, files: work, killAfter: delay, kind: kind) else { continue }
            if run.killed { kills.add(1, ordering: .relaxed) }
            runs.withLock { $0.append(run) }
        }
    } }
    group.wait()
    let duration = Date().timeIntervalSince(started)
    try soakVerify(doc: doc, runs: runs.withLock { $0 }, env: env, bench: bench, duration: duration)
}

private func soakPick(_ generator: inout SystemRandomNumberGenerator) -> SoakRun.Kind {
    switch Int.random(in: 0..<100, using: &generator) {
    case ..<35: return .stream
    case ..<60: return .write
    case ..<78: return .edit
    case ..<90: return .undo
    default: return .compact
    }
}

/// Starts `program` with stdout and stderr in files, kills it with SIGKILL after `killAfter` seconds if it still runs.
private func soakSpawn(_ program: String, _ args: [String], input: String, env: [String: String], files: URL, killAfter: Double?,
                       kind: SoakRun.Kind) throws -> SoakRun {
    let inPath = files.path + ".in", outPath = files.path + ".out", errPath = files.path + ".err"
    try Data(input.utf8).write(to: URL(fileURLWithPath: inPath))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, inPath, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let words = [program] + args
    let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, program, &actions, nil, argv, envp)
    guard status == 0 else { throw POSIXFailure(operation: "spawn", path: program, code: status) }
    var exitStatus: Int32 = 0
    var sentKill = false
    let deadline = killAfter.map { Date().addingTimeInterval($0) }
    while true {
        let done = waitpid(pid, &exitStatus, deadline == nil || sentKill ? 0 : WNOHANG)
        if done == pid { break }
        if done < 0 && errno != EINTR { break }
        if let deadline, !sentKill, Date() >= deadline {
            kill(pid, SIGKILL)
            sentKill = true
            continue
        }
        usleep(500)
    }
    let signal: Int32? = (exitStatus & 0x7f) != 0 ? exitStatus & 0x7f : nil
    let read: (String) -> String = { String(decoding: FileManager.default.contents(atPath: $0) ?? Data(), as: UTF8.self) }
    return SoakRun(kind: kind, stdout: read(outPath), stderr: read(errPath), killed: sentKill && signal == SIGKILL,
                   exitCode: signal == nil ? (exitStatus >> 8) & 0xff : nil, signal: signal)
}

private func soakVerify(doc: URL, runs: [SoakRun], env: [String: String], bench: Bench, duration: Double) throws {
    var problems: [String] = []
    // Temporary files the last killed writers left (nobody finished their change yet): the final open removes them.
    let temporariesBefore = soakTemporaries(in: doc)
    // fsck first, before Folio opens (and so repairs) anything.
    let fsck = try soakSpawn("/usr/bin/git", ["-C", doc.path, "fsck", "--strict", "--no-dangling"], input: "", env: env,
                             files: bench.work.appendingPathComponent("fsck"), killAfter: nil, kind: .compact)
    if fsck.exitCode != 0 { problems.append("git fsck --strict: exit \(fsck.exitCode ?? -1): \(fsck.stderr.prefix(2000))") }
    // The document opens, takes a change, and its work tree is then clean.
    let store = DocumentStore(settings: Settings(sync: .none), environment: env)
    let document = try store.open(at: doc)
    try document.write(Data("after the soak\n".utf8), to: "after.txt", message: "After the soak")
    let status = try soakSpawn("/usr/bin/git", ["-C", doc.path, "status", "--porcelain"], input: "", env: env,
                               files: bench.work.appendingPathComponent("status"), killAfter: nil, kind: .compact)
    let statusLines = status.stdout.split(separator: "\n")
    let strayTemporaries = soakTemporaries(in: doc)
    if !strayTemporaries.isEmpty { problems.append("\(strayTemporaries.count) temporary files of killed writers left in the work tree, e.g. \(strayTemporaries[0])") }
    let otherStatus = statusLines.filter { !($0.hasPrefix("?? ") && $0.contains(".folio-tmp-")) }
    if !otherStatus.isEmpty || status.exitCode != 0 { problems.append("git status after a change: \(otherStatus.prefix(10)) \(status.stderr.prefix(500))") }
    let history = try document.log()
    let ids = Set(history.map(\.id))
    let summaries = Dictionary(history.map { ($0.shortID, $0.summary) }, uniquingKeysWith: { first, _ in first })

    var acked: [SoakRun.Kind: Int] = [:]
    var crashes = 0
    var failures: [String: Int] = [:]
    for run in runs {
        if let signal = run.signal, signal != SIGKILL { crashes += 1; problems.append("\(run.kind) died of signal \(signal): \(run.stderr.prefix(300))") }
        if !run.killed, let code = run.exitCode, code != 0 {
            let line = run.stderr.split(separator: "\n").first.map(String.init) ?? "exit \(code)"
            failures[line.replacingOccurrences(of: doc.path, with: "DOC"), default: 0] += 1
        }
        for line in run.stdout.split(separator: "\n") {
            if run.kind == .stream {
                // "ack <id> <label> <i>": the change is in history with its content.
                let words = line.split(separator: " ").map(String.init)
                guard words.count == 4, words[0] == "ack" else { continue }
                acked[.stream, default: 0] += 1
                if !ids.contains(words[1]) { problems.append("lost acknowledged change \(words[1]) (\(words[2]) \(words[3]))"); continue }
                let content = try? document.read(path: "\(words[2]).txt", at: words[1])
                if content != Data("\(words[2]) \(words[3])\n".utf8) { problems.append("wrong content at \(words[1]) for \(words[2]) \(words[3])") }
            } else if line.hasPrefix("["), let close = line.firstIndex(of: "]") {
                // "[short] summary" from `folio write/edit/undo`.
                let short = String(line[line.index(after: line.startIndex)..<close])
                acked[run.kind, default: 0] += 1
                let summary = String(line[line.index(close, offsetBy: 2)...])
                if summaries[short] != summary { problems.append("lost acknowledged \(run.kind) [\(short)] \(summary)") }
            } else if line.hasPrefix("Compacted") {
                acked[.compact, default: 0] += 1
            }
        }
    }
    let kills = runs.filter(\.killed)
    print("soak: \(kills.count) SIGKILLs in \(runs.count) runs over \(String(format: "%.1f", duration)) s, 4 at once")
    for kind in SoakRun.Kind.allCases {
        let ofKind = runs.filter { $0.kind == kind }
        print("  \(kind.rawValue): \(ofKind.count) runs, \(ofKind.filter(\.killed).count) killed, \(acked[kind] ?? 0) acknowledged")
    }
    print("  acknowledged changes checked: \(acked.filter { $0.key != .compact }.values.reduce(0, +)); history now \(history.count) versions")
    for (line, count) in failures.sorted(by: { $0.value > $1.value }) { print("  refused (not killed) \(count)×: \(line)") }
    let packs = (try? FileManager.default.contentsOfDirectory(atPath: doc.path + "/.git/objects/pack"))?.filter { $0.hasSuffix(".pack") }.count ?? 0
    print("  object store afterwards: \(packs) packs; refused runs (not killed): \(failures.values.reduce(0, +))")
    print("  temporary files of killed writers: \(temporariesBefore.count) before the final open, \(strayTemporaries.count) after it")
    print("  git fsck --strict: \(fsck.exitCode == 0 ? "clean" : "FAILED"); crashes: \(crashes); problems: \(problems.count)")
    for problem in problems.prefix(20) { print("  PROBLEM: \(problem)") }
    bench.record("soak: acknowledged changes lost after \(kills.count) SIGKILLs", folio: Double(problems.count), peer: "target", 0,
                 unit: "problems", higherIsBetter: false)
    if !problems.isEmpty { throw SoakFailure(description: "\(problems.count) problems (run with --keep to inspect the document)") }
}

/// The work-tree paths (outside `.git`) whose name starts with Folio's temporary prefix.
private func soakTemporaries(in doc: URL) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: doc.path) else { return [] }
    var found: [String] = []
    while let path = walker.nextObject() as? String {
        if path == ".git" { walker.skipDescendants(); continue }
        if (path as NSString).lastPathComponent.hasPrefix(".folio-tmp-") { found.append(path) }
    }
    return found
}

/// `folio-bench soak-writer DOC LABEL`: changes DOC through the library until killed, printing
/// "ack <id> <LABEL>-<i> <i>" once each change is acknowledged; background packing runs as in `folio`.
func soakWriter(_ arguments: [String]) -> Int32 {
    guard arguments.count >= 3 else { return 2 }
    do {
        let store = DocumentStore(settings: Settings(sync: .none), environment: ProcessInfo.processInfo.environment)
        let document = try store.open(at: URL(fileURLWithPath: arguments[1]))
        let label = arguments[2]
        for i in 1... {
            let file = "\(label)-\(i % 3)"
            guard let commit = try document.write(Data("\(file) \(i)\n".utf8), to: "\(file).txt", message: "\(label) change \(i)") else { continue }
            FileHandle.standardOutput.write(Data("ack \(commit.id.hex) \(file) \(i)\n".utf8))
            if i % 200 == 0 { DocumentMaintenance.waitForAll() }
        }
    } catch {
        FileHandle.standardError.write(Data("soak-writer: \(error)\n".utf8))
        return 1
    }
    return 0
}
