import FolioCore
import FolioGit
import FolioTestSupport
import Foundation
import Synchronization
import XCTest

/// Maintenance (compact, background packing) never loses history: it deletes only what it proved unreachable from
/// refs it could all read, and never an object of a change still in flight.
final class MaintenanceSafetyTests: StoreTestCase {
    /// Every file under `.git/objects` with its bytes.
    func objectFiles(_ document: URL) throws -> [String: Data] {
        let root = document.appendingPathComponent(".git/objects").path
        var files: [String: Data] = [:]
        for case let relative as String in FileManager.default.enumerator(atPath: root)! {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[relative] = FileManager.default.contents(atPath: root + "/" + relative)
            }
        }
        return files
    }

    func makeDocumentWithHistory(_ name: String, changes: Int = 5) throws -> Document {
        let document = try store.create(at: dir.path(name))
        for i in 1...changes { try document.write(Data("version \(i)\n".utf8), to: "document.txt", message: "change \(i)") }
        try document.tag("v1", at: "HEAD~2")
        return document
    }

    func assertFsckClean(_ url: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let fsck = try git(["fsck", "--strict", "--no-dangling"], in: url, environment: env)
        XCTAssertEqual(fsck.status, 0, fsck.stderr + fsck.stdout, file: file, line: line)
    }

    func makeOld(_ path: String) {
        var times = [timespec(tv_sec: time(nil) - 30 * 24 * 3600, tv_nsec: 0), timespec(tv_sec: time(nil) - 30 * 24 * 3600, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, path, &times, 0), 0, path)
    }

    func looseObjectPath(_ document: URL, _ hex: String) -> String {
        document.appendingPathComponent(".git/objects/\(hex.prefix(2))/\(hex.dropFirst(2))").path
    }

    func testGivenAnUnreadableRefWhenCompactingThenItFailsNamingTheRefAndDeletesNothing() throws {
        // Given documents whose refs are damaged in each way a file system or a hostile user can damage them
        let damages: [(String, String, (URL) throws -> Void)] = [
            ("empty branch", "refs/heads/main", { try Data().write(to: $0.appendingPathComponent(".git/refs/heads/main")) }),
            ("garbage branch", "refs/heads/main", { try Data("not a commit\n".utf8).write(to: $0.appendingPathComponent(".git/refs/heads/main")) }),
            ("missing branch", "refs/heads/main", { try FileManager.default.removeItem(at: $0.appendingPathComponent(".git/refs/heads/main")) }),
            ("branch is a folder", "refs/heads/main", { url in
                let ref = url.appendingPathComponent(".git/refs/heads/main")
                try FileManager.default.removeItem(at: ref)
                try FileManager.default.createDirectory(at: ref, withIntermediateDirectories: false)
            }),
            ("HEAD garbage", "HEAD", { try Data("garbage\n".utf8).write(to: $0.appendingPathComponent(".git/HEAD")) }),
            ("HEAD names a missing branch", "HEAD", { try Data("ref: refs/heads/gone\n".utf8).write(to: $0.appendingPathComponent(".git/HEAD")) }),
            ("packed-refs garbage", "packed-refs line 2", {
                try Data("# pack-refs with: peeled\nthis is not a ref\n".utf8).write(to: $0.appendingPathComponent(".git/packed-refs"))
            }),
            ("conflict ref garbage", "refs/folio/conflicts/1", { url in
                try FileManager.default.createDirectory(at: url.appendingPathComponent(".git/refs/folio/conflicts"), withIntermediateDirectories: true)
                try Data("zzzz\n".utf8).write(to: url.appendingPathComponent(".git/refs/folio/conflicts/1"))
            }),
            ("tag names a missing object", "refs/tags/v1", {
                try Data("0123456789012345678901234567890123456789\n".utf8).write(to: $0.appendingPathComponent(".git/refs/tags/v1"))
            }),
            ("unreadable tag", "refs/tags/v1", { chmod($0.appendingPathComponent(".git/refs/tags/v1").path, 0) }),
        ]
        for (index, (label, refName, damage)) in damages.enumerated() {
            if label == "unreadable tag" && getuid() == 0 { continue }  // root reads any file
            let document = try makeDocumentWithHistory("doc\(index)")
            let before = try objectFiles(document.url)
            try damage(document.url)
            // When it is compacted
            XCTAssertThrowsError(try document.compact(), label) { error in
                // Then the error names the ref and says nothing was deleted
                XCTAssertTrue(error is MaintenanceError, "\(label): \(error)")
                XCTAssertTrue("\(error)".contains(refName), "\(label): \(error)")
                XCTAssertTrue("\(error)".contains("nothing was deleted"), "\(label): \(error)")
            }
            // And every object file is still there, byte for byte
            XCTAssertEqual(try objectFiles(document.url), before, label)
        }
    }

    func testGivenObjectsNamedOnlyByTheIndexAndTheCrashNoteWhenCompactingThenTheyAreKept() throws {
        // Given an old blob only the index names and an old commit only the crash note names
        let document = try makeDocumentWithHistory("doc")
        try Data("staged\n".utf8).write(to: dir.path("staged.txt"))
        let staged = try git(["hash-object", "-w", dir.path("staged.txt").path], in: document.url, environment: env).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(try git(["update-index", "--add", "--cacheinfo", "100644,\(staged),staged.txt"], in: document.url, environment: env).status, 0)
        let tree = try git(["write-tree"], in: document.url, environment: env).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let inFlight = try git(["commit-tree", tree, "-p", "HEAD", "-m", "in flight"], in: document.url, environment: env).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let note = Data((inFlight + String(repeating: " ", count: 160 - 40)).utf8)
        try note.write(to: document.url.appendingPathComponent(".git/folio/lock"))
        for hex in [staged, tree, inFlight] { makeOld(looseObjectPath(document.url, hex)) }
        // When it is compacted
        try document.compact()
        // Then both are still in the repository (now packed)
        for hex in [staged, tree, inFlight] {
            XCTAssertEqual(try git(["cat-file", "-e", hex], in: document.url, environment: env).status, 0, "lost \(hex)")
        }
        XCTAssertEqual(try git(["count-objects", "-v"], in: document.url, environment: env).stdout.split(separator: "\n").first, "count: 0")
    }

    func testGivenUnreachableObjectsWhenCompactingThenOnlyThoseOlderThanTheGracePeriodArePruned() throws {
        // Given an unreachable blob written just now and one written long ago (loose), and history in a pack
        let document = try makeDocumentWithHistory("doc")
        try document.compact()
        func writeUnreachable(_ text: String) throws -> String {
            try Data(text.utf8).write(to: dir.path("blob"))
            return try git(["hash-object", "-w", dir.path("blob").path], in: document.url, environment: env).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let young = try writeUnreachable("a change in flight\n")
        let old = try writeUnreachable("abandoned long ago\n")
        makeOld(looseObjectPath(document.url, old))
        // When it is compacted
        try document.compact()
        // Then the young one is kept, the old one is gone, and history is intact
        XCTAssertEqual(try git(["cat-file", "-e", young], in: document.url, environment: env).status, 0)
        XCTAssertNotEqual(try git(["cat-file", "-e", old], in: document.url, environment: env).status, 0)
        XCTAssertEqual(try document.log().count, 6)
        try assertFsckClean(document.url)
    }

    func testGivenAnOldPackHoldingAnObjectInFlightWhenCompactingThenThePackIsKeptUntilItIsOld() throws {
        // Given an unreachable blob packed by the background packer (a change not yet referenced)
        let document = try makeDocumentWithHistory("doc")
        try Data("in flight\n".utf8).write(to: dir.path("blob"))
        let inFlight = try git(["hash-object", "-w", dir.path("blob").path], in: document.url, environment: env).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let repository = try Repository.open(at: document.url)
        try repository.pack(all: false)
        XCTAssertFalse(FileManager.default.fileExists(atPath: looseObjectPath(document.url, inFlight)))
        // When it is compacted twice
        try document.compact()
        try document.compact()
        // Then the object survives both and history is intact
        XCTAssertEqual(try git(["cat-file", "-e", inFlight], in: document.url, environment: env).status, 0)
        try assertFsckClean(document.url)
    }

    func testGivenManyWriterProcessesAndCompactsAtOnceWhenAllFinishThenEveryAcknowledgedChangeIsIntact() throws {
        // Given a document, twelve writer processes and four processes compacting it, all started together
        let document = try store.create(at: dir.path("shared"))
        let program = productsDirectory.appendingPathComponent("folio-test-writer").path
        let path = document.url.path
        let environment: [String: String] = env
        let jobs: [(String, String)] = (1...12).map { ("w\($0)", "40") } + (1...4).map { _ in (":compact", "8") }
        let results = Mutex<[Int: RunResult]>([:])
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            let (label, count) = jobs[index]
            let result = try? runProgram(program, [path, count, label, "--sync", "none"], environment: environment)
            results.withLock { $0[index] = result }
        }
        // Then every process succeeded
        let finished = results.withLock { $0 }
        for index in jobs.indices {
            XCTAssertEqual(finished[index]?.status, 0, "\(jobs[index].0): \(finished[index]?.stderr ?? "did not run")")
        }
        // And git finds nothing missing, and every acknowledged change is in history with its content
        try assertFsckClean(document.url)
        let reopened = try store.open(at: document.url)
        let messages = Set(try reopened.log().map(\.summary))
        for (index, (label, _)) in jobs.enumerated() where label != ":compact" {
            let acks = (finished[index]?.stdout ?? "").split(separator: "\n").compactMap { $0.hasPrefix("ack ") ? Int($0.dropFirst(4)) : nil }
            XCTAssertEqual(acks.count, 40, label)
            for i in acks { XCTAssertTrue(messages.contains("\(label) change \(i)"), "lost \(label) change \(i)") }
            XCTAssertEqual(String(decoding: try reopened.read(path: "\(label).txt"), as: UTF8.self), "\(label) 40\n")
        }
        // And every version of every file can still be shown
        let show = try git(["log", "-p", "--format=%s"], in: document.url, environment: env)
        XCTAssertEqual(show.status, 0, show.stderr)
    }

    func testGivenTemporaryFilesOfKilledWritersWhenCompactingThenOnlyTheOldOnesAreRemoved() throws {
        // Given partial packs and partial loose objects, one set an hour old and one just written
        let document = try makeDocumentWithHistory("doc")
        let objects = document.url.appendingPathComponent(".git/objects").path
        let names = ["/tmp_object_git2_old", "/pack/pack_git2_old", "/tmp_object_git2_new", "/pack/pack_git2_new"]
        for name in names { try Data("partial".utf8).write(to: URL(fileURLWithPath: objects + name)) }
        makeOld(objects + names[0])
        makeOld(objects + names[1])
        // When it is compacted
        try document.compact()
        // Then the old ones are gone, the fresh ones (a writer may be filling them) stay, and history is intact
        XCTAssertEqual(names.map { FileManager.default.fileExists(atPath: objects + $0) }, [false, false, true, true])
        try assertFsckClean(document.url)
    }
}
