import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// A seeded, replayable random-key soak of the real `folio` in tmux: every screen (launcher, picker, forms, the
/// checklist, story and shapes editors, History, the file view, settings, help, the message log) at 60×16, 100×30 and
/// 160×45, the window resized under one running folio. No crash (a quit exits 0), no hang (the soak ends with ^Q and
/// folio must exit 0 within 15 s), every document `git fsck --strict`-clean, and the resident memory of each folio
/// process sampled every 100 keys.
///
/// Short in the suite (400 keys a size). The long one, and its memory figures:
/// `FOLIO_SOAK_KEYS=7000 FOLIO_SOAK_SEED=23 swift test --filter UISoakTests` (7,000 keys a size: 21,000 in all; the
/// RSS growth after warm-up is printed and bounded). The same seed sends the same keys (their timing, and so what
/// arrives during a render or a command, varies).
final class UISoakTests: TmuxTestCase {
    override var session: String { "soak" }
    override var paneShowsTerminalSettings: Bool { false }

    override func setUpWithError() throws {
        try super.setUpWithError()
        // The user's editor exits at once: `e` in the file view and "edit in $EDITOR" come straight back.
        env["EDITOR"] = "true"
        env["VISUAL"] = "true"
    }

    func paneCommand(_ document: URL) -> String {
        // Keys typed after a quit reach the shell: it and its sleep ignore ^C, so the pane stays for the next start.
        "trap '' INT; '\(folioExecutable.path)' open '\(document.path)' --scene soak; echo FOLIO-EXIT=$?; sleep 600"
    }

    /// The pid of the folio the pane's shell runs, if it is running.
    func folioPID() -> Int32? {
        guard let shell = (try? tmux(["list-panes", "-t", "soak:0", "-F", "#{pane_pid}"]))?.stdout
            .trimmingCharacters(in: .whitespacesAndNewlines), let shellPID = Int32(shell) else { return nil }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let name = stat[stat.index(after: stat.firstIndex(of: "(") ?? stat.startIndex)..<close]
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if name == "folio", fields.count > 2, Int32(fields[1]) == shellPID { return pid }
        }
        return nil
    }

    /// Resident memory of `pid` in kB (VmRSS), nil when it is gone.
    func residentKB(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    /// What the pane and its folio are doing, for a failure message.
    func diagnosis() -> String {
        let pane = (try? tmux(["display-message", "-p", "-t", "soak:0", "alternate #{alternate_on} dead #{pane_dead} cmd #{pane_current_command}"]))?.stdout ?? ""
        guard let pid = folioPID() else { return pane + " (no folio process)" }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        let wchan = (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? ""
        return pane + " folio \(pid): \(stat.prefix(80)) wchan \(wchan)"
    }

    /// The exit status the pane printed, nil while folio runs.
    func exitStatus(_ screen: String) -> Int? {
        guard let range = screen.range(of: "FOLIO-EXIT=") else { return nil }
        return Int(screen[range.upperBound...].prefix { $0.isNumber })
    }

    func testGivenSeededRandomKeysOnEveryScreenAtThreeSizesThenNothingCrashesHangsOrCorruptsAndMemoryStaysFlat() throws {
        // Given one document of each editor, and one no editor opens (the file view)
        let seed = UInt64(ProcessInfo.processInfo.environment["FOLIO_SOAK_SEED"] ?? "") ?? 23
        let keysPerSize = Int(ProcessInfo.processInfo.environment["FOLIO_SOAK_KEYS"] ?? "") ?? 400
        var documents: [URL] = []
        for (name, template) in [("list", "checklist/groceries"), ("story", "story/three-act"), ("drawing", "shapes/blank"), ("pkg", "swift/package")] {
            let created = runFolio(["new", name, "--template", template, "--defaults"], environment: env, cwd: docs)
            XCTAssertEqual(created.status, 0, created.stderr)
            documents.append(docs.appendingPathComponent(name))
        }
        var random = SoakRandom(seed: seed)
        var samples: [Int32: [(keys: Int, kb: Int)]] = [:]
        var sent = 0
        let started = try tmux(["new-session", "-d", "-s", "soak", "-x", "60", "-y", "16", "-c", docs.path]
                               + env.sorted { $0.key < $1.key }.flatMap { ["-e", "\($0.key)=\($0.value)"] } + [paneCommand(documents[0])])
        XCTAssertEqual(started.status, 0, started.stderr)
        try tmux(["set-option", "-t", "soak", "remain-on-exit", "on"])
        // When random keys are typed, four at a time, a third of them at each size (the window resized under the
        // running folio; it is restarted with another document only when a key quit it)
        let sizes = [(60, 16), (100, 30), (160, 45)]
        for size in sizes {
            try tmux(["resize-window", "-t", "soak:0", "-x", String(size.0), "-y", String(size.1)])
            var typed = 0
            while typed < keysPerSize {
                let batch = (0..<4).map { _ in random.key() }
                try tmux(["send-keys", "-t", "soak:0"] + batch)
                typed += batch.count; sent += batch.count
                Thread.sleep(forTimeInterval: 0.004)
                guard typed % 100 == 0 else { continue }
                let screen = capture()
                if let status = exitStatus(screen) {
                    // Then a quit is a clean exit, never a crash
                    XCTAssertEqual(status, 0, "seed \(seed), key \(sent) at \(size.0)×\(size.1): folio exited \(status):\n\(screen)")
                    if status != 0 { return }
                    try tmux(["respawn-pane", "-k", "-t", "soak:0", paneCommand(documents[Int(random.next() % UInt64(documents.count))])])
                    Thread.sleep(forTimeInterval: 0.3)
                } else if let pid = folioPID(), let kb = residentKB(pid) {
                    samples[pid, default: []].append((sent, kb))
                }
            }
        }
        // Then ^Q ends it within 15 s with status 0 (no hang)
        for _ in 0..<3 { try tmux(["send-keys", "-t", "soak:0", "C-q"]); Thread.sleep(forTimeInterval: 0.2) }
        let deadline = Date().addingTimeInterval(15)
        var screen = capture()
        while exitStatus(screen) == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.1); screen = capture() }
        XCTAssertEqual(exitStatus(screen), 0, "seed \(seed) after key \(sent): no clean exit after ^Q:\n\(screen)\n\(diagnosis())")
        if exitStatus(screen) != 0 { return }
        // Then every document (those made during the soak too) is fsck-clean
        try assertEveryDocumentIsClean(seed: seed)
        reportAndBoundMemory(samples, seed: seed)
    }

    func assertEveryDocumentIsClean(seed: UInt64) throws {
        let found = FileManager.default.enumerator(at: docs, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        let repositories = found.filter { $0.lastPathComponent == ".git" }.map { $0.deletingLastPathComponent() }
        XCTAssertGreaterThanOrEqual(repositories.count, 4)
        for repository in repositories {
            let fsck = try git(["fsck", "--strict", "--no-progress"], in: repository, environment: env)
            XCTAssertEqual(fsck.status, 0, "seed \(seed): \(repository.path): \(fsck.stderr)")
        }
    }

    /// Prints each long-lived process's RSS after warm-up and at its end, and in a long soak (warm-up of 1,000 keys,
    /// then at least 4,000 more) bounds the growth: under 0.25 MB per 1,000 keys by a least-squares fit (the slowest
    /// creep issue 23 measured; the documents themselves grow as the keys change them).
    func reportAndBoundMemory(_ samples: [Int32: [(keys: Int, kb: Int)]], seed: UInt64) {
        for (pid, series) in samples.sorted(by: { $0.value.count > $1.value.count }) {
            guard let start = series.first?.keys else { continue }
            let warm = series.filter { $0.keys - start >= 1_000 }
            guard warm.count >= 3, let first = warm.first, let last = warm.last else { continue }
            let slope = Self.slopeKBPerKey(warm)
            print(String(format: "soak seed %llu pid %d: RSS %.1f MB after warm-up (key %d), %.1f MB at key %d, peak %.1f MB; fit %.3f MB per 1,000 keys",
                         seed, pid, Double(first.kb) / 1024, first.keys, Double(last.kb) / 1024, last.keys,
                         Double(series.map(\.kb).max() ?? 0) / 1024, slope * 1000 / 1024))
            if last.keys - first.keys >= 4_000 {
                XCTAssertLessThan(slope * 1000 / 1024, 0.25, "seed \(seed) pid \(pid): RSS grows after warm-up: \(warm.map(\.kb))")
            }
        }
    }

    static func slopeKBPerKey(_ points: [(keys: Int, kb: Int)]) -> Double {
        let n = Double(points.count)
        let meanX = points.map { Double($0.keys) }.reduce(0, +) / n, meanY = points.map { Double($0.kb) }.reduce(0, +) / n
        let covariance = points.map { (Double($0.keys) - meanX) * (Double($0.kb) - meanY) }.reduce(0, +)
        let variance = points.map { (Double($0.keys) - meanX) * (Double($0.keys) - meanX) }.reduce(0, +)
        return variance > 0 ? covariance / variance : 0
    }
}

/// SplitMix64: the same seed gives the same keys on every machine.
struct SoakRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A tmux key name: mostly movement, then the screens' letters and control keys; `q` (which quits the
    /// launcher) rarely. Never ^Q: rounds end with it.
    mutating func key() -> String {
        let movement = ["j", "k", "Up", "Down", "PgUp", "PgDn", "Home", "End", "Left", "Right"]
        let letters = ["Enter", "Escape", "Space", "Tab", "BTab", "BSpace", "v", "a", "d", "r", "m", "s", "t", "n", "o", "g", "c",
                       "i", "w", "e", "h", "l", "/", "?", "M", "S", "C", "H", "x", "u", "1", "2", "7", "-", "F1"]
        let control = ["C-g", "C-w", "C-p", "C-z", "C-y", "C-e", "C-a", "C-u", "C-n", "C-c"]
        let roll = next() % 1000
        switch roll {
        case ..<2: return "q"
        case ..<420: return movement[Int(next() % UInt64(movement.count))]
        case ..<880: return letters[Int(next() % UInt64(letters.count))]
        default: return control[Int(next() % UInt64(control.count))]
        }
    }
}
