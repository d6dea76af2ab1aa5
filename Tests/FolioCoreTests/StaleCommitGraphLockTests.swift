import FolioCore
import FolioGit
import FolioTestSupport
import Foundation
import XCTest

/// A packer or `compact` killed while writing the commit-graph leaves `commit-graph.lock`: the next compact removes
/// it (it holds the maintenance lock every Folio commit-graph writer holds) instead of failing from then on.
final class StaleCommitGraphLockTests: XCTestCase {
    func testGivenACommitGraphLockLeftByAKilledCompactWhenCompactingThenItSucceedsAndTheLockIsGone() throws {
        let dir = TemporaryDirectory()
        let env = dir.environment()
        let document = try DocumentStore(settings: Settings(sync: .none), environment: env).create(at: dir.path("Doc"))
        for i in 1...5 { try document.write(Data("\(i)\n".utf8), to: "document.txt", message: "change \(i)") }
        let lock = document.url.path + "/.git/objects/info/commit-graph.lock"
        try FileManager.default.createDirectory(atPath: document.url.path + "/.git/objects/info", withIntermediateDirectories: true)
        try Data("left by a killed writer".utf8).write(to: URL(fileURLWithPath: lock))
        // When compacting
        try document.compact()
        // Then it succeeded, the stale lock is gone, and the commit-graph lists every commit
        XCTAssertFalse(FileManager.default.fileExists(atPath: lock))
        XCTAssertEqual(try git(["commit-graph", "verify"], in: document.url, environment: env).status, 0)
        XCTAssertEqual(try git(["fsck", "--strict"], in: document.url, environment: env).status, 0)
        XCTAssertEqual(try document.log().count, 6)
    }
}
