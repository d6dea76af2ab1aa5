@testable import FolioCLI
import FolioCLITestSupport
import FolioCore
import FolioLaunch
import Foundation
import XCTest

/// `folio tag` and the History screen's `t` refuse a name git refuses, in one line of Folio's words, writing nothing.
final class VersionNameCLITests: XCTestCase {
    var dir: TemporaryDirectory!
    var env: [String: String]!

    override func setUpWithError() throws {
        dir = TemporaryDirectory()
        env = dir.environment()
        XCTAssertEqual(runFolio(["new", "Doc"], environment: env, cwd: dir.url).status, 0)
    }

    func assertNoTagsAndFsckClean(file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try git(["tag", "--list"], in: dir.path("Doc"), environment: env).stdout, "", file: file, line: line)
        let fsck = try git(["fsck", "--strict", "--no-dangling"], in: dir.path("Doc"), environment: env)
        XCTAssertEqual(fsck.status, 0, file: file, line: line)
        XCTAssertEqual(fsck.stdout + fsck.stderr, "", file: file, line: line)
    }

    func testGivenNamesGitRefusesWhenTaggedOnTheCommandLineThenOneLineInFolioWordsAndNoTag() throws {
        // Given a document; when `folio tag` gets each name git refuses (the first used to be stored as a tag object
        // named "/x", the others got libgit2's own message)
        let cases = [
            ("/x", "/x", "it cannot start or end with '/'"), ("x/", "x/", "it cannot start or end with '/'"),
            (".x", ".x", "it cannot start with '.'"), ("a..b", "a..b", "it cannot hold '..'"),
            ("x.lock", "x.lock", "it cannot end with '.lock'"), ("@{", "@{", "it cannot hold '@{'"),
            ("a\u{1B}b", "a\\u{1B}b", "it holds a control character"), ("a\u{7F}", "a\\u{7F}", "it holds a control character"),
        ]
        for (name, shown, why) in cases {
            let result = runFolio(["tag", "Doc", name], environment: env, cwd: dir.url)
            // Then each is refused in one line saying why, the name shown without its control characters
            XCTAssertEqual(result.status, 1, name)
            XCTAssertEqual(result.stderr, "folio tag: '\(shown)' is not a valid version name: \(why)\n", shown)
        }
        // And no tag was written, and git's strictest check is clean
        try assertNoTagsAndFsckClean()
    }

    func testGivenTheHistoryScreensTagFormWhenANameGitRefusesIsSubmittedThenTheTagIsRefusedAndNothingIsWritten() throws {
        // Given the editor host's session on the document (what the History screen's `t` form submits to)
        let session = try DocumentSessionAdapter(url: dir.path("Doc"), environment: env)
        let head = try git(["rev-parse", "HEAD"], in: dir.path("Doc"), environment: env).stdout.trimmingCharacters(in: .newlines)
        // When the form submits "/x" (its field's pattern lets it through)
        XCTAssertThrowsError(try session.performNow(.tag(commitID: head, name: "/x"))) { error in
            // Then the tag is refused with the reason, which the form shows on its field
            XCTAssertEqual(error as? FolioError, .invalidVersionName("/x"))
            XCTAssertEqual("\(error)", "'/x' is not a valid version name: it cannot start or end with '/'")
        }
        try assertNoTagsAndFsckClean()
    }
}
