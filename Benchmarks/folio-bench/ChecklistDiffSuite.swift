import FolioCore
import Foundation

/// `checklist-diff`: the checklist editor's semantic diff (`folio diff`, whole process) on 40,000, 80,000 and
/// 160,000 items, for a version changing a tenth of the items (deleted, renamed, added, toggled, moved) and for a
/// first version adding every item. The time per item should stay about flat as the list doubles: the diff is
/// O(n log n).
func checklistDiffSuite(_ bench: Bench) throws {
    // "every item new" was the quadratic case before (each added item was looked up in a list of the added ones).
    let scenarios: [(name: String, old: (Int) -> [(String, Bool)], new: (Int) -> [(String, Bool)])] = [
        ("a tenth changed", originalItems, changedItems),
        ("every item new", { _ in [] }, originalItems),
    ]
    for (index, scenario) in scenarios.enumerated() {
        var first: (items: Int, ms: Double)?
        for n in [40_000, 80_000, 160_000] {
            let (ms, lines) = try timeDiff(bench, name: "diff-\(index)-\(n)", old: scenario.old(n), new: scenario.new(n))
            let base = first ?? (n, ms)
            first = base
            // The peer is the 40,000-item time scaled linearly: a ratio near 1 means linear growth.
            let linear = base.ms * Double(n) / Double(base.items)
            bench.record("folio diff of a \(n)-item checklist, \(scenario.name)", folio: ms, peer: "linear from 40k", linear, unit: "ms",
                         higherIsBetter: false, note: String(format: "%.2f µs per item, %d lines of diff", ms * 1000 / Double(n), lines))
        }
    }
}

/// The best of three `folio diff` runs (ms) between a document's two versions, and the diff's line count.
private func timeDiff(_ bench: Bench, name: String, old: [(String, Bool)], new: [(String, Bool)]) throws -> (Double, Int) {
    let env = bench.environment
    let url = try makeChecklistDocument(bench, name: name, json: checklistJSON(old))
    let document = try DocumentStore(settings: Settings(sync: .none), environment: env).open(at: url)
    _ = try document.write(checklistJSON(new), to: "checklist.json", message: "Change the items")
    var lines = 0
    let seconds = try best(of: 3) {
        let (code, output) = try run(folioExecutablePath, ["diff", url.path], env: env)
        guard code == 0 else { throw POSIXFailure(operation: "folio diff exited \(code)", path: url.path) }
        lines = output.split(separator: UInt8(ascii: "\n")).count
    }
    return (seconds * 1000, lines)
}

private func originalItems(_ n: Int) -> [(String, Bool)] {
    (0..<n).map { ("Item \($0)", false) }
}

/// Every 10th item deleted, the next renamed, one added after each 10th, every 7th toggled, every 1000th moved to the end.
private func changedItems(_ n: Int) -> [(String, Bool)] {
    var items: [(String, Bool)] = []
    var moved: [(String, Bool)] = []
    for i in 0..<n {
        switch i % 10 {
        case 0: items.append(("New \(i)", false))
        case 1: items.append(("Renamed \(i)", i % 7 == 0))
        default:
            if i % 1000 == 5 { moved.append(("Item \(i)", false)) } else { items.append(("Item \(i)", i % 7 == 0)) }
        }
    }
    return items + moved
}

private func checklistJSON(_ items: [(String, Bool)]) -> Data {
    let body = items.map { "{\"title\": \"\($0.0)\", \"checked\": \($0.1)}" }.joined(separator: ",\n    ")
    return Data("{\n  \"title\": \"Big list\",\n  \"items\": [\n    \(body)\n  ]\n}\n".utf8)
}

private func makeChecklistDocument(_ bench: Bench, name: String, json: Data) throws -> URL {
    let store = DocumentStore(settings: Settings(sync: .none), environment: bench.environment)
    let url = bench.work.appendingPathComponent(name)
    let metadata = DocumentMetadata(contentType: "org.folio.checklist", title: "Big list", primaryFile: "checklist.json")
    _ = try store.create(at: url, metadata: metadata, files: [DocumentFile(path: "checklist.json", data: json)], message: "Create Big list")
    return url
}
