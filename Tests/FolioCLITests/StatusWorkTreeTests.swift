@testable import FolioCLI
import FolioCore
import FolioCLITestSupport
import Foundation
import XCTest

/// `folio status --json` says whether the work tree is up to date, which files are not, and why.
final class StatusWorkTreeTests: XCTestCase {
    private func statusJSON(_ doc: String, _ extra: [String] = [], env: [String: String], cwd: URL) throws -> [String: Any] {
        let result = runFolio(["status", doc, "--json"] + extra, environment: env, cwd: cwd)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
    }

    func testGivenACurrentWorkTreeWhenStatusJSONThenWorkTreeIsCurrentWithNoFiles() throws {
        let dir = TemporaryDirectory()
        let env = dir.environment()
        XCTAssertEqual(runFolio(["new", "Doc"], environment: env, cwd: dir.url).status, 0)
        let status = try statusJSON("Doc", env: env, cwd: dir.url)
        let workTree = try XCTUnwrap(status["workTree"] as? [String: Any])
        XCTAssertEqual(workTree["current"] as? Bool, true)
        XCTAssertEqual(workTree["outOfDate"] as? [String], [])
        XCTAssertTrue(workTree["cause"] is NSNull)
    }

    func testGivenAWorkTreeLeftBehindByAFullDiskWhenStatusJSONThenItListsTheFileAndTheCauseAndNotAsAnUnrecordedChange() throws {
        let dir = TemporaryDirectory()
        let env = dir.environment()
        guard let disk = SmallFileSystem(at: dir.path("disk"), bytes: 2 << 20) else { throw XCTSkip("mounting a tmpfs needs root") }
        let doc = disk.url.appendingPathComponent("Doc").path
        XCTAssertEqual(runFolio(["new", doc], environment: env, cwd: dir.url).status, 0)
        try disk.fill(leaving: 64 << 10)
        XCTAssertEqual(runFolio(["write", doc, "big.txt"], environment: env, cwd: dir.url, stdin: Data(count: 300_000)).status, 0)
        // When status --json runs, then the work tree is reported out of date with the file and the cause
        let status = try statusJSON(doc, env: env, cwd: dir.url)
        let workTree = try XCTUnwrap(status["workTree"] as? [String: Any])
        XCTAssertEqual(workTree["current"] as? Bool, false)
        XCTAssertEqual(workTree["outOfDate"] as? [String], ["big.txt"])
        XCTAssertEqual(workTree["cause"] as? String, String(cString: strerror(ENOSPC)))
        // And the stale file is not called an unrecorded change (recording it would take the change back)
        XCTAssertEqual(status["unrecordedChanges"] as? [String], [])
        // When the disk has room and status --repair --json runs, then the work tree is current
        try disk.drain()
        let repaired = try statusJSON(doc, ["--repair"], env: env, cwd: dir.url)
        XCTAssertEqual((repaired["workTree"] as? [String: Any])?["current"] as? Bool, true)
        XCTAssertEqual((repaired["workTree"] as? [String: Any])?["outOfDate"] as? [String], [])
    }
}
