import FolioCore
import FolioCLITestSupport
import Foundation
import XCTest

final class CompactCommandTests: TemporaryHomeTestCase {
    func testGivenAGarbageBranchWhenFolioCompactRunsThenItExitsNonZeroWithOneLineAndKeepsHistory() throws {
        let document = try DocumentStore(settings: Settings(sync: .none), environment: env).create(at: dir.path("doc"))
        try document.write(Data("one\n".utf8), to: "document.txt", message: "one")
        let head = try document.head().id.hex
        let before = try git(["count-objects", "-v"], in: document.url, environment: env).stdout
        try Data("garbage".utf8).write(to: document.url.appendingPathComponent(".git/refs/heads/main"))
        let result = runFolio(["compact", document.url.path], environment: env, cwd: dir.url)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("refs/heads/main"), result.stderr)
        XCTAssertEqual(try git(["count-objects", "-v"], in: document.url, environment: env).stdout, before)
        try Data((head + "\n").utf8).write(to: document.url.appendingPathComponent(".git/refs/heads/main"))
        XCTAssertEqual(try git(["fsck", "--strict"], in: document.url, environment: env).status, 0)
    }
}
