import Foundation
import Synchronization

/// What the three writers did, counted across their threads.
private final class WritersTally: Sendable {
    let writing = Atomic<Bool>(true)
    let kills = Atomic<Int>(0)
    /// The changes `folio edit` acknowledged (exit 0), by title; refusals (a non-zero exit, then retried) by first line.
    let acknowledged = Mutex<[String]>([])
    let refusals = Mutex<[String: Int]>([:])
}

/// Three clones of one checklist, each with a `folio sync --watch` process SIGKILLed at random moments and
/// restarted, while each clone's writer adds `changes` items of its own (`W<i>-<k>`); then they converge.
func threeWriters(_ bench: Bench, _ lab: SharingLab, changes: Int, seed: UInt64) throws {
    try lab.makeSharedChecklist("writers")
    let clones = try (1...3).map { try lab.clone("writers", as: "w\($0)", interval: 1) }
    let server = lab.bare("writers")
    let tally = WritersTally()
    let started = Date()
    let group = DispatchGroup()
    for (index, clone) in clones.enumerated() {
        DispatchQueue.global().async(group: group) { killAndRestart(lab, clone, tally, seed: seed &+ UInt64(index + 1)) }
    }
    let writers = DispatchGroup()
    for (index, clone) in clones.enumerated() {
        DispatchQueue.global().async(group: writers) { write(lab, clone, writer: index + 1, changes: changes, tally) }
    }
    writers.wait()
    let lastChange = Date()
    tally.writing.store(false, ordering: .relaxed)
    group.wait()  // each clone's last watcher keeps running
    var converged = true
    do {
        try waitUntil("the three clones and the server at one version", timeout: 300) {
            let tip = lab.head(server)
            return !tip.isEmpty && clones.allSatisfy { lab.head($0) == tip }
        }
    } catch { converged = false; print("  PROBLEM: \(error)") }
    let convergeTime = Date().timeIntervalSince(lastChange)
    let total = Date().timeIntervalSince(started)
    for pid in watchers(lab, clones) { lab.stop(pid) }
    try reportWriters(bench, lab, clones: clones, server: server, changes: changes, tally: tally,
                      converged: converged, convergeTime: convergeTime, total: total)
}

/// Keeps a `folio sync --watch CLONE --interval 1` running, SIGKILLing it after random waits (0.1-2 s) while the
/// writers write; leaves the last one running.
private func killAndRestart(_ lab: SharingLab, _ clone: URL, _ tally: WritersTally, seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    let log = "writers-watch-\(clone.lastPathComponent).log"
    guard var pid = try? lab.startBackground(folioExecutablePath, ["sync", "--watch", clone.path, "--interval", "1"], log: log) else { return }
    while tally.writing.load(ordering: .relaxed) {
        let until = Date().addingTimeInterval(Double.random(in: 0.1...2, using: &random))
        while Date() < until, tally.writing.load(ordering: .relaxed) { usleep(10_000) }
        guard tally.writing.load(ordering: .relaxed) else { break }
        lab.stop(pid, signal: SIGKILL)
        tally.kills.add(1, ordering: .relaxed)
        guard let next = try? lab.startBackground(folioExecutablePath, ["sync", "--watch", clone.path, "--interval", "1"], log: log) else { return }
        pid = next
    }
    lab.watching.withLock { $0[clone.path] = pid }
}

/// Writer `writer` adds `W<writer>-1` … `W<writer>-<changes>` to its clone, one `folio edit` each; a refused edit is
/// retried (up to 5 times) and counted.
private func write(_ lab: SharingLab, _ clone: URL, writer: Int, changes: Int, _ tally: WritersTally) {
    for k in 1...max(changes, 1) {
        let title = "W\(writer)-\(k)"
        for _ in 0..<5 {
            let (status, output) = lab.run(folioExecutablePath, ["edit", clone.path, "add", title])
            if status == 0 { tally.acknowledged.withLock { $0.append(title) }; break }
            let line = (output.split(separator: "\n").first.map(String.init) ?? "exit \(status)").replacingOccurrences(of: clone.path, with: "CLONE")
            tally.refusals.withLock { $0["exit \(status): \(line)", default: 0] += 1 }
        }
    }
}

private func watchers(_ lab: SharingLab, _ clones: [URL]) -> [pid_t] {
    lab.watching.withLock { state in clones.compactMap { state[$0.path] } }
}

private func reportWriters(_ bench: Bench, _ lab: SharingLab, clones: [URL], server: URL, changes: Int, tally: WritersTally,
                           converged: Bool, convergeTime: Double, total: Double) throws {
    let titles = try lab.checklistTitles(server)
    let present = Set(titles)
    let acknowledged = tally.acknowledged.withLock { $0 }
    let lost = acknowledged.filter { !present.contains($0) }
    let duplicated = Dictionary(grouping: titles.filter { $0.hasPrefix("W") }, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
    let conflicts = clones.map { clone -> Int in
        let output = (try? lab.folio(["conflicts", clone.path, "--json"])) ?? ""
        return ((try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [Any])?.count ?? -1
    }
    let fsckFailures = (clones.map { ($0.lastPathComponent, ["-C", $0.path]) } + [("server", ["--git-dir", server.path])]).compactMap { name, where_ in
        let (status, output) = lab.run("git", where_ + ["fsck", "--strict", "--no-dangling"])
        return status == 0 ? nil : "\(name): \(output.prefix(300))"
    }
    let kills = tally.kills.load(ordering: .relaxed)
    let refusals = tally.refusals.withLock { $0 }
    print("writers: 3 × \(changes) changes, \(acknowledged.count) acknowledged, \(kills) SIGKILLs of folio sync --watch, "
          + "\(refusals.values.reduce(0, +)) edits refused and retried; final document \(titles.count) items; converged: \(converged)")
    for (line, count) in refusals.sorted(by: { $0.value > $1.value }).prefix(5) { print("  refused \(count)×: \(line)") }
    if !lost.isEmpty { print("  PROBLEM: lost \(lost.count): \(lost.prefix(20).joined(separator: ", "))") }
    if !duplicated.isEmpty { print("  PROBLEM: duplicated \(duplicated.count): \(duplicated.prefix(20).joined(separator: ", "))") }
    for failure in fsckFailures { print("  PROBLEM: git fsck --strict \(failure)") }
    bench.record("three writers × \(changes) changes with \(kills) SIGKILLs: changes lost", folio: Double(lost.count), peer: "target", 0,
                 unit: "changes", higherIsBetter: false, note: "target 0; \(acknowledged.count) acknowledged, \(duplicated.count) duplicated")
    bench.record("three writers: conflicts raised", folio: Double(conflicts.reduce(0) { $0 + max($1, 0) }), peer: "target", 0,
                 unit: "conflicts", higherIsBetter: false, note: "target 0; folio conflicts --json per clone: \(conflicts)")
    bench.record("three writers: time to converge after the last change", folio: convergeTime, peer: "poll interval", 1,
                 unit: "s", higherIsBetter: false, note: "the peer is the 1 s poll interval, for scale; total time \(seconds(total)) s"
                     + (converged ? "" : "; did NOT converge within 300 s"))
    bench.record("three writers: git fsck --strict failures (3 clones + server)", folio: Double(fsckFailures.count), peer: "target", 0,
                 unit: "repositories", higherIsBetter: false, note: "target 0")
    bench.reproduceWith("three clones of one checklist over git daemon, each with folio sync --watch CLONE --interval 1 SIGKILLed every 0.1-2 s "
        + "and restarted, while each does folio edit CLONE add W<i>-<k> \(changes) times; git fsck --strict on all")
    let problems = lost.count + duplicated.count + fsckFailures.count + conflicts.filter { $0 != 0 }.count + (converged ? 0 : 1)
    if problems > 0 { throw BenchFailure("\(problems) problems in the three writers' run (run with --keep to inspect \(lab.work.path))") }
}
