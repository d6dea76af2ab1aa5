import FoundationEssentials
import Glibc

extension Repository {
    /// The names of the files in `objects/pack` (to tell which ones a fetch added).
    public func packFileNames() -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: gitDirectoryPath + "objects/pack")) ?? [])
    }

    /// fsyncs the pack files (`.pack`, `.idx`, `.rev`) that appeared since `before` (a `packFileNames()` taken before a
    /// fetch), the pack folder, and `refs` (relative to the git folder) that exist as files: libgit2's own fsync is
    /// off process-wide (see `GitLibrary`), so a document whose durability setting asks for it syncs what a fetch
    /// wrote itself.
    public func syncFetched(packsBefore before: Set<String>, refs: [String]) throws {
        let added = packFileNames().subtracting(before).filter { $0.hasSuffix(".pack") || $0.hasSuffix(".idx") || $0.hasSuffix(".rev") }
        var paths = added.sorted().map { "objects/pack/" + $0 }
        for ref in refs where FileManager.default.fileExists(atPath: gitDirectoryPath + ref) { paths.append(ref) }
        if !paths.isEmpty { try syncToDisk(paths) }
    }
}
