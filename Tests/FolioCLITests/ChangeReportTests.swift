import FolioCore
import FolioTestSupport
import Foundation
import Synchronization
import XCTest

/// What a change command reports is the change it made, even while other writers change the same document.
final class ChangeReportTests: XCTestCase {
    func testGivenTwoWritersAtOnceWhenEachWritesWithJSONThenEachReportNamesTheCommitItMade() throws {
        // Given a document
        let dir = TemporaryDirectory()
        let env = dir.environment()
        XCTAssertEqual(runFolio(["new", "Doc"], environment: env, cwd: dir.url).status, 0)
        // When two writers write to it at the same time, each reporting with --json
        let reports = Mutex<[(message: String, content: String, json: String, status: Int32)]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            for i in 1...15 {
                let message = "writer \(writer) change \(i)", content = "\(writer) \(i)\n"
                let result = runFolio(["write", "Doc", "w\(writer).txt", "-m", message, "--json"], environment: env, cwd: dir.url,
                                      stdin: Data(content.utf8))
                reports.withLock { $0.append((message, content, result.stdout, result.status)) }
            }
        }
        // Then every report names a commit with that writer's message and content
        let all = reports.withLock { $0 }
        XCTAssertEqual(all.count, 30)
        for report in all {
            XCTAssertEqual(report.status, 0, report.json)
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
            let commit = try XCTUnwrap(object["commit"] as? [String: Any], report.json)
            XCTAssertEqual(commit["summary"] as? String, report.message)
            let id = try XCTUnwrap(commit["id"] as? String)
            let file = report.message.hasPrefix("writer 0") ? "w0.txt" : "w1.txt"
            XCTAssertEqual(try git(["show", "\(id):\(file)"], in: dir.path("Doc"), environment: env).stdout, report.content)
        }
    }
}
