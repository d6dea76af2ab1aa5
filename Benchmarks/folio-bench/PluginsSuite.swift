import FolioCLI
import FolioCore
import Foundation

func milliseconds(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
}

func pluginsSuite(_ bench: Bench) throws {
    let env = bench.environment
    // Discovery and the first load of the checklist editor (a fresh process measures it once).
    let load = try PluginBenchmarks.discoverAndLoad(contentType: "org.folio.checklist", environment: env)
    bench.record("plugin discovery", folio: milliseconds(load.discovery), peer: "target", 20, unit: "ms", higherIsBetter: false)
    bench.record("first load of the checklist plugin (its plugin host started, the plugin loaded and checked)", folio: milliseconds(load.edit.load), peer: "target", 20, unit: "ms", higherIsBetter: false)

    // One edit on a 10,000-item checklist.
    let url = try makeBigChecklist(bench)
    // With the default durability (sync=full: the 450 KB file and the objects are fsynced) and with sync=none.
    for sync in [SyncMode.full, .none] {
        try Settings(sync: sync).save(environment: env)
        var fastest: PluginBenchmarkTimings?
        for i in 0..<5 {
            let t = try PluginBenchmarks.edit(document: url, command: "toggle", arguments: ["\(5000 + i)"], environment: env)
            if fastest == nil || t.total < (fastest?.total ?? .seconds(1000)) { fastest = t }
        }
        if let t = fastest {
            let plugin = milliseconds(t.edit.plugin)
            bench.record("one edit on a 10,000-item checklist, sync=\(sync.rawValue) (discovery + open + toggle + commit)", folio: milliseconds(t.total), peer: "target", 20, unit: "ms", higherIsBetter: false,
                         note: "plugin part \(String(format: "%.2f", plugin)) ms (open \(String(format: "%.2f", milliseconds(t.edit.open))), apply \(String(format: "%.2f", milliseconds(t.edit.apply))), serialize \(String(format: "%.2f", milliseconds(t.edit.serialize)))), commit \(String(format: "%.2f", milliseconds(t.edit.commit))) ms")
        }
    }
    try Settings().save(environment: env)
    let cli = try best(of: 5) { _ = try run(folioExecutablePath, ["edit", url.path, "toggle", "42"], env: env) }
    bench.record("folio edit toggle on a 10,000-item checklist, whole process", folio: cli * 1000, peer: "target", 20, unit: "ms", higherIsBetter: false)
    try isolationFigures(bench, checklist: url)
}

func median(_ durations: [Duration]) -> Double {
    let sorted = durations.map(milliseconds).sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

/// Plugins in their host processes, on the 10,000-item checklist. (Until issue 25 these figures had an in-process
/// peer; plugin code no longer runs in Folio's process, so there is none: the figures stand against their targets.)
func isolationFigures(_ bench: Bench, checklist url: URL) throws {
    let env = bench.environment
    try Settings(sync: .none).save(environment: env)
    defer { try? Settings().save(environment: env) }
    let n = bench.option("--n", default: 21)
    // One editor command on an open document (the host already running), sync=none so the plugin's part shows.
    let warmEdit = median(try PluginBenchmarks.warmEdits(document: url, count: n, environment: env))
    bench.record("one edit on a 10,000-item checklist, host running, sync=none, median", folio: warmEdit,
                 peer: "target", 20, unit: "ms", higherIsBetter: false)
    // The same edit with a new plugin registry: it starts the host process.
    var cold: [Duration] = []
    for i in 0..<5 {
        cold.append(try PluginBenchmarks.edit(document: url, command: "toggle", arguments: ["\(100 + i)"], environment: env).total)
    }
    bench.record("one edit with a new plugin host (discovery + host start + open + toggle + commit), median", folio: median(cold),
                 peer: "target", 20, unit: "ms", higherIsBetter: false)
    let frames = try PluginBenchmarks.frames(document: url, count: 200, environment: env)
    bench.record("editor frame on a 10,000-item checklist (cursor moving), median", folio: median(frames),
                 peer: "target", 2, unit: "ms", higherIsBetter: false)
    // A fresh host: `folio-plugin-host` spawned, handshaken, the plugin loaded (lazily bound) and checked against its
    // manifest.
    let ready = try PluginBenchmarks.hostReady(editor: "checklist", count: n, environment: env)
    let readyC = try PluginBenchmarks.hostReady(editor: "shapes", count: n, environment: env)
    bench.record("a fresh plugin host ready (folio-plugin-host spawned, checklist plugin loaded and checked), median of \(n)", folio: median(ready),
                 peer: "target", 15, unit: "ms", higherIsBetter: false,
                 note: String(format: "min %.1f ms; the C shapes plugin (no Swift runtime, Foundation or ICU to load): median %.1f, min %.1f ms",
                              minimum(ready), median(readyC), minimum(readyC)))
    // Confinement (Landlock, seccomp, no-new-privs, own session) against a host started unconfined, taking turns.
    let cost = try PluginBenchmarks.confinementCost(document: url, count: n, environment: env)
    bench.record("host ready + one edit + one render on a 10,000-item checklist, sync=none, median of \(n): confined vs unconfined host",
                 folio: median(cost.confined), peer: "unconfined", median(cost.unconfined), unit: "ms", higherIsBetter: false,
                 note: String(format: "target within 5%%; min %.1f confined, %.1f unconfined ms", minimum(cost.confined), minimum(cost.unconfined)))
    let recovery = try PluginBenchmarks.recovery(document: url, count: 7, environment: env)
    let recoveryStandby = try PluginBenchmarks.recovery(document: url, count: 7, environment: env, standby: true)
    bench.record("recovery after a crash (report + host + 10,000-item document reopened + frame), median: standby host kept vs fresh host started at the crash",
                 folio: median(recoveryStandby), peer: "fresh", median(recovery), unit: "ms", higherIsBetter: false,
                 note: String(format: "target < 100 ms; min %.1f ms with standby, %.1f ms fresh", minimum(recoveryStandby), minimum(recovery)))
}

func minimum(_ durations: [Duration]) -> Double { durations.map(milliseconds).min() ?? 0 }

/// A checklist document of 10,000 items in the bench's scratch folder.
func makeBigChecklist(_ bench: Bench, name: String = "big-checklist") throws -> URL {
    let items = (1...10_000).map { "{\"title\": \"Item \($0)\", \"checked\": false}" }.joined(separator: ",\n    ")
    let json = "{\n  \"title\": \"Big list\",\n  \"items\": [\n    \(items)\n  ]\n}\n"
    let store = DocumentStore(settings: Settings(sync: .none), environment: bench.environment)
    let url = bench.work.appendingPathComponent(name)
    let metadata = DocumentMetadata(contentType: "org.folio.checklist", title: "Big list", primaryFile: "checklist.json")
    _ = try store.create(at: url, metadata: metadata, files: [DocumentFile(path: "checklist.json", data: Data(json.utf8))], message: "Create Big list")
    return url
}

func launchSuite(_ bench: Bench) throws {
    let env = bench.environment
    let firstFrame = try (0..<5).map { _ in try LaunchBenchmarks.firstFrame(environment: env) }.min() ?? .zero
    bench.record("launch screen first frame (library, not waiting for template sources)", folio: milliseconds(firstFrame), peer: "target", 50,
                 unit: "ms", higherIsBetter: false)
    let render = try best(of: 5) { _ = try run(folioExecutablePath, ["launch", "--render", "--width", "100", "--height", "30", "--ansi"], env: env) }
    bench.record("folio launch --render, whole process", folio: render * 1000, peer: "target", 50, unit: "ms", higherIsBetter: false)
    let url = try makeBigChecklist(bench, name: "frames-checklist")
    let frame = try LaunchBenchmarks.editorFrame(document: url, environment: env)
    bench.record("editor frame on a 10,000-item checklist (cursor moving)", folio: milliseconds(frame), peer: "target", 5, unit: "ms", higherIsBetter: false)
}
