@testable import FolioCLI
import FolioCLITestSupport
import FolioCore
import FolioLaunch
import Foundation
import XCTest

/// The history browser's pages on a long history: each page goes on from where the last stopped (no walk again
/// from the top), from the version the list began at.
final class HistoryPagesTests: XCTestCase {
    var dir: TemporaryDirectory!
    var env: [String: String]!
    var doc: URL { dir.path("Doc") }

    override func setUpWithError() throws {
        dir = TemporaryDirectory("folio-history-pages")
        env = dir.environment(["TZ": "UTC"])
        XCTAssertEqual(runFolio(["new", "Doc"], environment: env, cwd: dir.url).status, 0)
    }

    /// Appends `count` versions ten minutes apart (git fast-import: fast set-up for a long history).
    func appendVersions(_ count: Int) throws {
        var script = ""
        for index in 0..<count {
            let time = 1_790_000_000 + index * 600
            script += "commit refs/heads/main\nauthor A <a@example.org> \(time) +0000\ncommitter A <a@example.org> \(time) +0000\n"
                + "data <<EOM\nchange \(index + 1)\nEOM\n" + (index == 0 ? "from refs/heads/main^0\n" : "")
                + "M 100644 inline notes.txt\ndata <<EOF\n\(index)\nEOF\n\n"
        }
        let imported = try runProgram("git", ["fast-import", "--quiet"], cwd: doc, environment: env, stdin: Data(script.utf8))
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(try git(["reset", "-q", "--hard"], in: doc, environment: env).status, 0)
    }

    func pageAll(_ session: DocumentSessionAdapter, limit: Int) throws -> (ids: [String], seconds: [TimeInterval], totals: Set<Int?>) {
        var ids: [String] = [], seconds: [TimeInterval] = [], totals: Set<Int?> = []
        var cursor: String?
        repeat {
            let started = Date()
            let page = try session.page(after: cursor, limit: limit)
            seconds.append(Date().timeIntervalSince(started))
            ids += page.entries.map(\.id)
            totals.insert(page.total)
            cursor = page.next
        } while cursor != nil
        return (ids, seconds, totals)
    }

    func testGivenTenThousandVersionsWhenTheBrowserPagesToTheEndThenEveryVersionComesOnceAndTheLastPageCostsWhatTheFirstDoes() throws {
        // Given a document with 10,001 versions
        try appendVersions(10_000)
        let session = try DocumentSessionAdapter(url: doc, environment: env)
        // When the browser's list is paged to the end 50 at a time (what scrolling down does)
        let paged = try pageAll(session, limit: 50)
        // Then every version comes once, in `folio log`'s order, each page saying how many there are
        let log = try DocumentStore(environment: env).open(at: doc).log().map(\.id)
        XCTAssertEqual(paged.ids.count, 10_001)
        XCTAssertEqual(paged.ids, log)
        XCTAssertEqual(paged.totals, [10_001])
        // And a page near the end costs about what one near the top does (the walk goes on; it used to walk again
        // past all the versions listed, so the last pages cost ~100 times the first)
        let early = paged.seconds[1...10].reduce(0, +), late = paged.seconds.suffix(10).reduce(0, +)
        print("history pages: 10 pages near the top \(String(format: "%.2f", early * 1000)) ms, 10 at the end \(String(format: "%.2f", late * 1000)) ms, "
              + "all \(paged.seconds.count) pages \(String(format: "%.0f", paged.seconds.reduce(0, +) * 1000)) ms")
        XCTAssertLessThan(late, early * 8 + 0.010, "pages near the end cost \(late * 1000) ms against \(early * 1000) ms near the top")
    }

    func testGivenAListBegunWhenAVersionIsMadeMeanwhileThenTheNextPageGoesOnWithoutRepeatingOne() throws {
        // Given 120 versions and the first page of 50 shown
        try appendVersions(119)
        let session = try DocumentSessionAdapter(url: doc, environment: env)
        let first = try session.page(after: nil, limit: 50)
        // When another window makes a version before the next page is asked for
        XCTAssertEqual(runFolio(["write", doc.path, "notes.txt", "--message", "made meanwhile"], environment: env, cwd: dir.url, stdin: Data("x\n".utf8)).status, 0)
        let second = try session.page(after: first.next, limit: 50)
        // Then the second page starts right after the first's last version (none repeated, none skipped)
        let log = try DocumentStore(environment: env).open(at: doc).log().map(\.id)
        XCTAssertEqual(log.firstIndex(of: first.entries[0].id), 1, "the new version is the newest")
        XCTAssertEqual((first.entries + second.entries).map(\.id), Array(log[1...100]))
        XCTAssertEqual(second.total, 120, "the count is of the history the list began at")
    }

    func testGivenACursorThatIsNotOneTheBrowserMadeWhenAPageIsAskedForThenItStartsFromTheNewestVersion() throws {
        // Given a short history
        try appendVersions(3)
        let session = try DocumentSessionAdapter(url: doc, environment: env)
        let newest = try session.page(after: nil, limit: 2)
        // When a page is asked for with garbled cursors
        for cursor in ["50", ":3", "zz:1", String(repeating: "a", count: 40) + ":-1", String(repeating: "a", count: 40) + ":99999999999999999999"] {
            // Then it is the newest page, never a trap
            XCTAssertEqual(try session.page(after: cursor, limit: 2).entries.map(\.id), newest.entries.map(\.id), cursor)
        }
    }
}
