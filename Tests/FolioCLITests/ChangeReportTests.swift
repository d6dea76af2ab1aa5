@testable import FolioCLI
import FolioCore
import FolioCLITestSupport
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

/// The report of one change, made while another writer has already moved the document on.
final class ChangeReportAfterAnotherWriterTests: XCTestCase {
    func testGivenAnotherWriterCommittedAfterThisChangeWhenReportedAsJSONThenTheReportNamesThisChangeNotTheNewest() throws {
        // Given a change made through one handle, then another change through a second handle (the newest now)
        let dir = TemporaryDirectory()
        let env = dir.environment()
        let store = DocumentStore(settings: Settings(sync: .none), environment: env)
        let document = try store.create(at: dir.path("Doc"))
        let mine = try XCTUnwrap(try document.write(Data("mine\n".utf8), to: "mine.txt", message: "Mine"))
        let theirs = try XCTUnwrap(try store.open(at: document.url).write(Data("theirs\n".utf8), to: "theirs.txt", message: "Theirs"))
        XCTAssertEqual(try document.head().id, theirs.id)
        // When this change is reported with --json
        var printed = ""
        let io = CommandIO(environment: env, currentDirectory: dir.url, isInteractive: false,
                           out: { printed += $0 }, err: { _ in }, stdin: { Data() })
        let args = try Arguments(["--json"], options: [], flags: ["--json"])
        XCTAssertEqual(try reportChange(mine, document: document, args, io, nothing: ""), 0)
        // Then the report names this change
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [String: Any], printed)
        let commit = try XCTUnwrap(object["commit"] as? [String: Any], printed)
        XCTAssertEqual(commit["id"] as? String, mine.id.hex)
        XCTAssertEqual(commit["summary"] as? String, "Mine")
    }
}
