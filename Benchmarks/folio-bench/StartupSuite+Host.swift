import FolioCLI
import Foundation

/// `startup`'s plugin host figure: a fresh `folio-plugin-host` ready with the Swift checklist plugin loaded and
/// checked (issue 25: ≤ 5 ms), beside the same for the C shapes plugin (no Swift runtime to load), the two taking
/// turns so that a change in machine load hits both alike.
func startupHostReady(_ bench: Bench, runs: Int, env: [String: String]) throws {
    var swift: [Duration] = [], c: [Duration] = []
    for _ in 0..<runs {
        swift += try PluginBenchmarks.hostReady(editor: "checklist", count: 1, environment: env)
        c += try PluginBenchmarks.hostReady(editor: "shapes", count: 1, environment: env)
    }
    bench.record("a Swift plugin's host ready (folio-plugin-host spawned, the checklist plugin loaded and checked), median of \(runs)",
                 folio: median(swift), peer: "issue 25 target", 5, unit: "ms", higherIsBetter: false,
                 note: String(format: "min %.2f ms; the C shapes plugin's host: median %.2f, min %.2f ms", minimum(swift), median(c), minimum(c)))
}
