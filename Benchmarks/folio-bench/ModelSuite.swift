import FolioReplicaModel
import Foundation

/// `folio-bench model`: issue 32's replica model (`ReplicaRun`, the test `ReplicaModelTests` runs in CI) run longer:
/// every bundled editor with items, `--seeds` seeds each (default 10, from `--first`, default 100, away from the
/// test's), `--steps` steps per seed (default 2000), every even seed with a clone under `folio sync --watch` killed
/// with SIGKILL at random moments; `--format NAME` runs one editor. Prints what each seed did and every problem;
/// exits 1 on any.
func modelSuite(_ bench: Bench) throws {
    let seeds = bench.option("--seeds", default: 10), steps = bench.option("--steps", default: 2000), first = bench.option("--first", default: 100)
    let only = bench.arguments.firstIndex(of: "--format").flatMap { bench.arguments.indices.contains($0 + 1) ? bench.arguments[$0 + 1] : nil }
    let formats = ReplicaFormats.all.filter { only == nil || $0.name == only }
    guard !formats.isEmpty else { throw ModelFailure(description: "no editor named '\(only ?? "")' (\(ReplicaFormats.all.map(\.name).joined(separator: ", ")))") }
    let products = URL(fileURLWithPath: folioExecutablePath).deletingLastPathComponent()
    var problems: [String] = []
    for format in formats {
        var total = ReplicaRun.Tally()
        let start = Date()
        for seed in UInt64(first)..<UInt64(first + seeds) {
            let replicas = 3 + Int(seed % 3), watched = seed % 2 == 0
            var run = try ReplicaRun(format: format, seed: seed, replicas: replicas, products: products, watched: watched)
            do { try run.run(steps: steps) } catch { problems.append("\(format.name), seed \(seed): the run stopped: \(error)") }
            print("\(format.name) seed \(seed): \(replicas) replicas\(watched ? ", r0 watched" : ""), \(run.tally.operations) operations, \(run.tally.checkedMerges) merges checked, \(run.tally.conflicts) conflicts, \(run.problems.count) problems")
            problems += run.problems
            total.add(run.tally)
        }
        print("\(format.name): \(seeds) seeds × \(steps) steps in \(String(format: "%.0f", Date().timeIntervalSince(start))) s: \(total.summary)")
        bench.record("model \(format.name): problems in \(total.operations) operations and \(total.checkedMerges) checked merges", folio: Double(problems.count), peer: "target", 0,
                     unit: "problems", higherIsBetter: false)
    }
    for problem in problems.prefix(20) { print("PROBLEM: \(problem)") }
    bench.reproduceWith("swift build --product folio-bench && .build/debug/folio-bench model --seeds \(seeds) --steps \(steps) --first \(first)")
    if !problems.isEmpty { throw ModelFailure(description: "\(problems.count) problems (FOLIO_MODEL_SEED=N FOLIO_MODEL_STEPS=\(steps) swift test --filter ReplicaModelTests replays one seed)") }
}

struct ModelFailure: Error, CustomStringConvertible { let description: String }
