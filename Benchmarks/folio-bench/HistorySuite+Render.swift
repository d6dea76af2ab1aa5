import FolioCLI
import FolioCore
import Foundation

/// The history browser's preview on the 10,000-item checklist: an old version drawn by the checklist editor against
/// the current version's drawing (target ≤ 1.5×), with 50 versions between them.
func oldVersionRenderFigures(_ bench: Bench) throws {
    let env = bench.environment
    let url = try makeBigChecklist(bench, name: "history-render-checklist")
    for i in 0..<50 { _ = try PluginBenchmarks.edit(document: url, command: "toggle", arguments: ["\(1 + i * 199)"], environment: env) }
    let times = try PluginBenchmarks.versionRenders(document: url, old: "@1", count: 9, environment: env)
    bench.record("draw an old version of a 10,000-item checklist (51 versions back) vs the current one (preview, warm host)",
                 folio: median(times.old), peer: "current", median(times.current), unit: "ms", higherIsBetter: false,
                 note: "target ≤ 1.5× (ratio ≥ 0.67); whole comparison (both drawn, described, aligned) \(String(format: "%.1f", median(times.comparison))) ms")
    bench.reproduceWith("folio view DOC --at @1 --height 20000 --width 56 vs folio view DOC --height 20000 --width 56")
}
