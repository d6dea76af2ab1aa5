import FolioCore
import FolioCLITestSupport
import FolioGit
import FolioSync
import Foundation
import XCTest

/// `folio share`, `folio sync --continuous`, the sharing line of `folio status`, and `folio sync --watch` as a real
/// process (killed with SIGKILL at random moments, stopped with SIGTERM).
final class ContinuousSyncCLITests: XCTestCase {
    var dir: TemporaryDirectory!
    var env: [String: String] = [:]
    var store: DocumentStore!

    override func setUpWithError() throws {
        dir = TemporaryDirectory("folio-watch")
        env = dir.environment()
        store = DocumentStore(settings: Settings(sync: .none), environment: env)
        try FileManager.default.createDirectory(at: dir.path("servers"), withIntermediateDirectories: true)
    }

    override func tearDown() { dir = nil }

    @discardableResult
    func folio(_ args: [String], expect status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) -> RunResult {
        let result = runFolio(args, environment: env, cwd: dir.url)
        XCTAssertEqual(result.status, status, "folio \(args.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        return result
    }

    func bare(_ name: String) throws -> URL {
        let url = dir.path("servers/\(name)")
        XCTAssertEqual(try git(["init", "--bare", "-q", "-b", "main", url.path], in: dir.url, environment: env).status, 0)
        return url
    }

    func tip(_ bare: URL) throws -> String {
        try git(["rev-parse", "refs/heads/main"], in: bare, environment: env).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func fsck(_ url: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try git(["fsck", "--strict", "--no-progress"], in: url, environment: env)
        XCTAssertEqual(result.status, 0, "fsck \(url.path): \(result.stdout) \(result.stderr)", file: file, line: line)
    }

    func testGivenADocumentWhenSharedThenStatusShowsItsSharingStateAndContinuousSyncCanBeTurnedOff() throws {
        // Given a new document
        let document = try store.create(at: dir.path("Doc"), contentType: .plainText, title: "Doc")
        let server = try bare("doc.git")
        XCTAssertFalse(folio(["status", document.url.path]).stdout.contains("sharing:"), "no sharing line without a remote")
        // When it is shared
        let shared = folio(["share", document.url.path, "origin", server.path])
        // Then it was pushed, continuous sync is on, and status says so (in text and JSON)
        XCTAssertTrue(shared.stdout.contains("continuous sync on"), shared.stdout)
        XCTAssertEqual(try tip(server), try document.head().id.hex)
        let status = folio(["status", document.url.path]).stdout
        XCTAssertTrue(status.contains("sharing: synced") && status.contains("continuous sync on, origin"), status)
        let json = try JSONSerialization.jsonObject(with: Data(folio(["status", document.url.path, "--json"]).stdout.utf8)) as? [String: Any]
        let sharing = try XCTUnwrap(json?["sharing"] as? [String: Any])
        XCTAssertEqual((sharing["state"] as? [String: Any])?["continuous"] as? Bool, true)
        XCTAssertTrue((sharing["summary"] as? String)?.hasPrefix("synced") == true, "\(sharing)")
        // When continuous sync is turned off with an interval, and a bad interval is given
        folio(["sync", document.url.path, "--continuous", "off", "--interval", "45"])
        let bad = folio(["sync", document.url.path, "--continuous", "on", "--interval", "0"], expect: 2)
        // Then the document's config says so and the bad value is refused with one line naming the option
        XCTAssertEqual(try git(["config", "folio.continuousSync"], in: document.url, environment: env).stdout, "false\n")
        XCTAssertEqual(try git(["config", "folio.syncInterval"], in: document.url, environment: env).stdout, "45\n")
        XCTAssertTrue(bad.stderr.contains("--interval takes seconds from 1 to 86400"), bad.stderr)
        XCTAssertTrue(folio(["status", document.url.path]).stdout.contains("continuous sync off"))
    }

    /// Starts `folio sync --watch --interval 1 PATHS…` as a process of its own, its output into `log`.
    func startWatch(_ paths: [String], log: URL) throws -> Process {
        let process = Process()
        process.executableURL = folioExecutable
        process.arguments = ["sync", "--watch", "--interval", "1", "--timeout", "5"] + paths
        process.environment = env
        if !FileManager.default.fileExists(atPath: log.path) { FileManager.default.createFile(atPath: log.path, contents: nil) }
        let handle = try FileHandle(forWritingTo: log)
        handle.seekToEndOfFile()
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return process
    }

    func testGivenThreeWatchedDocumentsWhenTheWatchIsKilledAtRandomWhileAnotherCloneWritesThenNoChangeIsLost() throws {
        // Given three shared documents served by git daemon, a second clone of each, and a watch over the first ones
        let daemon = try GitDaemon(basePath: dir.path("servers"), environment: env)
        var mine: [Document] = [], theirs: [Document] = [], servers: [URL] = []
        for n in 0..<3 {
            let server = try bare("d\(n).git")
            try git(["config", "receive.fsckObjects", "true"], in: server, environment: env)
            let document = try store.create(at: dir.path("W\(n)"), contentType: .plainText, title: "W\(n)")
            try document.share(remote: "origin", url: daemon.url("d\(n).git"), options: TransferOptions(environment: env))
            mine.append(document)
            theirs.append(try store.clone(from: daemon.url("d\(n).git"), to: dir.path("O\(n)"), options: TransferOptions(environment: env)))
            servers.append(server)
        }
        let log = dir.path("watch.log")
        var watch = try startWatch(mine.map(\.url.path), log: log)
        var random = SeededRandom(seed: 21)
        var made: [[String]] = [[], [], []]
        // When both sides keep writing (different files) for a while, the other clone syncing by hand, and the
        // watch is killed with SIGKILL at random moments and started again
        for step in 0..<24 {
            let n = step % 3
            if let commit = try mine[n].write(Data("w\(step)\n".utf8), to: "w/\(step).txt", message: "W \(step)") { made[n].append(commit.id.hex) }
            if let commit = try theirs[n].write(Data("o\(step)\n".utf8), to: "o/\(step).txt", message: "O \(step)") { made[n].append(commit.id.hex) }
            _ = try? theirs[n].sync(options: SyncOptions(transfer: TransferOptions(environment: env)))
            usleep(UInt32(random.next() % 400_000))
            if random.next() % 3 == 0 {
                kill(watch.processIdentifier, SIGKILL)
                watch.waitUntilExit()
                XCTAssertEqual(watch.terminationReason, .uncaughtSignal)
                watch = try startWatch(mine.map(\.url.path), log: log)
            }
        }
        // Then, once the other clones sync a few more times, every version made on either side is on the server and
        // in both clones, and every repository is sound
        let converged = try (0..<3).allSatisfy { n -> Bool in
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                _ = try? theirs[n].sync(options: SyncOptions(transfer: TransferOptions(environment: env)))
                let server = try tip(servers[n])
                if try mine[n].head().id.hex == server, try theirs[n].head().id.hex == server { return true }
                usleep(300_000)
            }
            return false
        }
        XCTAssertTrue(converged, "did not converge: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        for n in 0..<3 {
            for commit in made[n] {
                let contained = try git(["merge-base", "--is-ancestor", commit, "refs/heads/main"], in: servers[n], environment: env)
                XCTAssertEqual(contained.status, 0, "version \(commit) of document \(n) was lost")
            }
            XCTAssertEqual(try mine[n].keptConflicts(), [])
            try fsck(servers[n])
            try fsck(mine[n].url)
            try fsck(theirs[n].url)
        }
        // When the watch gets SIGTERM, then it exits 0 promptly
        let started = Date()
        kill(watch.processIdentifier, SIGTERM)
        watch.waitUntilExit()
        XCTAssertEqual(watch.terminationReason, .exit)
        XCTAssertEqual(watch.terminationStatus, 0)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
        let output = try String(contentsOf: log, encoding: .utf8)
        XCTAssertTrue(output.contains("watching 3 documents"), output)
        XCTAssertTrue(output.contains(": pushed "), output)
    }

    func testGivenAWatchThatIsSyncingWhenItGetsSIGINTThenItExitsZeroAndSaysWhatItWatched() throws {
        // Given a watch over one shared document whose server never answers
        let silent = try SilentServer()
        let document = try store.create(at: dir.path("Doc"), contentType: .plainText, title: "Doc")
        try document.addRemote("origin", url: "git://127.0.0.1:\(silent.port)/doc.git")
        let log = dir.path("watch.log")
        let watch = try startWatch([document.url.path], log: log)
        let deadline = Date().addingTimeInterval(10)
        while silent.acceptedConnections == 0, Date() < deadline { usleep(20_000) }
        XCTAssertGreaterThan(silent.acceptedConnections, 0, "the first round never reached the silent server")
        // When it gets SIGINT
        let started = Date()
        kill(watch.processIdentifier, SIGINT)
        watch.waitUntilExit()
        // Then it exits 0 within a second or two (the transfer is cancelled), having said what it watched
        XCTAssertEqual(watch.terminationReason, .exit)
        XCTAssertEqual(watch.terminationStatus, 0)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
        XCTAssertTrue(try String(contentsOf: log, encoding: .utf8).contains("watching 1 document"))
    }
}
