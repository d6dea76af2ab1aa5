import FolioCore
import FolioTestSupport
import Foundation
import XCTest

/// A window polls its document's head through `HeadStamp`: equal while nothing names a new version, different as
/// soon as any writer (another handle, another process, plain git) moves the branch.
final class HeadStampTests: XCTestCase {
    func testGivenAnOpenDocumentWhenAnotherHandleOrGitMovesTheBranchThenTheStampChangesAndOtherwiseNot() throws {
        let dir = TemporaryDirectory()
        let env = dir.environment()
        let store = DocumentStore(settings: Settings(sync: .none), environment: env)
        let window = try store.create(at: dir.path("Doc"), contentType: .plainText, title: "Doc")
        let first = window.headStamp()
        // Nothing changed: equal (and reading does not change it).
        _ = try window.head()
        XCTAssertEqual(window.headStamp(), first)
        // Another handle writes a version: different.
        let writer = try store.open(at: window.url)
        try writer.write(Data("one\n".utf8), to: "document.txt", message: "One")
        let second = window.headStamp()
        XCTAssertNotEqual(second, first)
        // git packs the refs (the loose ref goes, packed-refs names it): different again, though the commit is the same.
        XCTAssertEqual(try git(["pack-refs", "--all"], in: window.url, environment: env).status, 0)
        XCTAssertNotEqual(window.headStamp(), second)
        // git moves the branch back: different.
        let third = window.headStamp()
        XCTAssertEqual(try git(["update-ref", "refs/heads/main", "HEAD~1"], in: window.url, environment: env).status, 0)
        XCTAssertNotEqual(window.headStamp(), third)
    }
}
