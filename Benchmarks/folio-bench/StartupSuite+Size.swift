import Foundation

/// `startup`'s size figures: the `folio` binary stripped (as `scripts/package` ships it), and, when run from the
/// repository with `scripts/package` and `scripts/install` present, the `.deb` and the installed tree made from the
/// release products beside this benchmark (`--products`, so nothing is rebuilt). Targets from issue 25: `folio`
/// stripped ≤ 25 MB, the `.deb` ≤ 12 MB; the installed tree against main's 133 MB.
func startupSizes(_ bench: Bench, env: [String: String]) throws {
    let products = URL(fileURLWithPath: folioExecutablePath).deletingLastPathComponent()
    let stripped = bench.work.appendingPathComponent("folio-stripped").path
    try? FileManager.default.removeItem(atPath: stripped)
    let (stripStatus, _) = try run("/usr/bin/env", ["strip", "-o", stripped, folioExecutablePath], env: env)
    if stripStatus == 0 {
        bench.record("size: folio binary, stripped", folio: fileMegabytes(stripped), peer: "issue 25 target", 25, unit: "MB", higherIsBetter: false,
                     note: String(format: "%.1f MB unstripped", fileMegabytes(folioExecutablePath)))
    } else {
        print("  (no `strip`: the stripped size is not measured)")
    }
    let scripts = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("scripts")
    guard FileManager.default.isExecutableFile(atPath: scripts.appendingPathComponent("package").path),
          FileManager.default.isExecutableFile(atPath: scripts.appendingPathComponent("install").path) else {
        print("  (run from the repository to measure the .deb and the installed tree: scripts/package and scripts/install)")
        return
    }
    try debSize(bench, scripts: scripts, products: products, env: env)
    try installedSize(bench, scripts: scripts, products: products, env: env)
}

/// The `.deb` that `scripts/package deb --products` makes from the release products.
private func debSize(_ bench: Bench, scripts: URL, products: URL, env: [String: String]) throws {
    let output = bench.work.appendingPathComponent("size-deb")
    try? FileManager.default.removeItem(at: output)
    let (status, log) = try run(scripts.appendingPathComponent("package").path, ["deb", "--products", products.path, "--output", output.path], env: env)
    let deb = (try? FileManager.default.contentsOfDirectory(atPath: output.path))?.first { $0.hasSuffix(".deb") }
    guard status == 0, let deb else {
        print("  (scripts/package failed, no .deb size: \(String(decoding: log.suffix(300), as: UTF8.self)))")
        return
    }
    bench.record("size: folio .deb", folio: fileMegabytes(output.appendingPathComponent(deb).path), peer: "issue 25 target", 12, unit: "MB", higherIsBetter: false)
}

/// The tree `scripts/install --products` writes under a fresh prefix (disk used, as `du`).
private func installedSize(_ bench: Bench, scripts: URL, products: URL, env: [String: String]) throws {
    let prefix = bench.work.appendingPathComponent("size-installed")
    try? FileManager.default.removeItem(at: prefix)
    let (status, log) = try run(scripts.appendingPathComponent("install").path, ["--products", products.path, "--prefix", prefix.path], env: env)
    guard status == 0 else {
        print("  (scripts/install failed, no installed size: \(String(decoding: log.suffix(300), as: UTF8.self)))")
        return
    }
    let swiftRuntime = diskUsage(prefix.appendingPathComponent("lib/folio/swift"))
    bench.record("size: installed tree (scripts/install --products)", folio: Double(diskUsage(prefix)) / 1_000_000, peer: "main before issue 25", 133,
                 unit: "MB", higherIsBetter: false, note: String(format: "lib/folio/swift %.1f MB", Double(swiftRuntime) / 1_000_000))
}

/// The size of the file at `path` in MB (0 when it cannot be read).
func fileMegabytes(_ path: String) -> Double {
    var info = stat()
    return stat(path, &info) == 0 ? Double(info.st_size) / 1_000_000 : 0
}
