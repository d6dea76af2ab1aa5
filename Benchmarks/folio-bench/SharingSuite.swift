import Foundation

// `sharing`: shared documents that keep themselves in sync (issue 21), over `git daemon` on loopback.
// 1. Propagation latency: `folio edit A add "Item K"` while `folio sync --watch A --interval 1` runs, until B's
//    `folio open` window (tmux, continuous sync every 1 s) shows "Item K"; `--n` rounds (default 20), median and
//    p90 against the floor over the same loopback, `git push` from a plain clone + `git fetch` in another.
// 2. Idle CPU of B's window with nothing happening, `--idle` seconds (default 30) at the 30 s and 1 s intervals.
// 3. Three writers × `--changes` (default 200) through one remote while their `folio sync --watch` processes are
//    SIGKILLed at random (`--seed`) and restarted: changes lost, conflicts raised, time to converge, fsck.
// `folio-bench sharing [--n ROUNDS] [--idle SECONDS] [--changes N] [--seed S] [--keep]`.
// `folio-bench sharing --writers N [--items K]` measures only the many writers converging (`SharingSuite+ManyWriters`).

func sharingSuite(_ bench: Bench) throws {
    if bench.option("--writers", default: 0) > 0 {
        let lab = try SharingLab(bench)
        defer { lab.shutDown() }
        return try manyWriters(bench, lab, writers: bench.option("--writers", default: 8), items: bench.option("--items", default: 25))
    }
    let seed = UInt64(bench.option("--seed", default: Int(Date().timeIntervalSince1970) % 1_000_000))
    print("sharing: seed \(seed) (--seed \(seed) repeats the random waits and kills)")
    let lab = try SharingLab(bench)
    defer { lab.shutDown() }
    if lab.tmuxPath != nil {
        let b = try propagationLatency(bench, lab, rounds: bench.option("--n", default: 20), seed: seed)
        try idleCPU(bench, lab, document: b, seconds: bench.option("--idle", default: 30))
    } else {
        print("sharing: tmux is not installed (Debian package tmux): propagation latency and idle CPU not measured")
    }
    try threeWriters(bench, lab, changes: bench.option("--changes", default: 200), seed: seed)
}

// MARK: Propagation latency

/// Runs the latency rounds; returns B (left open in tmux session `b`) for the idle figure.
private func propagationLatency(_ bench: Bench, _ lab: SharingLab, rounds: Int, seed: UInt64) throws -> URL {
    try lab.makeSharedChecklist("latency")
    let a = try lab.clone("latency", as: "a-latency", interval: 1)
    let b = try lab.clone("latency", as: "b-latency", interval: 1)
    let server = lab.bare("latency")
    // A is changed by `folio edit` (another process, as a script or a second window would), kept in sync by a
    // `folio sync --watch` process: A's screen is not measured, and a second editor would only share the 2 cores.
    let watch = try lab.startBackground(folioExecutablePath, ["sync", "--watch", a.path, "--interval", "1"], log: "latency-watch-a.log")
    defer { lab.stop(watch) }
    try lab.openWindow("b", document: b, rows: rounds + 30)
    try lab.waitForScreen("B to open", "b:0", timeout: 20) { $0.contains("(0/13 done)") && $0.contains("synced") }
    let (p1, p2) = try floorClones(lab)

    var random = SeededGenerator(seed: seed)
    var folio: [Double] = [], floor: [Double] = []
    for k in 1...max(rounds, 1) {
        usleep(UInt32(Double.random(in: 0..<1, using: &random) * 1_000_000))  // a random phase against both polls
        let start = DispatchTime.now().uptimeNanoseconds
        try lab.folio(["edit", a.path, "add", "Item \(k)"])
        try lab.waitForScreen("“Item \(k)” on B's screen", "b:0", timeout: 30) { showsItem($0, "Item \(k)") }
        folio.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        try waitUntil("A, B and the server at one version", timeout: 15) {
            let tip = lab.head(server)
            return !tip.isEmpty && lab.head(a) == tip && lab.head(b) == tip
        }
        floor.append(try floorRound(lab, p1, p2, k))
    }
    bench.record("propagation latency, commit in A to B's screen (median of \(folio.count), poll 1 s)", folio: median(folio),
                 peer: "floor: git push + git fetch", median(floor), unit: "s", higherIsBetter: false,
                 note: "target ≤ 2 s; min \(seconds(folio.min() ?? 0)), max \(seconds(folio.max() ?? 0)) s")
    bench.record("propagation latency p90", folio: percentile(folio, 0.9), peer: "floor p90", percentile(floor, 0.9),
                 unit: "s", higherIsBetter: false, note: "target ≤ 2 s for the median")
    bench.reproduceWith("folio sync A --continuous on --interval 1 (and B); folio sync --watch A --interval 1 & folio open B (tmux); "
        + "folio edit A add 'Item K' until B's pane shows it; floor: git -C p1 commit -qam K && git -C p1 push -q && git -C p2 fetch -q (git daemon on 127.0.0.1)")
    return b
}

/// Two plain clones of `floor.git` (the first has pushed one commit).
private func floorClones(_ lab: SharingLab) throws -> (URL, URL) {
    let p1 = lab.doc("floor-p1"), p2 = lab.doc("floor-p2")
    try lab.git(["init", "-q", "--bare", "-b", "main", lab.bare("floor").path])
    try lab.git(["clone", "-q", lab.url("floor"), p1.path])
    try Data("0\n".utf8).write(to: p1.appendingPathComponent("round.txt"))
    try lab.git(["-C", p1.path, "add", "round.txt"])
    try lab.git(["-C", p1.path, "commit", "-qm", "round 0"])
    try lab.git(["-C", p1.path, "push", "-q", "origin", "main"])
    try lab.git(["clone", "-q", lab.url("floor"), p2.path])
    return (p1, p2)
}

/// One floor round: a commit in p1 (not timed), then `git push` from p1 and `git fetch` in p2, timed.
private func floorRound(_ lab: SharingLab, _ p1: URL, _ p2: URL, _ k: Int) throws -> Double {
    try Data("\(k)\n".utf8).write(to: p1.appendingPathComponent("round.txt"))
    try lab.git(["-C", p1.path, "commit", "-qam", "round \(k)"])
    return try time {
        try lab.git(["-C", p1.path, "push", "-q", "origin", "main"])
        try lab.git(["-C", p2.path, "fetch", "-q", "origin"])
    }
}

/// Whether a screen shows `title` as a whole word sequence ("Item 1" is not "Item 12").
private func showsItem(_ screen: String, _ title: String) -> Bool {
    var rest = screen[...]
    while let range = rest.range(of: title) {
        if range.upperBound == rest.endIndex || !rest[range.upperBound].isNumber { return true }
        rest = rest[range.upperBound...]
    }
    return false
}

// MARK: Idle CPU

/// CPU of B's window with nothing happening, at the 30 s interval (the default) and at 1 s.
private func idleCPU(_ bench: Bench, _ lab: SharingLab, document b: URL, seconds: Int) throws {
    for interval in [30, 1] {
        _ = lab.tmux(["kill-session", "-t", "b"])
        try lab.folio(["sync", b.path, "--continuous", "on", "--interval", "\(interval)"])
        try lab.openWindow("b", document: b, rows: 30)
        try lab.waitForScreen("B to open and sync", "b:0", timeout: 20) { $0.contains("synced") }
        sleep(3)  // the first round and the plugin host's start are over
        let pid = try lab.folioProcess("b:0")
        let use = try measureIdle(lab, pid: pid, seconds: max(seconds, 1))
        bench.record("idle CPU of a window with continuous sync on, every \(interval) s", folio: use.main, peer: "target", 0.5, unit: "% of a core",
                     higherIsBetter: false, note: "over \(seconds) s; the peer is the issue's target; \(use.note)")
    }
    _ = lab.tmux(["kill-session", "-t", "b"])
    // For scale: the same window on a document that is not shared (no sync loop rounds, nothing to poll).
    let alone = lab.doc("unshared")
    try lab.folio(["new", alone.path, "--template", "checklist/groceries", "--defaults"])
    try lab.openWindow("u", document: alone, rows: 30)
    try lab.waitForScreen("the unshared document to open", "u:0", timeout: 20) { $0.contains("(0/13 done)") }
    sleep(3)
    let use = try measureIdle(lab, pid: try lab.folioProcess("u:0"), seconds: max(seconds, 1))
    bench.record("idle CPU of a window on a document without a remote (for scale)", folio: use.main, peer: "target", 0.5, unit: "% of a core",
                 higherIsBetter: false, note: "over \(seconds) s; \(use.note)")
    _ = lab.tmux(["kill-session", "-t", "u"])
    bench.reproduceWith("folio sync B --continuous on --interval 30 (then 1); folio open B in tmux; utime+stime of folio from /proc/PID/stat over \(seconds) s")
}

/// What one idle measurement found: percent of one core used by the folio process, its busiest threads (by name),
/// and its children (plugin hosts) together.
private struct IdleUse {
    var main: Double
    var threads: [(name: String, percent: Double)]
    var children: Double
    var childCount: Int

    /// `threads: folio 0.20 %, folio.sync 0.03 %; its 1 plugin host process(es): 0.000 %`.
    var note: String {
        let busiest = threads.filter { $0.percent > 0 }.prefix(4).map { "\($0.name) \(String(format: "%.2f", $0.percent)) %" }
        return "threads: " + (busiest.isEmpty ? "none busy" : busiest.joined(separator: ", ")) + "; "
            + (childCount == 0 ? "no child processes" : "its \(childCount) plugin host process(es): \(String(format: "%.3f", children)) %")
    }
}

/// Percent of one core used over `seconds` by `pid` (and by thread), and (together) by its children.
private func measureIdle(_ lab: SharingLab, pid: pid_t, seconds: Int) throws -> IdleUse {
    let children = lab.run("pgrep", ["-P", "\(pid)"]).output.split(separator: "\n").compactMap { pid_t($0) }
    guard let before = cpuSeconds(pid) else { throw BenchFailure("folio \(pid) is gone") }
    let threadsBefore = threadCPUSeconds(pid)
    let childrenBefore = children.map { cpuSeconds($0) ?? 0 }
    let started = DispatchTime.now().uptimeNanoseconds
    sleep(UInt32(seconds))
    guard let after = cpuSeconds(pid) else { throw BenchFailure("folio \(pid) ended while idle") }
    let threadsAfter = threadCPUSeconds(pid)
    let wall = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    let childrenUsed = zip(children, childrenBefore).map { (cpuSeconds($0.0) ?? $0.1) - $0.1 }.reduce(0, +)
    var byName: [String: Double] = [:]
    for (tid, now) in threadsAfter {
        // Dispatch's global threads are named after their QoS class, cut to 15 bytes ("r-initiated-qos").
        let name = now.name.hasSuffix("qos") || now.name.hasSuffix("overcommit") ? "dispatch worker" : now.name
        byName[name, default: 0] += (now.seconds - (threadsBefore[tid]?.seconds ?? 0)) / wall * 100
    }
    return IdleUse(main: (after - before) / wall * 100, threads: byName.map { ($0.key, $0.value) }.sorted { $0.percent > $1.percent },
                   children: childrenUsed / wall * 100, childCount: children.count)
}

// MARK: Helpers

/// Polls `condition` every 50 ms; throws after `timeout` seconds.
func waitUntil(_ what: String, timeout: Double, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while try !condition() {
        if Date() > deadline { throw BenchFailure("timed out after \(timeout) s waiting for \(what)") }
        usleep(50_000)
    }
}

/// The value below which `fraction` of the values lie (nearest rank).
func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((fraction * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
}

func seconds(_ value: Double) -> String { String(format: "%.2f", value) }
