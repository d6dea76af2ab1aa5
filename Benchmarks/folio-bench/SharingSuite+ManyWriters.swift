import Foundation
import Synchronization

// `sharing --writers N` (issue 32): N clones of one checklist behind `git daemon` on loopback, each under
// `folio sync --watch CLONE --interval 1`; all N writers start at once, each adding `--items` (default 25) items
// `M<i>-<k>`, one `folio edit` each. Measured: the time from the last edit until every clone's checklist holds all
// N × items items exactly once (target ≤ 3 s for N = 8), the pushes refused and retried (the watchers' lines), rounds
// reported offline, and `git fsck --strict` on the bare repository.

/// Runs the many-writers measure with `writers` clones.
func manyWriters(_ bench: Bench, _ lab: SharingLab, writers: Int, items: Int) throws {
    let name = "many"
    try lab.makeSharedChecklist(name)
    let clones = try (1...max(writers, 1)).map { try lab.clone(name, as: "m\($0)", interval: 1) }
    let watchers = try clones.map { clone in
        try lab.startBackground(folioExecutablePath, ["sync", "--watch", clone.path, "--interval", "1"], log: "many-\(clone.lastPathComponent).log")
    }
    defer { for pid in watchers { lab.stop(pid) } }
    try waitUntil("every watcher's first round", timeout: 30) {
        clones.allSatisfy { watchLog(lab, $0).contains("watching 1 document") }
    }
    let started = Date()
    let lastEdits = Mutex<[Date]>([])
    let group = DispatchGroup()
    for (index, clone) in clones.enumerated() {
        DispatchQueue.global().async(group: group) {
            for k in 1...max(items, 1) { _ = lab.run(folioExecutablePath, ["edit", clone.path, "add", "M\(index + 1)-\(k)"]) }
            lastEdits.withLock { $0.append(Date()) }
        }
    }
    group.wait()
    let lastEdit = lastEdits.withLock { $0.max() } ?? Date()
    let expected = Set((1...clones.count).flatMap { i in (1...max(items, 1)).map { "M\(i)-\($0)" } })
    var converged = true
    do {
        try waitUntil("every clone holding all \(expected.count) items exactly once", timeout: 300) {
            clones.allSatisfy { holdsExactlyOnce(expected, titles: workTreeTitles($0)) }
        }
    } catch { converged = false; print("  PROBLEM: \(error)") }
    let convergeTime = Date().timeIntervalSince(lastEdit)
    try reportManyWriters(bench, lab, clones: clones, server: lab.bare(name), expected: expected, converged: converged,
                          convergeTime: convergeTime, writeTime: lastEdit.timeIntervalSince(started), items: items)
}

/// The item titles of a clone's checklist as its work tree holds it (what `folio view` shows); empty when unreadable.
private func workTreeTitles(_ clone: URL) -> [String] {
    guard let data = FileManager.default.contents(atPath: clone.appendingPathComponent("checklist.json").path),
          let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
          let items = object["items"] as? [[String: Any]] else { return [] }
    return items.compactMap { $0["title"] as? String }
}

/// Whether `titles` holds every expected title exactly once.
private func holdsExactlyOnce(_ expected: Set<String>, titles: [String]) -> Bool {
    let ours = titles.filter { $0.hasPrefix("M") && $0.contains("-") }
    return ours.count == expected.count && Set(ours) == expected
}

private func watchLog(_ lab: SharingLab, _ clone: URL) -> String {
    (try? String(contentsOf: lab.logs.appendingPathComponent("many-\(clone.lastPathComponent).log"), encoding: .utf8)) ?? ""
}

/// Pushes refused and retried, as the watchers' lines tell them: "after K lost races" on a push that went through,
/// and a round that lost every race ("syncing again in", each the round's 1 + 5 refusals); rounds reported offline.
private func refusals(_ log: String) -> (retried: Int, offline: Int) {
    var retried = 0, offline = 0
    for line in log.split(separator: "\n") {
        if let range = line.range(of: "(after ") {
            retried += Int(line[range.upperBound...].prefix { $0.isNumber }) ?? 0
        }
        if line.contains("; syncing again in ") { retried += 6 }
        if line.contains(": offline (") { offline += 1 }
    }
    return (retried, offline)
}

private func reportManyWriters(_ bench: Bench, _ lab: SharingLab, clones: [URL], server: URL, expected: Set<String>, converged: Bool,
                               convergeTime: Double, writeTime: Double, items: Int) throws {
    let n = clones.count
    let counts = clones.map { refusals(watchLog(lab, $0)) }
    let retried = counts.map(\.retried).reduce(0, +), offline = counts.map(\.offline).reduce(0, +)
    let serverTitles = try lab.checklistTitles(server)
    let missing = expected.subtracting(serverTitles).count
    let duplicated = Dictionary(grouping: serverTitles.filter(expected.contains), by: { $0 }).filter { $0.value.count > 1 }.count
    let (fsckStatus, fsckOutput) = lab.run("git", ["--git-dir", server.path, "fsck", "--strict", "--no-dangling"])
    print("writers: \(n) clones × \(items) items over git daemon, each under folio sync --watch --interval 1; edits took \(seconds(writeTime)) s; "
          + "converged: \(converged); \(retried) pushes refused and retried, \(offline) rounds offline; server: \(missing) missing, \(duplicated) duplicated")
    if fsckStatus != 0 { print("  PROBLEM: git fsck --strict on the server: \(fsckOutput.prefix(300))") }
    bench.record("\(n) writers × \(items) items: time from the last edit until every clone holds all \(n * items) exactly once", folio: convergeTime,
                 peer: "target", 3, unit: "s", higherIsBetter: false,
                 note: "poll 1 s; \(retried) pushes refused and retried, \(offline) rounds offline" + (converged ? "" : "; did NOT converge within 300 s"))
    bench.record("\(n) writers: rounds reported offline", folio: Double(offline), peer: "target", 0, unit: "rounds", higherIsBetter: false,
                 note: "target 0: \(retried) pushes refused because the remote moved meanwhile were retried at once instead")
    bench.record("\(n) writers: items missing or duplicated on the server, git fsck --strict failures", folio: Double(missing + duplicated + (fsckStatus == 0 ? 0 : 1)),
                 peer: "target", 0, unit: "problems", higherIsBetter: false, note: "target 0")
    bench.reproduceWith("folio-bench sharing --writers \(n): \(n) folio clone of one checklist over git daemon (127.0.0.1), folio sync --watch CLONE --interval 1 in each; "
        + "all at once: folio edit CLONE add M<i>-<k> × \(items); git --git-dir SERVER fsck --strict")
    let problems = missing + duplicated + (fsckStatus == 0 ? 0 : 1) + (converged ? 0 : 1)
    if problems > 0 { throw BenchFailure("\(problems) problems in the \(n) writers' run (run with --keep to inspect \(lab.work.path))") }
}
