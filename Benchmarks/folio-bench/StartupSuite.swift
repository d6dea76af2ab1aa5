import Foundation

/// `startup`: how long a short `folio` command takes as a whole process, a `folio` with the Swift runtime and
/// Foundation linked dynamically against one linked with `-static-stdlib` (what Package.swift now builds; plugins run
/// in `folio-plugin-host`, never in `folio`). Keep a dynamic build to compare against, e.g.:
///
///     swift build -c release        # static folio (Package.swift)
///     cp .build/release/folio /tmp/folio-static
///     (build once with the linkerSettings of the folio target removed, and leave that dynamic folio in .build/release)
///     .build/release/folio-bench startup --static /tmp/folio-static [--n 200]
///
/// Without `--static` only the dynamic figures are printed, against the issue's 6 ms for a dynamic Foundation
/// hello-world. The runs alternate between the two binaries so a change in machine load hits both alike; the figure
/// is the median, the minimum is in the note. The static binary is also asked to edit and show a checklist through
/// the bundled Swift plugin (run in `folio-plugin-host` beside it) and must print what the dynamic one prints.
func startupSuite(_ bench: Bench) throws {
    let runs = bench.option("--n", default: 200)
    let dynamic = folioExecutablePath
    // A copy of the static binary beside the bundled plugins, so that it finds them as the dynamic one does.
    let staticBinary = try stringOption(bench, "--static").map { try copyBesidePlugins($0, dynamic: dynamic) }
    defer { if let staticBinary { try? FileManager.default.removeItem(atPath: staticBinary) } }
    let env = bench.environment
    let document = try makeSmallDocument(bench, env: env)

    let commands: [(String, [String])] = [
        ("folio --help", ["--help"]), ("folio log (3 commits)", ["log", document.path]),
        ("folio view (loads the Swift checklist plugin)", ["view", document.path]),
    ]
    for (label, arguments) in commands {
        let binaries = [dynamic] + (staticBinary.map { [$0] } ?? [])
        let samples = try alternate(binaries, arguments: arguments, runs: runs, env: env)
        let dynamicTimes = samples[0]
        if let staticTimes = samples.count > 1 ? samples[1] : nil {
            bench.record("\(label), whole process (static vs dynamic stdlib, median of \(runs))", folio: median(staticTimes), peer: "dynamic",
                         median(dynamicTimes), unit: "ms", higherIsBetter: false,
                         note: String(format: "min %.2f ms static, %.2f ms dynamic", staticTimes.min() ?? 0, dynamicTimes.min() ?? 0))
        } else {
            bench.record("\(label), whole process (dynamic stdlib, median of \(runs))", folio: median(dynamicTimes), peer: "issue's dynamic hello-world", 6,
                         unit: "ms", higherIsBetter: false, note: String(format: "min %.2f ms", dynamicTimes.min() ?? 0))
        }
    }
    try startupHostReady(bench, runs: runs, env: env)
    if let staticBinary {
        bench.record("folio binary size", folio: megabytes(staticBinary), peer: "dynamic", megabytes(dynamic), unit: "MB", higherIsBetter: false)
        try checkPluginsWork(staticBinary: staticBinary, dynamic: dynamic, bench: bench, env: env)
    }
    try startupSizes(bench, env: env)
    bench.reproduceWith("hyperfine -N --warmup 20 -r \(runs) '\(dynamic) --help' 'STATIC --help'  (STATIC: a -static-stdlib folio copied beside the plugins)")
}

/// Copies `binary` into the folder of the dynamic `folio`, where the bundled plugins are.
private func copyBesidePlugins(_ binary: String, dynamic: String) throws -> String {
    let target = URL(fileURLWithPath: dynamic).deletingLastPathComponent().appendingPathComponent("folio-static-bench").path
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

/// Wall time in milliseconds of each run of each binary, the binaries taking turns (after 10 warm-up runs each).
private func alternate(_ binaries: [String], arguments: [String], runs: Int, env: [String: String]) throws -> [[Double]] {
    for binary in binaries { for _ in 0..<10 { try run(binary, arguments, env: env) } }
    var samples = Array(repeating: [Double](), count: binaries.count)
    for _ in 0..<runs {
        for (index, binary) in binaries.enumerated() {
            var status: Int32 = 0
            let seconds = try time { (status, _) = try run(binary, arguments, env: env) }
            guard status == 0 else { throw BenchFailure("\(binary) \(arguments.joined(separator: " ")) exited with \(status)") }
            samples[index].append(seconds * 1000)
        }
    }
    return samples
}

/// The static binary (beside the bundled plugins) edits and shows a checklist exactly as the dynamic one does.
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
    bench.record("static folio edits and views through the Swift checklist plugin (1 = same output as dynamic)", folio: same ? 1 : 0,
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
