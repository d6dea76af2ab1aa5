import FolioCore
import FolioGit
import FolioTestSupport
import Foundation
import Synchronization
import XCTest

/// libgit2's options are process-wide: Folio sets them once, so documents and threads of one process never race
/// on them.
final class ProcessWideOptionsTests: XCTestCase {
    func testGivenTwoDocumentsWithDifferentSyncSettingsWhenBothChangeAtOnceThenEachIsSyncedPerItsOwnSetting() throws {
        // Given a document with sync=full and one with sync=none, open in one process
        let dir = TemporaryDirectory()
        let env = dir.environment()
        let durable = try DocumentStore(settings: Settings(sync: .full), environment: env).create(at: dir.path("durable"))
        let fast = try DocumentStore(settings: Settings(sync: .none), environment: env).create(at: dir.path("fast"))
        let optionWrites = GitLibrary.processWideOptionWrites
        let durableBefore = Repository.syncedFileCount(gitDirectoryPath: durable.repository.gitDirectoryPath)
        // When both are changed at the same time on two threads
        nonisolated(unsafe) let documents = [durable, fast]  // each used by one thread only
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            do {
                for i in 1...20 { try documents[index].write(Data("\(i)\n".utf8), to: "document.txt", message: "change \(i)") }
            } catch { failures.withLock { $0.append("\(error)") } }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        // Then the durable one fsynced its branch and index on every change and the fast one never did
        XCTAssertEqual(Repository.syncedFileCount(gitDirectoryPath: durable.repository.gitDirectoryPath) - durableBefore, 40)
        XCTAssertEqual(Repository.syncedFileCount(gitDirectoryPath: fast.repository.gitDirectoryPath), 0)
        // And no process-wide libgit2 option was touched by opening or changing them
        XCTAssertEqual(GitLibrary.processWideOptionWrites, optionWrites)
    }

    func testGivenALongLogWalkOnOneThreadWhenAnotherThreadReadsThenItsObjectCacheStaysOn() throws {
        // Given a document with some history, and a second handle on it for another thread
        let dir = TemporaryDirectory()
        let env = dir.environment()
        let store = DocumentStore(settings: Settings(sync: .none), environment: env)
        let document = try store.create(at: dir.path("d"))
        for i in 1...300 { try document.write(Data("\(i)\n".utf8), to: "document.txt", message: "change \(i)") }
        let tree = try document.head().tree
        let reader = try Repository.open(at: document.url)
        let optionWrites = GitLibrary.processWideOptionWrites
        // When one thread walks the whole log over and over while the other reads a tree twice each time
        nonisolated(unsafe) let walker = document  // used by the walking thread only
        nonisolated(unsafe) let other = reader  // used by the reading thread only
        let misses = Mutex(0)
        let walking = Atomic(true)
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            if index == 0 {
                for _ in 0..<100 { _ = try? walker.log() }
                walking.store(false, ordering: .sequentiallyConsistent)
            } else {
                while walking.load(ordering: .sequentiallyConsistent) {
                    if (try? other.objectCacheServesRepeatedLookups(ofTree: tree)) != true { misses.withLock { $0 += 1 } }
                }
            }
        }
        // Then every pair of lookups was served from the cache, and no option was set
        XCTAssertEqual(misses.withLock { $0 }, 0)
        XCTAssertEqual(GitLibrary.processWideOptionWrites, optionWrites)
    }
}
