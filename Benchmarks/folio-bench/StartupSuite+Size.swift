import Foundation

/// `startup`'s size figures: the `folio` binary stripped (as `scripts/package` ships it), and, when run from the
/// repository with `scripts/package` present, the `.deb` it makes from the products beside this benchmark
/// (`--products`, so nothing is rebuilt) and the tree that `.deb` installs (unpacked with `dpkg-deb -x`). Targets from
/// issue 25: `folio` stripped ≤ 25 MB, the `.deb` ≤ 12 MB; the installed tree against the 133 MB the issue measured.
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
    guard FileManager.default.isExecutableFile(atPath: scripts.appendingPathComponent("package").path) else {
        print("  (run from the repository to measure the .deb and the installed tree: scripts/package)")
        return
    }
    guard let deb = try debSize(bench, scripts: scripts, products: products, env: env) else { return }
    try installedSize(bench, deb: deb, env: env)
}

/// The `.deb` that `scripts/package deb --products` makes from the products; its path, nil when none was made.
private func debSize(_ bench: Bench, scripts: URL, products: URL, env: [String: String]) throws -> URL? {
    let output = bench.work.appendingPathComponent("size-deb")
    try? FileManager.default.removeItem(at: output)
    let (status, log) = try run(scripts.appendingPathComponent("package").path, ["deb", "--products", products.path, "--output", output.path], env: env)
    let deb = (try? FileManager.default.contentsOfDirectory(atPath: output.path))?.first { $0.hasSuffix(".deb") }
    guard status == 0, let deb else {
        print("  (scripts/package failed, no .deb size: \(String(decoding: log.suffix(300), as: UTF8.self)))")
        return nil
    }
    let path = output.appendingPathComponent(deb)
    bench.record("size: folio .deb", folio: fileMegabytes(path.path), peer: "issue 25 target", 12, unit: "MB", higherIsBetter: false)
    return path
}

/// The tree the `.deb` installs, unpacked into a fresh folder (bytes of its files, as the figure).
private func installedSize(_ bench: Bench, deb: URL, env: [String: String]) throws {
    let tree = bench.work.appendingPathComponent("size-installed")
    try? FileManager.default.removeItem(at: tree)
    let (status, _) = try run("/usr/bin/env", ["dpkg-deb", "-x", deb.path, tree.path], env: env)
    guard status == 0 else {
        print("  (dpkg-deb -x failed, no installed size)")
        return
    }
    let runtime = fileBytes(under: tree.appendingPathComponent("usr/lib/folio/swift"))
    bench.record("size: installed tree (the .deb unpacked)", folio: Double(fileBytes(under: tree)) / 1_000_000, peer: "issue 25's figure for main", 133,
                 unit: "MB", higherIsBetter: false, note: String(format: "of which the plugins' Swift runtime (usr/lib/folio/swift) %.1f MB", Double(runtime) / 1_000_000))
}

/// The bytes of the regular files under `folder` (links not followed).
private func fileBytes(under folder: URL) -> Int {
    guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return 0 }
    var total = 0
    for case let relative as String in walker {
        var info = stat()
        if lstat(folder.appendingPathComponent(relative).path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { total += Int(info.st_size) }
    }
    return total
}

/// The size of the file at `path` in MB (0 when it cannot be read).
func fileMegabytes(_ path: String) -> Double {
    var info = stat()
    return stat(path, &info) == 0 ? Double(info.st_size) / 1_000_000 : 0
}
