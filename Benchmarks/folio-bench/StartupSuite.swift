import Foundation

/// `startup`: how long a short `folio` command takes as a whole process, against issue 25's targets (`--help` 4 ms,
/// `view` 12 ms) and, for `log`, against `git log -n 50` on the same repository, the two taking turns. With
/// `--old PATH` (another build of `folio`, e.g. an older commit's: `git archive REV | tar -x -C /tmp/old && (cd
/// /tmp/old && swift build -c release --product folio)`) that build takes turns with this one on every command, is
/// copied beside the bundled plugins so it finds them, and must edit and show a checklist exactly as this one does.
/// The figure is the median, the minimum is in the note (runs alternate, so a change in machine load hits all alike).
/// This build is timed from a copy too, as installed: a file written by `cp` (or dpkg) faults in fewer pages than the
/// linker's own output, about 0.5 ms of a short command (Benchmarks/README.md), which would favour the `--old` copy.
func startupSuite(_ bench: Bench) throws {
    let runs = bench.option("--n", default: 200)
    let folio = folioExecutablePath
    let old = try stringOption(bench, "--old").map { try copyBesidePlugins($0, dynamic: folio, as: "folio-static-bench") }
    defer { if let old { try? FileManager.default.removeItem(atPath: old) } }
    let timed = try copyBesidePlugins(folio, dynamic: folio, as: "folio-bench-timed")
    defer { try? FileManager.default.removeItem(atPath: timed) }
    let env = bench.environment
    let document = try makeSmallDocument(bench, env: env)

    let commands: [(label: String, arguments: [String], target: Double?)] = [
        ("folio --help", ["--help"], 4), ("folio log (3 commits)", ["log", document.path], nil),
        ("folio view (loads the Swift checklist plugin)", ["view", document.path], 12),
    ]
    let gitLog = ["/usr/bin/env", "git", "-C", document.path, "log", "-n", "50", "--format=%h %ad %an %s", "--date=format:%Y-%m-%d %H:%M"]
    for command in commands {
        let builds = [timed] + (old.map { [$0] } ?? [])
        let lines = builds.map { [$0] + command.arguments } + (command.target == nil ? [gitLog] : [])
        let samples = try alternate(lines, runs: runs, env: env)
        let other = old == nil ? "" : String(format: "; the --old build: median %.2f, min %.2f ms", median(samples[1]), samples[1].min() ?? 0)
        let note = String(format: "min %.2f ms", samples[0].min() ?? 0) + other
        if let target = command.target {
            bench.record("\(command.label), whole process (median of \(runs))", folio: median(samples[0]), peer: "issue 25 target", target,
                         unit: "ms", higherIsBetter: false, note: note)
        } else if let git = samples.last {
            bench.record("\(command.label), whole process (median of \(runs))", folio: median(samples[0]), peer: "git log -n 50, taking turns",
                         median(git), unit: "ms", higherIsBetter: false, note: note + String(format: "; git min %.2f ms", git.min() ?? 0))
        }
    }
    try startupHostReady(bench, runs: runs, env: env)
    if let old { try checkPluginsWork(staticBinary: old, dynamic: folio, bench: bench, env: env) }
    try startupSizes(bench, env: env)
    bench.reproduceWith("hyperfine -N --warmup 20 -r \(runs) '\(folio) --help' 'OLD --help'  (OLD: the --old build copied beside the plugins)")
}

/// Copies `binary` into the folder of the dynamic `folio`, where the bundled plugins are, as `name`.
private func copyBesidePlugins(_ binary: String, dynamic: String, as name: String) throws -> String {
    let target = URL(fileURLWithPath: dynamic).deletingLastPathComponent().appendingPathComponent(name).path
    try? FileManager.default.removeItem(atPath: target)
    try FileManager.default.copyItem(atPath: binary, toPath: target)
    return target
}

/// A value option such as `--static PATH`.
private func stringOption(_ bench: Bench, _ name: String) -> String? {
    guard let index = bench.arguments.firstIndex(of: name), index + 1 < bench.arguments.count else { return nil }
    return bench.arguments[index + 1]
}

/// A checklist document with three commits.
private func makeSmallDocument(_ bench: Bench, env: [String: String]) throws -> URL {
    let url = bench.work.appendingPathComponent("startup-list")
    for arguments in [["new", url.path, "--type", "org.folio.checklist"], ["edit", url.path, "add", "Milk"], ["edit", url.path, "add", "Eggs"]] {
        let (status, _) = try run(folioExecutablePath, arguments, env: env)
        guard status == 0 else { throw BenchFailure("folio \(arguments.joined(separator: " ")) exited with \(status)") }
    }
    return url
}

/// Wall time in milliseconds of each run of each command line (program and arguments), the lines taking turns
/// (after 10 warm-up runs each).
private func alternate(_ lines: [[String]], runs: Int, env: [String: String]) throws -> [[Double]] {
    for line in lines { for _ in 0..<10 { try run(line[0], Array(line.dropFirst()), env: env) } }
    var samples = Array(repeating: [Double](), count: lines.count)
    for _ in 0..<runs {
        for (index, line) in lines.enumerated() {
            var status: Int32 = 0
            let seconds = try time { (status, _) = try run(line[0], Array(line.dropFirst()), env: env) }
            guard status == 0 else { throw BenchFailure("\(line.joined(separator: " ")) exited with \(status)") }
            samples[index].append(seconds * 1000)
        }
    }
    return samples
}

/// The other build (beside the bundled plugins) edits and shows a checklist exactly as this one does.
private func checkPluginsWork(staticBinary: String, dynamic: String, bench: Bench, env: [String: String]) throws {
    let url = bench.work.appendingPathComponent("startup-plugins")
    var outputs: [String] = []
    for binary in [staticBinary, dynamic] {
        try? FileManager.default.removeItem(at: url)
        for arguments in [["new", url.path, "--type", "org.folio.checklist"], ["edit", url.path, "add", "Bread"], ["edit", url.path, "toggle", "1"]] {
            let (status, _) = try run(binary, arguments, env: env)
            guard status == 0 else { throw BenchFailure("\(binary) \(arguments.joined(separator: " ")) exited with \(status)") }
        }
        outputs.append(String(decoding: try run(binary, ["view", url.path], env: env).1, as: UTF8.self))
    }
    let same = outputs.count == 2 && outputs[0] == outputs[1] && outputs[0].contains("[x] Bread")
    bench.record("the --old build edits and views through the Swift checklist plugin (1 = same output as this one)", folio: same ? 1 : 0,
                 peer: "required", 1, unit: "", higherIsBetter: true)
}


private func megabytes(_ path: String) -> Double {
    var info = stat()
    return stat(path, &info) == 0 ? Double(info.st_size) / 1_000_000 : 0
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
