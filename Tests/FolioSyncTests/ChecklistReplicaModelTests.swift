import Foundation
import FolioCore
import FolioGit
import FolioPlugins
import FolioSync
import FolioCLITestSupport
import FolioTestSupport
import XCTest

/// Issue 32's model-based test: 3–5 clones of one checklist behind one bare remote, each applying random commands
/// through the bundled plugin (add, rename, check, move, delete) and syncing in random orders, some offline for a
/// while. Every merge a sync makes is checked against the reference model (`ModelList`): the items both kept or
/// either added, each field as the side that changed it left it, the order both kept, runs kept together; a kept
/// conflict must be one the model sees (a field changed differently, or delete against change), and one the model
/// sees must be kept. Conflicts are settled item by item with random choices. In the end every clone syncs until all
/// hold one version: no item twice, none never deleted lost, every title one someone wrote, `git fsck --strict` clean.
///
/// Seeded and replayable: `FOLIO_MODEL_SEED=N` runs one seed, `FOLIO_MODEL_STEPS=N` sets the steps per seed; the seed
/// is printed, and a failure names it and the step.
final class ChecklistReplicaModelTests: XCTestCase {
    private var ws: SyncWorkspace!
    private var editors: PluginSemanticMerger!
    private var registry: EditorRegistry!

    override func setUpWithError() throws {
        ws = try SyncWorkspace()
        registry = EditorRegistry(searchPath: PluginSearchPath(folders: [.init(productsDirectory, bundled: true)]))
        editors = PluginSemanticMerger(host: registry)
    }

    override func tearDown() { ws = nil; editors = nil; registry = nil }

    /// What a run saw, for the closing line.
    struct Tally {
        var operations = 0, syncs = 0, merges = 0, checkedMerges = 0, crissCross = 0, conflicts = 0, fastForwards = 0, settledWhole = 0
    }

    func testGivenReplicasEditingAndSyncingAtRandomWhenEveryMergeIsCheckedThenEachIsTheModelsAndAllConverge() throws {
        let environment = ProcessInfo.processInfo.environment
        let seeds: [UInt64] = environment["FOLIO_MODEL_SEED"].flatMap { UInt64($0) }.map { [$0] } ?? [1, 2, 3]
        let steps = environment["FOLIO_MODEL_STEPS"].flatMap { Int($0) } ?? 560
        var total = Tally()
        for seed in seeds {
            ws = try SyncWorkspace()
            let replicas = 3 + Int(seed % 3)
            print("checklist replica model: seed \(seed), \(replicas) replicas, \(steps) steps (FOLIO_MODEL_SEED=\(seed) FOLIO_MODEL_STEPS=\(steps) to replay)")
            var run = Run(test: self, seed: seed, replicas: replicas)
            try run.start()
            for step in 0..<steps { try run.step(step) }
            try run.converge()
            total.operations += run.tally.operations; total.syncs += run.tally.syncs; total.merges += run.tally.merges
            total.checkedMerges += run.tally.checkedMerges; total.crissCross += run.tally.crissCross
            total.conflicts += run.tally.conflicts; total.fastForwards += run.tally.fastForwards; total.settledWhole += run.tally.settledWhole
        }
        print("checklist replica model: \(seeds.count) seeds, \(total.operations) operations, \(total.syncs) syncs, \(total.fastForwards) fast-forwards, \(total.merges) merges (\(total.checkedMerges) checked against the model, \(total.crissCross) with several merge bases), \(total.conflicts) kept conflicts settled (\(total.settledWhole) whole, against a base written before ids)")
        XCTAssertGreaterThan(total.checkedMerges, 0, "the run checked no merge")
    }

    /// One seeded run.
    struct Run {
        let test: ChecklistReplicaModelTests
        let seed: UInt64
        let replicas: Int
        var random: SeededRandom
        var documents: [Document] = []
        var offline: [Bool] = []
        var tally = Tally()
        var bare: URL!
        /// Every id ever added, the titles ever written to each, and the ids some replica deleted.
        var titles: [String: Set<String>] = [:]
        var deleted = Set<String>()
        var counter = 0

        init(test: ChecklistReplicaModelTests, seed: UInt64, replicas: Int) {
            self.test = test
            self.seed = seed
            self.replicas = replicas
            random = SeededRandom(seed: seed)
        }

        var ws: SyncWorkspace { test.ws }
        func transfer() -> TransferOptions { TransferOptions(environment: ws.env) }

        /// The first replica writes an old checklist (no ids, as a Folio before them wrote it) and shares it.
        mutating func start() throws {
            bare = try ws.bareRepository("list.git")
            let first = try ws.document("r0", type: "org.folio.checklist")
            let old = #"{"title": "Groceries", "items": [{"title": "Milk", "checked": false}, {"title": "Eggs", "checked": false}, {"title": "Bread", "checked": true}, {"title": "Milk", "checked": false}]}"# + "\n"
            try first.write(Data(old.utf8), to: first.metadata.primaryFile, message: "Old list")
            try first.addRemote("origin", url: bare.path)
            _ = try first.push(options: transfer())
            documents = [first]
            for index in 1..<replicas { documents.append(try ws.store.clone(from: bare.path, to: ws.dir.path("r\(index)"), options: transfer())) }
            offline = Array(repeating: false, count: replicas)
            for (id, title) in zip(try list(first).ids, ["Milk", "Eggs", "Bread", "Milk"]) { titles[id, default: []].insert(title) }
        }

        func list(_ document: Document, at rev: String = "HEAD") throws -> ModelList {
            let bytes = try document.read(path: document.metadata.primaryFile, at: rev)
            // A list without ids (the first version) reads with the ids the plugin derives.
            if let model = ModelList(bytes) { return model }
            let identified = try test.registry.backend("checklist").openDocument(bytes).bytes()
            return try XCTUnwrap(ModelList(identified), "seed \(seed): the plugin's list does not read")
        }

        mutating func step(_ step: Int) throws {
            let r = random.int(below: replicas)
            switch random.int(below: 100) {
            case 0..<6: offline[r].toggle()
            case 6..<36: if !offline[r] { try sync(r, step: step) }
            default: try edit(r, step: step)
            }
        }

        mutating func edit(_ r: Int, step: Int) throws {
            let document = documents[r]
            let items = try list(document).items
            counter += 1
            let name = "r\(r)-\(counter)"
            var command: [String]
            let pick = { (random: inout SeededRandom) in String(random.int(below: max(items.count, 1)) + 1) }
            switch items.isEmpty ? 0 : random.int(below: 10) {
            case 0, 1, 2: command = ["add", name]
            case 3, 4: command = ["rename", pick(&random), name]
            case 5, 6: command = ["toggle", pick(&random)]
            case 7: command = ["delete", pick(&random)]
            default: command = ["move", pick(&random), pick(&random)]
            }
            _ = try test.registry.edit(document, command: command[0], arguments: Array(command.dropFirst()))
            tally.operations += 1
            let after = try list(document)
            switch command[0] {
            case "add": if let id = after.items.last?.id { titles[id, default: []].insert(name) }
            case "rename": if let n = Int(command[1]), after.items.indices.contains(n - 1) { titles[after.items[n - 1].id, default: []].insert(name) }
            case "delete": if let n = Int(command[1]), items.indices.contains(n - 1) { deleted.insert(items[n - 1].id) }
            default: break
            }
        }

        mutating func sync(_ r: Int, step: Int) throws {
            let document = documents[r]
            let where_ = "seed \(seed), step \(step), replica r\(r)"
            let ours = try document.head().id
            let outcome = try document.pull(options: SyncOptions(transfer: transfer(), semanticMerger: test.editors))
            tally.syncs += 1
            switch outcome {
            case .upToDate: break
            case .fastForwarded: tally.fastForwards += 1
            case let .merged(commit):
                tally.merges += 1
                let head = try document.head()
                XCTAssertEqual(head.id, commit.id, where_)
                guard head.parents.count == 2, head.parents[0] == ours else { return XCTFail("\(where_): the merge's parents are \(head.parents)") }
                try checkMerge(document, ours: ours, theirs: head.parents[1], result: head.id.hex, where_)
            case let .conflict(conflict):
                tally.conflicts += 1
                try checkConflict(document, conflict, ours: ours, where_)
                let bases = try mergeBases(document, ours, conflict.commit)
                try settle(document, conflict.ref, base: bases.count == 1 ? bases[0] : nil, "\(where_), conflict in \(conflict.paths): \(conflict.reasons)")
            case let .rewound(rewind):
                XCTFail("\(where_): the remote was rewound: \(rewind)")
            case .held:
                XCTFail("\(where_): held back although no replica changes the content type")
            }
            _ = try? document.push(options: transfer())
        }

        /// The merge bases of two commits, from git itself.
        func mergeBases(_ document: Document, _ a: ObjectID, _ b: ObjectID) throws -> [String] {
            let result = try git(["merge-base", "--all", a.hex, b.hex], in: document.url, environment: ws.env)
            return result.stdout.split(separator: "\n").map(String.init)
        }

        mutating func checkMerge(_ document: Document, ours: ObjectID, theirs: ObjectID, result: String, _ where_: String) throws {
            let bases = try mergeBases(document, ours, theirs)
            guard bases.count == 1 else { tally.crissCross += 1; return }
            let base = try list(document, at: bases[0]), o = try list(document, at: ours.hex), t = try list(document, at: theirs.hex)
            let merged = try list(document, at: result)
            let expected = ModelList.expect(base: base, ours: o, theirs: t)
            XCTAssertTrue(expected.conflicting.isEmpty, "\(where_): merged what the model says conflicts: \(expected.conflicting)")
            if let problem = ModelList.problem(result: merged, base: base, ours: o, theirs: t) {
                func show(_ rev: String) -> String { (try? String(decoding: document.read(path: document.metadata.primaryFile, at: rev), as: UTF8.self)) ?? "?" }
                XCTFail("\(where_): \(problem)\nbase:\n\(show(bases[0]))ours:\n\(show(ours.hex))theirs:\n\(show(theirs.hex))merged:\n\(show(result))")
            }
            tally.checkedMerges += 1
        }

        func checkConflict(_ document: Document, _ conflict: SyncConflict, ours: ObjectID, _ where_: String) throws {
            let bases = try mergeBases(document, ours, conflict.commit)
            guard bases.count == 1 else { return }
            let base = try list(document, at: bases[0]), o = try list(document, at: ours.hex), t = try list(document, at: conflict.commit.hex)
            let expected = ModelList.expect(base: base, ours: o, theirs: t)
            XCTAssertFalse(expected.conflicting.isEmpty, "\(where_): kept a conflict the model does not see: \(conflict.reasons)")
        }

        /// Settles a kept conflict item by item, each choice random.
        mutating func settle(_ document: Document, _ ref: String, base: String?, _ where_: String) throws {
            let items = try document.itemConflicts(ref, editors: test.editors)
            var choices: [String: ItemChoice] = [:]
            for item in items { choices[item.key] = [ItemChoice.mine, .theirs][random.int(below: 2)] }
            if items.isEmpty {
                // Only against a base written before ids, where settling pairs items by today's guess and the merge
                // by their derived ids, may the two disagree: the file is then settled whole.
                let legacy = try base.map { ModelList(try document.read(path: document.metadata.primaryFile, at: $0)) == nil } ?? false
                XCTAssertTrue(legacy, "\(where_): a checklist conflict that cannot be settled item by item")
                choices[document.metadata.primaryFile] = [ItemChoice.mine, .theirs][random.int(below: 2)]
                tally.settledWhole += 1
            }
            let before = Set(try list(document).ids).union(try list(document, at: ref).ids)
            _ = try document.settleConflict(ref, choices: choices, editors: test.editors)
            XCTAssertEqual(try document.keptConflicts(), [], where_)
            // A file settled whole keeps one side's items: the other side's are dropped by that choice.
            if items.isEmpty { deleted.formUnion(before.subtracting(try list(document).ids)) }
        }

        /// Every replica online, syncing in turn until all hold one version and no conflict is kept.
        mutating func converge() throws {
            offline = Array(repeating: false, count: replicas)
            for round in 0..<12 {
                for r in 0..<replicas { try sync(r, step: 10_000 + round) }
                let heads = Set(try documents.map { try $0.head().id })
                if heads.count == 1, try documents.allSatisfy({ try $0.keptConflicts().isEmpty }) { break }
            }
            let finals = try documents.map { try list($0) }
            XCTAssertEqual(Set(try documents.map { try $0.head().id }).count, 1, "seed \(seed): the replicas did not converge")
            let final = try XCTUnwrap(finals.first)
            XCTAssertEqual(Set(final.ids).count, final.ids.count, "seed \(seed): an item is there twice")
            for id in titles.keys where !deleted.contains(id) {
                XCTAssertNotNil(final[id], "seed \(seed): item \(id) (\(titles[id] ?? [])) was never deleted but is gone")
            }
            for item in final.items {
                XCTAssertNotNil(titles[item.id], "seed \(seed): item \(item.id) was never added")
                XCTAssertTrue(titles[item.id]?.contains(item.fields["title"] ?? "") ?? false, "seed \(seed): item \(item.id) has a title nobody wrote")
            }
            try ws.assertFsck(bare)
        }
    }
}
