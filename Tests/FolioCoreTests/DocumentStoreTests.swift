import FolioCore
import FolioGit
import FolioTestSupport
import Foundation
import XCTest

final class DocumentStoreTests: StoreTestCase {
    func assertGitClean(_ url: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let fsck = try git(["fsck", "--strict"], in: url, environment: env)
        XCTAssertEqual(fsck.status, 0, fsck.stderr, file: file, line: line)
        let status = try git(["status", "--porcelain"], in: url, environment: env)
        XCTAssertEqual(status.stdout, "", "git status shows changes", file: file, line: line)
    }

    func testNewDocumentIsAGitRepositoryWithItsMetadataCommitted() throws {
        // When a blank document is created
        let document = try store.create(at: dir.path("Notes"), contentType: .plainText, title: "Notes")
        // Then plain git sees one commit holding the primary file and .folio/document.json
        let log = try git(["log", "--format=%s|%an"], in: document.url, environment: env)
        XCTAssertEqual(log.stdout, "Create Notes|Ada Tester\n")
        let files = try git(["ls-files"], in: document.url, environment: env).stdout
        XCTAssertEqual(files, ".folio/document.json\ndocument.txt\n")
        XCTAssertEqual(document.metadata.contentType, .plainText)
        try assertGitClean(document.url)
    }

    func testAChangeSurvivesReopening() throws {
        let document = try store.create(at: dir.path("Notes"))
        try document.write(Data("first draft\n".utf8), to: "document.txt", message: "Write first draft")
        let reopened = try store.open(at: dir.path("Notes"))
        XCTAssertEqual(String(decoding: try reopened.read(path: "document.txt"), as: UTF8.self), "first draft\n")
        XCTAssertEqual(try String(contentsOf: dir.path("Notes/document.txt"), encoding: .utf8), "first draft\n")
        XCTAssertEqual(try reopened.log().map(\.summary), ["Write first draft", "Create Notes"])
        try assertGitClean(reopened.url)
    }

    func testEveryChangeIsExactlyOneCommitAndIdenticalContentMakesNone() throws {
        let document = try store.create(at: dir.path("d"))
        for i in 1...5 { try document.write(Data("v\(i)".utf8), to: "document.txt", message: "v\(i)") }
        XCTAssertNil(try document.write(Data("v5".utf8), to: "document.txt", message: "same"))
        XCTAssertEqual(try document.log().count, 6)
        try assertGitClean(document.url)
    }

    func testNestedFilesAndDeletionsReachTheWorkTree() throws {
        let document = try store.create(at: dir.path("d"))
        try document.apply([.write(path: "acts/one/scene.md", data: Data("x".utf8)), .write(path: "run.sh", data: Data("#!/bin/sh\n".utf8), executable: true)], message: "Add files")
        var info = stat()
        XCTAssertEqual(stat(dir.path("d/run.sh").path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o111, 0o111)
        try document.apply([.delete(path: "acts/one/scene.md")], message: "Remove scene")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("d/acts").path), "empty folders are removed")
        try assertGitClean(document.url)
    }

    func testTheCommitAChangeReturnsIsTheOneGitStored() throws {
        // Given an author whose name has what git trims or refuses (angle brackets, surrounding spaces)
        var environment = env!
        environment["GIT_AUTHOR_NAME"] = "  Ada <the> Tester "
        let document = try DocumentStore(settings: Settings(sync: .none), environment: environment).create(at: dir.path("d"))
        // When two changes are made (the second starts from the first without reading it back)
        let first = try XCTUnwrap(try document.write(Data("one\n".utf8), to: "document.txt", message: "First\n\nWith a body."))
        let second = try XCTUnwrap(try document.write(Data("two\n".utf8), to: "document.txt", message: "Second"))
        // Then what each change returned is exactly what reading the commit back gives
        let reopened = try store.open(at: document.url)
        XCTAssertEqual(first, try reopened.repository.commit(first.id))
        XCTAssertEqual(second, try reopened.repository.commit(second.id))
        XCTAssertEqual(second.parents, [first.id])
        XCTAssertEqual(try git(["log", "-1", "--format=%an|%B", first.id.hex], in: document.url, environment: env).stdout, "Ada the Tester|First\n\nWith a body.\n")
        try assertGitClean(document.url)
    }

    func testWorkTreeFilesFollowTheUmaskLikeAGitCheckout() throws {
        // Given a group-friendly umask
        let previous = umask(0o002)
        defer { umask(previous) }
        let document = try store.create(at: dir.path("d"))
        // When a file and an executable are written
        try document.apply([.write(path: "notes.txt", data: Data("x".utf8)), .write(path: "run.sh", data: Data("#!/bin/sh\n".utf8), executable: true)],
                           message: "Add files")
        // Then their permissions are 0666 and 0777 less the umask, as git would check them out
        var info = stat()
        XCTAssertEqual(stat(dir.path("d/notes.txt").path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o664)
        XCTAssertEqual(stat(dir.path("d/run.sh").path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o775)
        try assertGitClean(document.url)
    }

    func testDocumentsKeepNoReflogBecauseTheirHistoryOnlyGrows() throws {
        // Given a document with changes, an undo and a restore
        let document = try store.create(at: dir.path("d"))
        try document.write(Data("a".utf8), to: "document.txt", message: "a")
        try document.write(Data("b".utf8), to: "document.txt", message: "b")
        _ = try document.undo()
        // Then git keeps no reflog (every earlier version is still in `git log`), and the setting is plain git config
        XCTAssertEqual(try git(["config", "core.logAllRefUpdates"], in: document.url, environment: env).stdout, "false\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("d/.git/logs/refs/heads/main").path))
        XCTAssertEqual(try git(["rev-list", "--count", "HEAD"], in: document.url, environment: env).stdout, "4\n")
        // When the user turns reflogs back on, Folio's next change is logged
        XCTAssertEqual(try git(["config", "core.logAllRefUpdates", "true"], in: document.url, environment: env).status, 0)
        try store.open(at: document.url).write(Data("c".utf8), to: "document.txt", message: "c")
        XCTAssertEqual(try git(["reflog", "--format=%gs", "main"], in: document.url, environment: env).stdout, "commit: c\n")
    }

    func testUndoRedoAndANewChangeClearingTheRedoPath() throws {
        // Given three changes
        let document = try store.create(at: dir.path("d"))
        for word in ["one", "two", "three"] { try document.write(Data(word.utf8), to: "document.txt", message: "Write \(word)") }
        func content() throws -> String { String(decoding: try document.read(path: "document.txt"), as: UTF8.self) }
        // When undoing twice
        XCTAssertEqual(try document.undo().summary, "Undo: Write three")
        XCTAssertEqual(try document.undo().summary, "Undo: Write two")
        XCTAssertEqual(try content(), "one")
        // Then redo brings back "two", and a reopened document still knows it can redo "three"
        XCTAssertEqual(try document.redo().summary, "Redo: Write two")
        let reopened = try store.open(at: document.url)
        XCTAssertEqual(try reopened.redo().summary, "Redo: Write three")
        XCTAssertEqual(String(decoding: try reopened.read(path: "document.txt"), as: UTF8.self), "three")
        XCTAssertFalse(reopened.canRedo)
        // And after an undo, a new change clears the redo path
        try reopened.undo()
        try reopened.write(Data("four".utf8), to: "document.txt", message: "Write four")
        XCTAssertFalse(reopened.canRedo)
        XCTAssertThrowsError(try reopened.redo()) { XCTAssertTrue("\($0)".contains("nothing to redo")) }
        // Undo stops at the creation
        XCTAssertEqual(try reopened.undo().summary, "Undo: Write four")
        XCTAssertEqual(try reopened.undo().summary, "Undo: Write two")
        XCTAssertEqual(try reopened.undo().summary, "Undo: Write one")
        XCTAssertThrowsError(try reopened.undo()) { XCTAssertTrue("\($0)".contains("nothing to undo")) }
        XCTAssertEqual(String(decoding: try reopened.read(path: "document.txt"), as: UTF8.self), "")
        try assertGitClean(reopened.url)
    }

    func testRestoreMakesAnOldVersionCurrentWithoutRewritingHistory() throws {
        let document = try store.create(at: dir.path("d"))
        try document.write(Data("draft".utf8), to: "document.txt", message: "Draft")
        try document.write(Data("final".utf8), to: "document.txt", message: "Final")
        let before = try document.log().map(\.id)
        let restored = try XCTUnwrap(try document.restore("@2"))
        XCTAssertTrue(restored.summary.hasPrefix("Restore to "), restored.summary)
        XCTAssertTrue(restored.summary.hasSuffix(": Draft"), restored.summary)
        XCTAssertEqual(String(decoding: try document.read(path: "document.txt"), as: UTF8.self), "draft")
        XCTAssertEqual(Array(try document.log().map(\.id).dropFirst()), before)
        try assertGitClean(document.url)
    }

    func testRevisionsAcceptIdsTagsRelativeAndOrdinalForms() throws {
        let document = try store.create(at: dir.path("d"))
        try document.write(Data("a".utf8), to: "document.txt", message: "A")
        try document.write(Data("b".utf8), to: "document.txt", message: "B")
        try document.tag("first-draft", at: "HEAD~1")
        let log = try document.log()
        XCTAssertEqual(log.first?.tags, [])
        XCTAssertEqual(log[1].tags, ["first-draft"])
        XCTAssertEqual(try document.resolve("first-draft").hex, log[1].id)
        XCTAssertEqual(try document.resolve("@1").hex, log[2].id)
        XCTAssertEqual(try document.resolve(String(log[0].id.prefix(8))).hex, log[0].id)
        XCTAssertThrowsError(try document.resolve("@9"))
        XCTAssertThrowsError(try document.resolve("no-such-thing")) { XCTAssertTrue("\($0)".contains("unknown version 'no-such-thing'")) }
        XCTAssertThrowsError(try document.tag("first-draft")) { XCTAssertTrue("\($0)".contains("already exists")) }
    }

    func testCommitRecordsWorkTreeChangesMadeByOtherPrograms() throws {
        let document = try store.create(at: dir.path("d"))
        XCTAssertNil(try document.commitWorkTree())
        try Data("edited elsewhere".utf8).write(to: dir.path("d/document.txt"))
        try Data("new".utf8).write(to: dir.path("d/extra.txt"))
        let commit = try XCTUnwrap(try document.commitWorkTree())
        XCTAssertEqual(commit.summary, "Change 2 files")
        XCTAssertEqual(String(decoding: try document.read(path: "extra.txt"), as: UTF8.self), "new")
        try assertGitClean(document.url)
    }

    func testAuthorFallsBackToLoginAndHostWithoutAnyIdentity() throws {
        var bare = env ?? [:]
        for key in ["GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"] { bare.removeValue(forKey: key) }
        bare["USER"] = "writer"
        let document = try DocumentStore(settings: Settings(sync: .none), environment: bare).create(at: dir.path("d"))
        let head = try document.head()
        XCTAssertEqual(head.author.name, "writer")
        XCTAssertTrue(head.author.email.hasPrefix("writer@"), head.author.email)
        let withSettings = DocumentStore(settings: Settings(author: .init(name: "Set Tings", email: "s@t"), sync: .none), environment: bare)
        let second = try withSettings.create(at: dir.path("e"))
        XCTAssertEqual(try second.head().author.name, "Set Tings")
    }

    func testBadInputGivesOneLineErrorsAndChangesNothing() throws {
        // Not a document: a plain folder, a file, a missing path
        try FileManager.default.createDirectory(at: dir.path("plain"), withIntermediateDirectories: true)
        try dir.write("file.txt", "x")
        for (path, expected) in [("plain", "no git repository"), ("file.txt", "it is a file"), ("missing", "no such folder")] {
            XCTAssertThrowsError(try store.open(at: dir.path(path))) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
                XCTAssertFalse("\(error)".contains("\n"))
            }
        }
        // A corrupt .folio/document.json names the file and the position
        let document = try store.create(at: dir.path("d"))
        let headBefore = try document.head().id
        try dir.write("d/.folio/document.json", "{ \"title\": \"x\",\n  \"bogus\": 1 }")
        XCTAssertThrowsError(try store.open(at: dir.path("d"))) { error in
            XCTAssertTrue("\(error)".contains(".folio/document.json"), "\(error)")
            XCTAssertTrue("\(error)".contains("line 2, column 3: unknown key 'bogus'"), "\(error)")
        }
        XCTAssertEqual(try Repository.open(at: dir.path("d")).headCommitID(), headBefore)
        // Paths that leave the document or touch .git are refused before anything is written
        let good = try store.create(at: dir.path("g"))
        for bad in ["../escape.txt", "/etc/passwd", ".git/hooks/pre-commit", "a/../../b", ".folio/document.json"] {
            XCTAssertThrowsError(try good.write(Data("x".utf8), to: bad, message: "bad"), bad)
        }
        XCTAssertEqual(try good.log().count, 1)
        // Creating over an existing path is refused and leaves no staging folder behind
        XCTAssertThrowsError(try store.create(at: dir.path("g"))) { XCTAssertTrue("\($0)".contains("already exists")) }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.contains("folio-new") }, [])
    }

    func testTwoProcessesWritingTwoHundredChangesEachLoseNone() throws {
        // Given a document and two writer processes started together
        let document = try store.create(at: dir.path("shared"))
        let writer = productsDirectory.appendingPathComponent("folio-test-writer").path
        let group = DispatchGroup()
        nonisolated(unsafe) var results: [RunResult?] = [nil, nil]
        let path = document.url.path
        let environment: [String: String] = env
        for (index, label) in ["alpha", "beta"].enumerated() {
            group.enter()
            DispatchQueue.global().async {
                results[index] = try? runProgram(writer, [path, "200", label, "--sync", "none"], environment: environment)
                group.leave()
            }
        }
        group.wait()
        // Then both finished, all 400 changes are in a linear history, and git is happy
        for result in results {
            XCTAssertEqual(result?.status, 0, result?.stderr ?? "did not run")
            XCTAssertEqual(result?.stdout.split(separator: "\n").count, 200)
        }
        let log = try git(["log", "--format=%s"], in: document.url, environment: env).stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(log.count, 401)
        for label in ["alpha", "beta"] {
            XCTAssertEqual(Set(log.filter { $0.hasPrefix(label) }), Set((1...200).map { "\(label) change \($0)" }))
        }
        let merges = try git(["rev-list", "--merges", "--count", "HEAD"], in: document.url, environment: env).stdout
        XCTAssertEqual(merges, "0\n")
        XCTAssertEqual(try String(contentsOf: dir.path("shared/alpha.txt"), encoding: .utf8), "alpha 200\n")
        try assertGitClean(document.url)
    }

    func testAWriterKilledMidStreamLeavesEveryAcknowledgedChange() throws {
        // Given a writer streaming changes with full durability
        let document = try store.create(at: dir.path("crash"))
        let writer = productsDirectory.appendingPathComponent("folio-test-writer").path
        let process = Foundation.Process()
        process.executableURL = URL(fileURLWithPath: writer)
        process.arguments = [document.url.path, "100000", "kill", "--sync", "full"]
        process.environment = env
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        // When it is killed with SIGKILL after some changes were acknowledged
        var acknowledged = 0
        var buffer = Data()
        while acknowledged < 60 {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            acknowledged = String(decoding: buffer, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("ack ") && $0.hasSuffix(" ") == false }.count
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        buffer.append(pipe.fileHandleForReading.readDataToEndOfFile())
        let acks = String(decoding: buffer, as: UTF8.self).split(separator: "\n").compactMap { $0.hasPrefix("ack ") ? Int($0.dropFirst(4)) : nil }
        let lastAck = try XCTUnwrap(acks.max())
        XCTAssertGreaterThanOrEqual(lastAck, 60)
        // Then the document opens, git finds nothing wrong, and every acknowledged change is in history
        let reopened = try store.open(at: dir.path("crash"))
        let fsck = try git(["fsck", "--strict"], in: reopened.url, environment: env)
        XCTAssertEqual(fsck.status, 0, fsck.stderr)
        let messages = Set(try reopened.log().map(\.summary))
        for i in 1...lastAck { XCTAssertTrue(messages.contains("kill change \(i)"), "lost acknowledged change \(i)") }
        // And the work tree matches the newest version once opened
        let newest = String(decoding: try reopened.read(path: "kill.txt"), as: UTF8.self)
        XCTAssertEqual(try String(contentsOf: dir.path("crash/kill.txt"), encoding: .utf8), newest)
        XCTAssertEqual(try git(["status", "--porcelain"], in: reopened.url, environment: env).stdout, "")
        // And new changes work after the crash
        try reopened.write(Data("after".utf8), to: "kill.txt", message: "after crash")
        try assertGitClean(reopened.url)
    }

    func testAStaleRefLockLeftByAKilledWriterIsCleanedUp() throws {
        let document = try store.create(at: dir.path("d"))
        try Data().write(to: dir.path("d/.git/refs/heads/main.lock"))
        try document.write(Data("still works".utf8), to: "document.txt", message: "After stale lock")
        XCTAssertEqual(try document.log().first?.summary, "After stale lock")
        try assertGitClean(document.url)
    }

    func testManyChangesArePackedAndStayReadable() throws {
        let document = try store.create(at: dir.path("d"))
        // 1,200 changes make 3,600 objects; Folio packs once its estimate passes 1,024 loose objects, and goes on
        // packing until a burst of changes is packed down under that.
        for i in 1...1200 { try document.write(Data("change \(i)\n".utf8), to: "document.txt", message: "c\(i)") }
        document.waitForMaintenance()
        let looseFolders = try FileManager.default.contentsOfDirectory(atPath: dir.path("d/.git/objects").path).filter { $0.count == 2 }
        var loose = 0
        for folder in looseFolders { loose += try FileManager.default.contentsOfDirectory(atPath: dir.path("d/.git/objects/\(folder)").path).count }
        XCTAssertGreaterThanOrEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path("d/.git/objects/pack").path).filter { $0.hasSuffix(".pack") }.count, 1)
        XCTAssertLessThan(loose, 2 * 1024, "a burst of changes ends packed (under the limit, give or take the estimate)")
        try document.compact()
        XCTAssertEqual(try git(["count-objects", "-v"], in: document.url, environment: env).stdout.split(separator: "\n").first, "count: 0")
        XCTAssertEqual(try document.log().count, 1201)
        try assertGitClean(document.url)
    }
}
