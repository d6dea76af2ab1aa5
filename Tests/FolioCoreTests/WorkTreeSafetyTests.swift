import FolioCore
import FolioGit
import FolioTestSupport
import Foundation
import XCTest

/// A document is never wedged and nothing is written outside it: what the file system would refuse is refused before
/// anything is committed; links and git settings never lead a write out of the document; a failed work-tree write
/// keeps the change, leaves the document usable, and is mended by `repairWorkTree()`.
final class WorkTreeSafetyTests: StoreTestCase {
    private func commitCount(_ document: Document) throws -> Int { try document.log(limit: 1000).count }

    private func assertRefused(_ expression: @autoclosure () throws -> Any, _ expected: WorkTreeError, nothingCommittedIn document: Document,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try document.head().id
        XCTAssertThrowsError(try expression(), file: file, line: line) { error in
            XCTAssertEqual(error as? WorkTreeError, expected, file: file, line: line)
            XCTAssertFalse("\(error)".contains("\n"), "one line: \(error)", file: file, line: line)
        }
        XCTAssertEqual(try document.head().id, before, "nothing committed", file: file, line: line)
        XCTAssertEqual(try store.open(at: document.url).head().id, before, "the document still opens", file: file, line: line)
    }

    // MARK: Checked before committing

    func testGivenA255ByteNameWhenWrittenThenItIsInTheWorkTreeAndA256ByteNameIsRefused() throws {
        let document = try store.create(at: dir.path("Doc"))
        let longest = String(repeating: "n", count: 255)
        // When a name of the full 255 bytes is written, then it lands (the temporary name beside it is short)
        try document.write(Data("ok".utf8), to: longest, message: "Long")
        XCTAssertEqual(FileManager.default.contents(atPath: document.url.path + "/" + longest), Data("ok".utf8))
        // And one byte more is refused before committing, naming the user's path
        let tooLong = longest + "n"
        try assertRefused(try document.write(Data("x".utf8), to: "sub/" + tooLong, message: "Too long"),
                          .nameTooLong(path: document.url.path + "/sub/" + tooLong, name: tooLong, bytes: 256), nothingCommittedIn: document)
    }

    func testGivenAPathOverPathMaxWhenWrittenThenRefusedAndTheDocumentStillWorks() throws {
        let document = try store.create(at: dir.path("Doc"))
        let path = Array(repeating: String(repeating: "d", count: 200), count: 21).joined(separator: "/") + "/f"
        let bytes = document.url.path.utf8.count + 1 + path.utf8.count
        try assertRefused(try document.write(Data("x".utf8), to: path, message: "Deep"),
                          .pathTooLong(path: document.url.path + "/" + path, bytes: bytes), nothingCommittedIn: document)
        XCTAssertNotNil(try document.write(Data("still fine".utf8), to: "document.txt", message: "After"))
    }

    func testGivenAFileWhereAFolderMustBeWhenWrittenThenRefusedNamingIt() throws {
        let document = try store.create(at: dir.path("Doc"))
        // A tracked file `a`, an untracked file `u` and an untracked folder `dir` in the work tree
        try document.write(Data("a".utf8), to: "a", message: "A")
        try Data("u".utf8).write(to: dir.path("Doc/u"))
        try FileManager.default.createDirectory(at: dir.path("Doc/dir/sub"), withIntermediateDirectories: true)
        let root = document.url.path
        try assertRefused(try document.write(Data("x".utf8), to: "a/b", message: "Under a file"),
                          .notAFolder(path: root + "/a/b", file: "a"), nothingCommittedIn: document)
        try assertRefused(try document.write(Data("x".utf8), to: "u/b", message: "Under an untracked file"),
                          .notAFolder(path: root + "/u/b", file: "u"), nothingCommittedIn: document)
        try assertRefused(try document.write(Data("x".utf8), to: "dir", message: "Over a folder"),
                          .isAFolder(path: root + "/dir"), nothingCommittedIn: document)
        // And a change writing both `p` and `p/q` is refused as a whole
        try assertRefused(try document.apply([.write(path: "p", data: Data()), .write(path: "p/q", data: Data())], message: "Both"),
                          .notAFolder(path: root + "/p/q", file: "p"), nothingCommittedIn: document)
    }

    func testGivenATrackedFileDeletedFromTheWorkTreeWhenWritingBelowItThenRefusedBeforeCommitting() throws {
        let document = try store.create(at: dir.path("Doc"))
        try document.write(Data("a".utf8), to: "a", message: "A")
        try FileManager.default.removeItem(at: dir.path("Doc/a"))
        try assertRefused(try document.write(Data("x".utf8), to: "a/b", message: "Under a file in the history"),
                          .notAFolder(path: document.url.path + "/a/b", file: "a"), nothingCommittedIn: document)
        // And a file over a folder of the history, gone from the work tree, is refused the same way
        try document.write(Data("u".utf8), to: "t/u", message: "T")
        try FileManager.default.removeItem(at: dir.path("Doc/t"))
        try assertRefused(try document.write(Data("x".utf8), to: "t", message: "Over a folder in the history"),
                          .isAFolder(path: document.url.path + "/t"), nothingCommittedIn: document)
    }

    func testGivenADocumentNameOf250BytesWhenCreatedThenItWorksAnd256BytesIsRefusedNamingIt() throws {
        let name = String(repeating: "D", count: 250)
        let document = try store.create(at: dir.path(name))
        XCTAssertNotNil(try document.write(Data("x".utf8), to: "document.txt", message: "Edit"))
        let tooLong = String(repeating: "E", count: 256)
        XCTAssertThrowsError(try store.create(at: dir.path(tooLong))) { error in
            XCTAssertEqual(error as? WorkTreeError, .nameTooLong(path: dir.path(tooLong).path, name: tooLong, bytes: 256))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.hasPrefix(".folio") }, [])
    }

    // MARK: Nothing outside the document

    func testGivenALinkToAFolderOutsideWhenWritingThroughItThenRefusedAndNothingIsWrittenOutside() throws {
        let document = try store.create(at: dir.path("Doc"))
        let elsewhere = dir.path("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.path("Doc/out").path, withDestinationPath: elsewhere.path)
        try FileManager.default.createDirectory(at: dir.path("Doc/sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.path("Doc/in").path, withDestinationPath: "sub")
        let root = document.url.path
        // When a file is written through the link, then it is refused, nothing is committed and nothing lands outside
        try assertRefused(try document.write(Data("x".utf8), to: "out/file", message: "Out"),
                          .linkInPath(path: root + "/out/file", link: "out"), nothingCommittedIn: document)
        try assertRefused(try document.write(Data("x".utf8), to: "out/deeper/file", message: "Out"),
                          .linkInPath(path: root + "/out/deeper/file", link: "out"), nothingCommittedIn: document)
        // And a link to a folder inside the document is not followed either
        try assertRefused(try document.write(Data("x".utf8), to: "in/file", message: "In"),
                          .linkInPath(path: root + "/in/file", link: "in"), nothingCommittedIn: document)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path("Doc/sub").path), [])
    }

    func testGivenAFolderReplacedByALinkWhenUndoWouldWriteIntoItThenRefusedAndNothingIsWrittenOutside() throws {
        let document = try store.create(at: dir.path("Doc"))
        try document.write(Data("one".utf8), to: "notes/today.txt", message: "One")
        try document.write(Data("two".utf8), to: "notes/today.txt", message: "Two")
        // Given the folder `notes` replaced, outside Folio, by a link to a folder outside the document
        let elsewhere = dir.path("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try Data("theirs".utf8).write(to: elsewhere.appendingPathComponent("today.txt"))
        try FileManager.default.removeItem(at: dir.path("Doc/notes"))
        try FileManager.default.createSymbolicLink(atPath: dir.path("Doc/notes").path, withDestinationPath: elsewhere.path)
        // When the last change is undone (which rewrites notes/today.txt), then it is refused and the file outside is untouched
        try assertRefused(try document.undo(), .linkInPath(path: document.url.path + "/notes/today.txt", link: "notes"), nothingCommittedIn: document)
        XCTAssertEqual(FileManager.default.contents(atPath: elsewhere.appendingPathComponent("today.txt").path), Data("theirs".utf8))
        // And deleting the file through the link removes nothing outside
        _ = try? document.apply([.delete(path: "notes/today.txt")], message: "Delete")
        XCTAssertEqual(FileManager.default.contents(atPath: elsewhere.appendingPathComponent("today.txt").path), Data("theirs".utf8))
    }

    func testGivenCoreWorktreeAndCoreBareInTheConfigWhenWritingThenTheDocumentFolderIsTheWorkTree() throws {
        let document = try store.create(at: dir.path("Doc"))
        let elsewhere = dir.path("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try git(["config", "core.worktree", elsewhere.path], in: document.url, environment: env)
        // When the document is opened and written, then the file lands in the document, none in the other folder
        let reopened = try store.open(at: document.url)
        try reopened.write(Data("here".utf8), to: "a.txt", message: "A")
        XCTAssertEqual(FileManager.default.contents(atPath: dir.path("Doc/a.txt").path), Data("here".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [])
        // And with core.bare = true as well, the document still opens and writes into its folder
        try git(["config", "--unset", "core.worktree"], in: document.url, environment: env)
        try git(["config", "core.bare", "true"], in: document.url, environment: env)
        try store.open(at: document.url).write(Data("still".utf8), to: "b.txt", message: "B")
        XCTAssertEqual(FileManager.default.contents(atPath: dir.path("Doc/b.txt").path), Data("still".utf8))
    }

    func testGivenGitDirAndGitWorkTreeInTheEnvironmentWhenWritingThenTheyAreIgnored() throws {
        let document = try store.create(at: dir.path("Doc"))
        let other = dir.path("other")
        try git(["init", "-q", other.path], in: dir.url, environment: env)
        let hostile = DocumentStore(settings: Settings(sync: .none),
                                    environment: dir.environment(["GIT_DIR": other.path + "/.git", "GIT_WORK_TREE": other.path]))
        try hostile.open(at: document.url).write(Data("mine".utf8), to: "a.txt", message: "A")
        XCTAssertEqual(FileManager.default.contents(atPath: dir.path("Doc/a.txt").path), Data("mine".utf8))
        XCTAssertFalse(FileManager.default.fileExists(atPath: other.appendingPathComponent("a.txt").path))
        XCTAssertEqual(try git(["rev-list", "--all"], in: other, environment: env).stdout, "", "nothing committed to the other repository")
    }

    func testGivenAGitfileOrALinkedGitFolderWhenOpenedThenRefusedWithOneLine() throws {
        let document = try store.create(at: dir.path("Doc"))
        // Given a second document whose .git is a `gitdir:` file naming the first one's, and a third whose .git is a link
        try FileManager.default.createDirectory(at: dir.path("Gitfile/.folio"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: dir.path("Doc/.folio/document.json"), to: dir.path("Gitfile/.folio/document.json"))
        try Data("gitdir: \(document.url.path)/.git\n".utf8).write(to: dir.path("Gitfile/.git"))
        try FileManager.default.createDirectory(at: dir.path("Linked/.folio"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: dir.path("Doc/.folio/document.json"), to: dir.path("Linked/.folio/document.json"))
        try FileManager.default.createSymbolicLink(atPath: dir.path("Linked/.git").path, withDestinationPath: document.url.path + "/.git")
        for name in ["Gitfile", "Linked"] {
            XCTAssertThrowsError(try store.open(at: dir.path(name))) { error in
                XCTAssertEqual(error as? WorkTreeError, .redirectedGitFolder(document: dir.path(name).path,
                                                                             what: ".git is a link or a file pointing elsewhere, not a folder"))
            }
        }
    }

    // MARK: Errors a user can act on

    func testGivenGitFolioIsAFileWhenWritingThenOneLineNamesItAndReadingStillWorks() throws {
        let document = try store.create(at: dir.path("Doc"))
        try FileManager.default.removeItem(at: dir.path("Doc/.git/folio"))
        try Data("x".utf8).write(to: dir.path("Doc/.git/folio"))
        let reopened = try store.open(at: document.url)
        XCTAssertEqual(try reopened.log(limit: 10).count, 1)
        XCTAssertThrowsError(try reopened.write(Data("x".utf8), to: "document.txt", message: "Edit")) { error in
            let lockPath = document.url.path + "/.git/folio/lock"
            XCTAssertEqual(error as? WorkTreeError, .lockUnavailable(path: lockPath, cause: document.url.path + "/.git/folio is not a folder"))
            XCTAssertFalse("\(error)".contains("Domain"))
        }
    }

    func testGivenAReadOnlyOpenWhenReadingThenNoLockFileIsCreated() throws {
        let document = try store.create(at: dir.path("Doc"))
        try document.write(Data("text".utf8), to: "document.txt", message: "Edit")
        try FileManager.default.removeItem(at: dir.path("Doc/.git/folio"))
        let reader = try store.open(at: document.url, readOnly: true)
        XCTAssertEqual(try reader.read(path: "document.txt"), Data("text".utf8))
        XCTAssertEqual(try reader.workTreeStatus(), .current)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("Doc/.git/folio").path))
    }

    // MARK: A failed work-tree write

    func testGivenAFullDiskWhenTheWorkTreeWriteFailsThenTheChangeIsKeptTheDocumentStaysUsableAndRepairMendsIt() throws {
        guard let disk = SmallFileSystem(at: dir.path("disk"), bytes: 2 << 20) else { throw XCTSkip("mounting a tmpfs needs root") }
        let document = try store.create(at: disk.url.appendingPathComponent("Doc"))
        try disk.fill(leaving: 64 << 10)
        // When 300 KB of zeros are written (a tiny object, so the commit fits and only the work-tree write fails)
        let big = Data(count: 300_000)
        let commit = try XCTUnwrap(try document.write(big, to: "big.txt", message: "Big"))
        // Then the change is kept and the document says what is out of date and why
        let full = WorkTreeStatus(outOfDate: ["big.txt"], cause: String(cString: strerror(ENOSPC)))
        XCTAssertEqual(document.workTreeProblem, full)
        XCTAssertEqual(try document.read(path: "big.txt"), big)
        // And opening it again works (the failed write is not retried into an error) and reports the same
        let reopened = try store.open(at: document.url)
        XCTAssertEqual(try reopened.head().id, commit.id)
        XCTAssertEqual(try reopened.workTreeStatus(), full)
        // And recording the work tree as it is is refused: it would take the change back
        XCTAssertThrowsError(try reopened.commitWorkTree()) { error in
            XCTAssertEqual(error as? WorkTreeError, .outOfDate(document: reopened.url.path, files: ["big.txt"], cause: full.cause ?? ""))
        }
        // And a further change is still kept
        XCTAssertNotNil(try reopened.write(Data("small".utf8), to: "small.txt", message: "Small"))
        XCTAssertEqual(try reopened.log().map(\.summary), ["Small", "Big", "Create Doc"])
        XCTAssertEqual(try reopened.workTreeStatus().outOfDate, ["big.txt", "small.txt"])
        // When the disk has room again, then repairing writes every out-of-date file
        try disk.drain()
        XCTAssertEqual(try reopened.repairWorkTree(), .current)
        XCTAssertEqual(FileManager.default.contents(atPath: document.url.path + "/big.txt"), big)
        XCTAssertEqual(FileManager.default.contents(atPath: document.url.path + "/small.txt"), Data("small".utf8))
        XCTAssertEqual(try git(["status", "--porcelain"], in: document.url, environment: env).stdout, "")
        XCTAssertEqual(try git(["fsck", "--strict"], in: document.url, environment: env).status, 0)
    }

    func testGivenAFullDiskWhenTheObjectCannotBeStoredThenTheErrorNamesTheFileAndTheCause() throws {
        guard let disk = SmallFileSystem(at: dir.path("disk"), bytes: 2 << 20) else { throw XCTSkip("mounting a tmpfs needs root") }
        let document = try store.create(at: disk.url.appendingPathComponent("Doc"))
        try disk.fill(leaving: 64 << 10)
        // When incompressible bytes larger than the free space are written
        var random = SystemRandomNumberGenerator()
        let noise = Data((0..<300_000).map { _ in UInt8.random(in: 0...255, using: &random) })
        XCTAssertThrowsError(try document.write(noise, to: "noise.bin", message: "Noise")) { error in
            // Then one line names the file and says the disk is full, and nothing is committed
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix(document.url.path + "/noise.bin: "), text)
            XCTAssertTrue(text.contains(String(cString: strerror(ENOSPC))), text)
            XCTAssertFalse(text.contains("libgit2 error"), text)
        }
        XCTAssertEqual(try document.log().count, 1)
        try disk.drain()
        XCTAssertNotNil(try document.write(noise, to: "noise.bin", message: "Noise"))
    }

    func testGivenADamagedCrashNoteWhenOpeningAndWritingThenTheDocumentStaysUsable() throws {
        let document = try store.create(at: dir.path("Doc"))
        let lockPath = document.url.path + "/.git/folio/lock"
        // A note naming the current commit and a tree that does not exist, then random bytes
        let head = try document.head().id.hex
        for note in [Data("\(head) \(String(repeating: "1", count: 40)) 28".utf8), Data((0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 31) })] {
            try note.write(to: URL(fileURLWithPath: lockPath))
            XCTAssertEqual(try store.open(at: document.url, readOnly: true).workTreeStatus(), .current)
            let reopened = try store.open(at: document.url)
            XCTAssertEqual(try reopened.workTreeStatus(), .current)
            XCTAssertNotNil(try reopened.write(Data(note.prefix(8)), to: "document.txt", message: "After a damaged note"))
            XCTAssertEqual(FileManager.default.contents(atPath: document.url.path + "/document.txt"), Data(note.prefix(8)))
        }
    }

    func testGivenNewDocumentFilesWithALinkAndAFileBehindItWhenCreatedThenRefusedAndNothingIsWrittenOutside() throws {
        let elsewhere = dir.path("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let files = [DocumentFile(path: "x", data: Data(), symlinkTarget: elsewhere.path), DocumentFile(path: "x/planted", data: Data("p".utf8))]
        let metadata = DocumentMetadata(contentType: .plainText, title: "T", primaryFile: "x/planted")
        XCTAssertThrowsError(try store.create(at: dir.path("Doc"), metadata: metadata, files: files, message: "Create")) { error in
            XCTAssertEqual(error as? WorkTreeError, .linkInPath(path: dir.path("Doc").path + "/x/planted", link: "x"))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("Doc").path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.hasPrefix(".folio") }, [])
    }
}
