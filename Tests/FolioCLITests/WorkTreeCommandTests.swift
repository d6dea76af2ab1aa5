@testable import FolioCLI
import FolioCore
import FolioCLITestSupport
import Foundation
import XCTest

/// What a user sees when the work tree cannot be written, and on a document they may only read.
final class WorkTreeCommandTests: FolioCommandTestCase {
    func testGivenAFullDiskWhenWritingThenTheChangeIsKeptEveryCommandWorksAndStatusRepairMendsTheWorkTree() throws {
        guard let disk = SmallFileSystem(at: dir.path("disk"), bytes: 2 << 20) else { throw XCTSkip("mounting a tmpfs needs root") }
        let doc = disk.url.appendingPathComponent("Doc").path
        folio("new", doc)
        try disk.fill(leaving: 64 << 10)
        let big = String(repeating: "\n", count: 300_000)
        // When a write cannot reach the work tree, then it succeeds with a warning naming the file, the cause and the mend
        let write = folio("write", doc, "big.txt", stdin: big)
        let noSpace = String(cString: strerror(ENOSPC))
        XCTAssertTrue(write.stderr.contains("work tree out of date: big.txt (\(noSpace))"), write.stderr)
        XCTAssertTrue(write.stderr.contains("folio status \(doc) --repair"), write.stderr)
        XCTAssertEqual(write.stderr.split(separator: "\n").count, 1)
        // And every command still works: log, show, diff, status
        XCTAssertTrue(folio("log", doc).stdout.contains("Edit big.txt"))
        XCTAssertEqual(folio("show", doc, "--file", "big.txt").stdout, big)
        XCTAssertTrue(folio("diff", doc).stdout.contains("+++ b/big.txt"))
        XCTAssertTrue(folio("status", doc).stdout.contains("work tree out of date: big.txt (\(noSpace))"))
        // And `commit` refuses to record the stale work tree (it would take the change back)
        let commit = folio("commit", doc, expect: 1)
        XCTAssertTrue(commit.stderr.contains("work tree out of date: big.txt"), commit.stderr)
        XCTAssertEqual(folio("log", doc).stdout.split(separator: "\n").count, 2)
        // When the disk has room again, then `status --repair` writes the file and the document is clean
        try disk.drain()
        let repaired = folio("status", doc, "--repair")
        XCTAssertFalse(repaired.stdout.contains("out of date"), repaired.stdout)
        XCTAssertEqual(FileManager.default.contents(atPath: doc + "/big.txt"), Data(big.utf8))
        XCTAssertEqual(try git(["status", "--porcelain"], in: URL(fileURLWithPath: doc), environment: env).stdout, "")
        XCTAssertEqual(try git(["fsck", "--strict"], in: URL(fileURLWithPath: doc), environment: env).status, 0)
    }

    func testGivenAnOutOfDateWorkTreeWhenStatusRepairRunsThenItReportsWhatItWrote() throws {
        guard let disk = SmallFileSystem(at: dir.path("disk"), bytes: 2 << 20) else { throw XCTSkip("mounting a tmpfs needs root") }
        let doc = disk.url.appendingPathComponent("Doc").path
        folio("new", doc)
        try disk.fill(leaving: 64 << 10)
        folio("write", doc, "big.txt", stdin: String(repeating: "x", count: 300_000))
        // Given the document opened before the disk has room (so opening cannot mend it), when repair runs after
        let document = try DocumentStore(environment: env).open(at: URL(fileURLWithPath: doc))
        XCTAssertEqual(try document.workTreeStatus().outOfDate, ["big.txt"])
        try disk.drain()
        var lines: [String] = []
        let capture = CommandIO(environment: env, currentDirectory: dir.url, isInteractive: false,
                                out: { lines.append($0) }, err: { lines.append($0) }, stdin: { Data() })
        try reportWorkTree(document, repair: true, json: false, capture)
        // Then it says which files it wrote, and the work tree is current
        XCTAssertEqual(lines, ["Work tree repaired: big.txt\n"])
        XCTAssertEqual(try document.workTreeStatus(), .current)
    }

    func testGivenAReadOnlyFileSystemWhenReadingThenLogShowDiffStatusWorkAndAWriteFailsWithOneLine() throws {
        let doc = dir.path("Doc").path
        folio("new", doc)
        folio("write", doc, "document.txt", stdin: "text\n")
        try FileManager.default.removeItem(atPath: doc + "/.git/folio")
        guard let readOnly = ReadOnlyBind(URL(fileURLWithPath: doc)) else { throw XCTSkip("a read-only bind mount needs root") }
        XCTAssertEqual(folio("log", doc).stdout.split(separator: "\n").count, 2)
        XCTAssertEqual(folio("show", doc).stdout, "text\n")
        XCTAssertTrue(folio("diff", doc).stdout.contains("+text"))
        XCTAssertTrue(folio("status", doc).stdout.contains("no unrecorded changes"))
        let write = folio("write", doc, "document.txt", stdin: "more\n", expect: 1)
        XCTAssertEqual(write.stderr.split(separator: "\n").count, 1, write.stderr)
        XCTAssertTrue(write.stderr.contains(String(cString: strerror(EROFS))), write.stderr)
        withExtendedLifetime(readOnly) {}
        XCTAssertFalse(FileManager.default.fileExists(atPath: doc + "/.git/folio"), "reading created no lock file")
    }

    func testGivenADocumentTheUserMayOnlyReadWhenReadingAsThatUserThenLogShowDiffStatusWork() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw XCTSkip("running as another user needs root and setpriv")
        }
        let doc = dir.path("Doc").path
        folio("new", doc)
        folio("write", doc, "document.txt", stdin: "text\n")
        // Given the document belongs to `nobody` and nobody may write it (root ignores permissions, so run as nobody)
        XCTAssertEqual(try runProgram("/usr/bin/chown", ["-R", "65534:65534", doc]).status, 0)
        XCTAssertEqual(try runProgram("/usr/bin/chmod", ["-R", "a-w", doc]).status, 0)
        XCTAssertEqual(try runProgram("/usr/bin/chmod", ["a+rx", dir.url.path, dir.path("home").path]).status, 0)
        func asNobody(_ args: String..., stdin: String = "") throws -> RunResult {
            try runProgram("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", folioExecutable.path] + args,
                           cwd: dir.url, environment: env, stdin: Data(stdin.utf8))
        }
        // When reading, then every read-only command works
        let log = try asNobody("log", doc)
        XCTAssertEqual(log.status, 0, log.stderr)
        XCTAssertEqual(log.stdout.split(separator: "\n").count, 2)
        XCTAssertEqual(try asNobody("show", doc).stdout, "text\n")
        XCTAssertEqual(try asNobody("diff", doc).status, 0)
        let status = try asNobody("status", doc)
        XCTAssertEqual(status.status, 0, status.stderr)
        // And a write fails with one line and changes nothing
        let write = try asNobody("write", doc, "document.txt", stdin: "more\n")
        XCTAssertEqual(write.status, 1)
        XCTAssertEqual(write.stderr.split(separator: "\n").count, 1, write.stderr)
        XCTAssertTrue(write.stderr.contains(doc) && write.stderr.contains(String(cString: strerror(EACCES))), write.stderr)
        XCTAssertEqual(try asNobody("log", doc).stdout.split(separator: "\n").count, 2)
    }

    func testGivenADocumentOfAnotherUserWhenReadThenOneLineSaysWhoseItIs() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw XCTSkip("running as another user needs root and setpriv")
        }
        // Given root's document, readable by everyone, and no git config at all in the reader's home
        let doc = dir.path("Doc").path
        folio("new", doc)
        XCTAssertEqual(try runProgram("/usr/bin/chmod", ["-R", "a+rX", dir.url.path]).status, 0)
        // When nobody reads it
        let log = try runProgram("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", folioExecutable.path, "log", doc],
                                 cwd: dir.url, environment: env, stdin: Data())
        // Then one line names the document and the owner check, not a missing config value
        XCTAssertEqual(log.status, 1)
        XCTAssertEqual(log.stderr, "folio log: \(doc): not a Folio document (it belongs to another user; git's safe.directory setting must list it)\n")
    }

    func testGivenGitDirAndGitWorkTreeInTheProcessEnvironmentWhenWritingThenTheDocumentIsWritten() throws {
        let doc = dir.path("Doc").path
        folio("new", doc)
        let other = dir.path("other")
        try git(["init", "-q", other.path], in: dir.url, environment: env)
        // Given a `folio` process whose environment points git elsewhere, and a document whose config does too
        let hostile = dir.environment(["GIT_DIR": other.path + "/.git", "GIT_WORK_TREE": other.path, "GIT_INDEX_FILE": other.path + "/index"])
        try git(["config", "core.worktree", other.path], in: URL(fileURLWithPath: doc), environment: env)
        // When it writes a file, then the file and its commit land in the document, nothing in the other repository
        let write = try runProgram(folioExecutable.path, ["write", doc, "a.txt"], cwd: dir.url, environment: hostile, stdin: Data("mine".utf8))
        XCTAssertEqual(write.status, 0, write.stderr)
        XCTAssertEqual(FileManager.default.contents(atPath: doc + "/a.txt"), Data("mine".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: other.path), [".git"])
        XCTAssertEqual(try git(["rev-list", "--all"], in: other, environment: env).stdout, "")
        XCTAssertTrue(folio("log", doc).stdout.contains("Edit a.txt"))
    }

    func testGivenALinkOutOfTheDocumentInTheWorkTreeWhenCommittedThenOneLineAndNothingIsRecorded() throws {
        // Given a document whose work tree gained a link to /etc/passwd, and one climbing out of it
        let doc = dir.path("Doc").path
        folio("new", doc)
        for (name, target) in [("pw", "/etc/passwd"), ("up", "../elsewhere")] {
            try FileManager.default.createSymbolicLink(atPath: doc + "/" + name, withDestinationPath: target)
            // When folio commit records the work tree
            let commit = folio("commit", doc, expect: 1)
            // Then one line names the link and why, and no version was made (collaborators would refuse it)
            XCTAssertEqual(commit.stderr.split(separator: "\n").count, 1, commit.stderr)
            XCTAssertTrue(commit.stderr.contains("'\(name)': a symbolic link to '\(target)'") && commit.stderr.contains("nothing was changed"), commit.stderr)
            XCTAssertEqual(folio("log", doc).stdout.split(separator: "\n").count, 1)
            try FileManager.default.removeItem(atPath: doc + "/" + name)
        }
        // And a link inside the document is recorded as before
        try FileManager.default.createSymbolicLink(atPath: doc + "/same", withDestinationPath: "document.txt")
        XCTAssertEqual(folio("commit", doc).status, 0)
        XCTAssertEqual(folio("log", doc).stdout.split(separator: "\n").count, 2)
    }

    func testGivenALinkToAFolderOutsideWhenWritingThroughItThenOneLineAndNothingOutside() throws {
        let doc = dir.path("Doc").path
        folio("new", doc)
        let elsewhere = dir.path("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: doc + "/out", withDestinationPath: elsewhere.path)
        let write = folio("write", doc, "out/file", stdin: "x", expect: 1)
        XCTAssertEqual(write.stderr, "folio write: \(doc)/out/file: cannot be written because 'out' is a symbolic link (Folio does not write through links)\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [])
        XCTAssertEqual(folio("log", doc).stdout.split(separator: "\n").count, 1)
    }
}
