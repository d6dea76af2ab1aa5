import FolioReplicaModel
import FolioTestSupport
import Foundation
import XCTest

/// Issue 32's model-based test (`ReplicaRun`): for each bundled editor with items (checklists, stories, drawings),
/// 3–5 clones behind one remote edit and sync at random, one seed with the first clone under a `folio sync --watch`
/// that is killed with SIGKILL at random moments; every merge is checked against the reference model and all clones
/// must converge with nothing lost.
///
/// Seeded and replayable: `FOLIO_MODEL_SEED=N` runs one seed, `FOLIO_MODEL_STEPS=N` sets the steps per seed; the seed
/// is printed, and every problem names it and the step. `folio-bench model` runs it longer.
final class ReplicaModelTests: XCTestCase {
    func testGivenChecklistReplicasEditingAndSyncingAtRandomWhenEveryMergeIsCheckedThenEachIsTheModelsAndAllConverge() throws {
        try run(ChecklistReplicaFormat(), seeds: [1, 2, 3], steps: 560)
    }

    func testGivenStoryReplicasEditingAndSyncingAtRandomWhenEveryMergeIsCheckedThenEachIsTheModelsAndAllConverge() throws {
        try run(StoryReplicaFormat(), seeds: [1, 2], steps: 420)
    }

    func testGivenDrawingReplicasEditingAndSyncingAtRandomWhenEveryMergeIsCheckedThenEachIsTheModelsAndAllConverge() throws {
        try run(ShapesReplicaFormat(), seeds: [1, 2], steps: 420)
    }

    /// Runs `seeds` (or FOLIO_MODEL_SEED) of `format`, each even seed with a watched clone, and fails with every problem.
    private func run(_ format: any ReplicaFormat, seeds: [UInt64], steps: Int) throws {
        let environment = ProcessInfo.processInfo.environment
        let seeds = environment["FOLIO_MODEL_SEED"].flatMap { UInt64($0) }.map { [$0] } ?? seeds
        let steps = environment["FOLIO_MODEL_STEPS"].flatMap { Int($0) } ?? steps
        var total = ReplicaRun.Tally()
        for seed in seeds {
            let replicas = 3 + Int(seed % 3), watched = seed % 2 == 0
            print("\(format.name) replica model: seed \(seed), \(replicas) replicas\(watched ? ", r0 under folio sync --watch" : ""), \(steps) steps (FOLIO_MODEL_SEED=\(seed) FOLIO_MODEL_STEPS=\(steps) to replay)")
            var run = try ReplicaRun(format: format, seed: seed, replicas: replicas, products: productsDirectory, watched: watched)
            do { try run.run(steps: steps) } catch {
                for problem in run.problems { XCTFail(problem) }
                throw error
            }
            for problem in run.problems { XCTFail(problem) }
            total.add(run.tally)
        }
        print("\(format.name) replica model: \(seeds.count) seeds, \(total.summary)")
        XCTAssertGreaterThan(total.checkedMerges, 0, "the run checked no merge")
        XCTAssertGreaterThan(total.conflicts, 0, "the run kept no conflict")
    }
}
