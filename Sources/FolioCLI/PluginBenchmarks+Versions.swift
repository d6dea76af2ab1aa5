import FolioCore
import FoundationEssentials
import Glibc

extension PluginBenchmarks {
    /// What the history browser's preview costs to draw one version, uncached, through a warm plugin host: the
    /// version's bytes read from git, opened by its editor and drawn whole at `width` columns. The old version `old`
    /// and the current one are drawn in turn, `count` times each; also a whole comparison of the two (both drawn,
    /// the editor's description, the rows aligned), `count` times.
    public static func versionRenders(document path: URL, old: String, count: Int, width: Int = 56,
                                      environment: [String: String]) throws -> (old: [Duration], current: [Duration], comparison: [Duration]) {
        let document = try DocumentStore(environment: environment).open(at: path)
        let host = host(environment)
        let oldID = try document.resolve(old).hex, currentID = try document.head().id.hex
        // Each drawing gets a fresh session, so nothing it drew before is reused; the host stays warm.
        func session() -> DocumentSessionAdapter { DocumentSessionAdapter(document: document, host: host, associations: [:]) }
        _ = try session().drawn(currentID, width: width)
        let clock = ContinuousClock()
        var olds: [Duration] = [], currents: [Duration] = [], comparisons: [Duration] = []
        for _ in 0..<max(1, count) {
            var fresh = session(), start = clock.now
            _ = try fresh.drawn(oldID, width: width)
            olds.append(clock.now - start)
            fresh = session(); start = clock.now
            _ = try fresh.drawn(currentID, width: width)
            currents.append(clock.now - start)
            fresh = session(); start = clock.now
            _ = try fresh.comparison(from: oldID, to: nil, width: width, isStale: { false })
            comparisons.append(clock.now - start)
        }
        return (olds, currents, comparisons)
    }
}
