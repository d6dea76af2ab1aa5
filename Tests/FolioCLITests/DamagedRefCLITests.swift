import FolioCLITestSupport
import Foundation
import XCTest

/// A branch ref or HEAD that looks wrong stops every read and write with one line saying so and how to repair it;
/// `folio status --repair` restores it with the whole history, and nothing ever starts a new root commit.
final class DamagedRefCLITests: XCTestCase {
    var dir: TemporaryDirectory!
    var env: [String: String]!
    /// The three versions of the document before the damage, newest first.
    var history: [String] = []

    override func setUpWithError() throws {
        dir = TemporaryDirectory()
        env = dir.environment()
        try folio("new", "Doc")
        try folio("write", "Doc", "notes.txt", stdin: "one\n")
        try folio("write", "Doc", "notes.txt", stdin: "two\n")
        history = try gitOut("rev-list", "HEAD").split(separator: "\n").map(String.init)
        XCTAssertEqual(history.count, 3)
    }

    @discardableResult
    func folio(_ args: String..., stdin: String = "", expect status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        let result = runFolio(args, environment: env, cwd: dir.url, stdin: Data(stdin.utf8))
        XCTAssertEqual(result.status, status, "folio \(args.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        return result
    }

    func gitOut(_ args: String...) throws -> String {
        try git(args, in: dir.path("Doc"), environment: env).stdout
    }

    var gitFolder: URL { dir.path("Doc/.git") }

    /// Every commit object the repository holds, named or not (read from a copy whose HEAD git accepts).
    func allCommits() throws -> Set<String> {
        let probe = dir.path("probe.git")
        try? FileManager.default.removeItem(at: probe)
        try FileManager.default.copyItem(at: gitFolder, to: probe)
        try? FileManager.default.removeItem(at: probe.appendingPathComponent("HEAD"))
        try Data("ref: refs/heads/probe\n".utf8).write(to: probe.appendingPathComponent("HEAD"))
        let objects = try git(["--git-dir", probe.path, "cat-file", "--batch-all-objects", "--batch-check=%(objecttype) %(objectname)"],
                              in: dir.url, environment: env).stdout
        return Set(objects.split(separator: "\n").filter { $0.hasPrefix("commit ") }.map { String($0.dropFirst(7)) })
    }

    /// Damages the document with `damage`, then checks the whole story: reads and writes refused in one line naming
    /// `problem` with the repair hint, no commit made, `status --repair` restoring every version, fsck clean, and
    /// the next write building on the old tip.
    func assertRefusedThenRepaired(_ problem: String, file: StaticString = #filePath, line: UInt = #line, damage: () throws -> Void) throws {
        let commitsBefore = try allCommits()
        try damage()
        let path = dir.path("Doc").path
        let action = problem.hasPrefix("HEAD") ? "make HEAD name the branch again" : "restore it from the newest version the repository holds"
        let expected = "\(path): \(problem); nothing was read or changed; run 'folio status \(path) --repair' to \(action)\n"
        // When a read command runs, then it says so in one line and fails (it used to print nothing, exit 0)
        for command in [["log", "Doc"], ["status", "Doc"], ["show", "Doc", "HEAD~1"], ["diff", "Doc"]] {
            let read = try folio(command[0], command[1], expect: 1, file: file, line: line)
            XCTAssertEqual(read.stderr, "folio \(command[0]): " + expected, file: file, line: line)
            XCTAssertEqual(read.stdout, "", file: file, line: line)
        }
        // And a write is refused the same way, making no commit (never a new root commit)
        let write = try folio("write", "Doc", "notes.txt", stdin: "three\n", expect: 1, file: file, line: line)
        XCTAssertEqual(write.stderr, "folio write: " + expected, file: file, line: line)
        XCTAssertEqual(try folio("tag", "Doc", "v1", expect: 1, file: file, line: line).stderr, "folio tag: " + expected, file: file, line: line)
        XCTAssertEqual(try allCommits(), commitsBefore, file: file, line: line)
        // When the repair runs, then it says what was wrong and what it did, and the status follows
        let repair = try folio("status", "Doc", "--repair", file: file, line: line)
        XCTAssertTrue(repair.stdout.hasPrefix("Repaired: \(problem)"), repair.stdout, file: file, line: line)
        XCTAssertTrue(repair.stdout.contains("On main at \(history[0].prefix(7)); no unrecorded changes"), repair.stdout, file: file, line: line)
        // And the whole history is back, git's strictest check is clean, and the next change builds on the old tip
        XCTAssertEqual(try gitOut("rev-list", "HEAD").split(separator: "\n").map(String.init), history, file: file, line: line)
        XCTAssertEqual(try gitOut("symbolic-ref", "HEAD"), "refs/heads/main\n", file: file, line: line)
        let fsck = try git(["fsck", "--strict", "--no-dangling"], in: dir.path("Doc"), environment: env)
        XCTAssertEqual(fsck.status, 0, file: file, line: line)
        XCTAssertEqual(fsck.stdout + fsck.stderr, "", file: file, line: line)
        try folio("write", "Doc", "notes.txt", stdin: "three\n", file: file, line: line)
        XCTAssertEqual(try gitOut("rev-parse", "HEAD~1"), history[0] + "\n", file: file, line: line)
        XCTAssertEqual(try gitOut("rev-list", "--count", "HEAD"), "4\n", file: file, line: line)
        // And a second repair finds nothing to do
        XCTAssertFalse(try folio("status", "Doc", "--repair", file: file, line: line).stdout.contains("Repaired"), file: file, line: line)
    }

    func testGivenTheBranchRefTurnedIntoAnEmptyFolderWhenReadWrittenAndRepairedThenNothingIsLost() throws {
        try assertRefusedThenRepaired("the branch refs/heads/main is a folder, not a ref") {
            try FileManager.default.removeItem(at: gitFolder.appendingPathComponent("refs/heads/main"))
            try FileManager.default.createDirectory(at: gitFolder.appendingPathComponent("refs/heads/main"), withIntermediateDirectories: false)
        }
    }

    func testGivenTheBranchRefEmptiedWhenReadWrittenAndRepairedThenNothingIsLost() throws {
        try assertRefusedThenRepaired("the branch refs/heads/main is an empty file") {
            try Data().write(to: gitFolder.appendingPathComponent("refs/heads/main"))
        }
    }

    func testGivenTheBranchRefHoldingGarbageWhenReadWrittenAndRepairedThenNothingIsLost() throws {
        try assertRefusedThenRepaired("the branch refs/heads/main holds no version id") {
            try Data("not an id at all\n".utf8).write(to: gitFolder.appendingPathComponent("refs/heads/main"))
        }
    }

    func testGivenTheBranchRefNamingAMissingObjectWhenReadWrittenAndRepairedThenNothingIsLost() throws {
        try assertRefusedThenRepaired("the branch refs/heads/main names 1234567, which is not in the repository") {
            try Data("1234567890123456789012345678901234567890\n".utf8).write(to: gitFolder.appendingPathComponent("refs/heads/main"))
        }
    }

    func testGivenTheBranchRefDeletedWhenReadWrittenAndRepairedThenNothingIsLost() throws {
        try assertRefusedThenRepaired("the branch refs/heads/main is missing") {
            try FileManager.default.removeItem(at: gitFolder.appendingPathComponent("refs/heads/main"))
        }
    }

    func testGivenHEADHoldingGarbageWhenReadWrittenAndRepairedThenNothingIsLost() throws {
        try assertRefusedThenRepaired("HEAD is damaged (garbled)") {
            try Data("garbage\n".utf8).write(to: gitFolder.appendingPathComponent("HEAD"))
        }
    }

    func testGivenHEADNamingATagWhenReadWrittenAndRepairedThenNothingIsLost() throws {
        // (Writes used to go to refs/tags/x as a new root commit.)
        try assertRefusedThenRepaired("HEAD names refs/tags/x, which is not a branch") {
            try Data("ref: refs/tags/x\n".utf8).write(to: gitFolder.appendingPathComponent("HEAD"))
        }
    }

    func testGivenADetachedHEADWhenReadWrittenAndRepairedThenNothingIsLost() throws {
        // (Reads used to show the detached version while writes went to main.)
        try assertRefusedThenRepaired("HEAD names version \(history[2].prefix(7)) instead of a branch") {
            try Data((history[2] + "\n").utf8).write(to: gitFolder.appendingPathComponent("HEAD"))
        }
    }

    func testGivenHEADAndTheBranchBothDamagedWhenRepairedThenBothAreRestored() throws {
        try assertRefusedThenRepaired("HEAD is damaged (empty)") {
            try Data().write(to: gitFolder.appendingPathComponent("HEAD"))
            try Data("zz\n".utf8).write(to: gitFolder.appendingPathComponent("refs/heads/main"))
        }
    }
}
