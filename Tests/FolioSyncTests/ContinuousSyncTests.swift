import Foundation
import FolioCore
import FolioGit
import FolioSync
import FolioTestSupport
import Synchronization
import XCTest

/// Events a loop reported, collected for assertions.
final class EventLog: Sendable {
    private let events = Mutex<[DocumentSyncLoop.Event]>([])
    func append(_ event: DocumentSyncLoop.Event) { events.withLock { $0.append(event) } }
    var all: [DocumentSyncLoop.Event] { events.withLock { $0 } }
}


/// The sync loop against `git daemon` on loopback: debounced pushes, polls, offline queueing, conflicts, the round
/// lock and the saved state.
final class ContinuousSyncTests: XCTestCase {
    var ws: SyncWorkspace!
    var loops: [DocumentSyncLoop] = []

    override func setUpWithError() throws { ws = try SyncWorkspace() }
    override func tearDown() {
        for loop in loops { loop.stop() }
        loops = []
        ws = nil
    }

    /// Fast timings: look every `interval`, push 0.3 s after the last change (at most 2 s after the first), retry
    /// after 0.2 s doubling to 1 s, look for local versions every 50 ms.
    func timings(interval: Double = 60) -> SyncTimings {
        SyncTimings(interval: .milliseconds(Int(interval * 1000)), pushDelay: .milliseconds(300), pushDelayLimit: .seconds(2),
                    retryDelay: .milliseconds(200), retryDelayLimit: .seconds(1), localCheck: .milliseconds(50))
    }

    func loop(_ document: Document, interval: Double = 60, log: EventLog = EventLog()) -> DocumentSyncLoop {
        let loop = DocumentSyncLoop(document: document.url, store: ws.store,
                                    options: .init(timings: timings(interval: interval), fixedInterval: true, transferTimeout: .seconds(3), environment: ws.env),
                                    onEvent: { log.append($0) })
        loops.append(loop)
        return loop
    }

    /// A bare repository `doc.git` that counts the pushes it receives (a post-receive hook), served by git daemon.
    func countingServer() throws -> (URL, GitDaemon) {
        let bare = try ws.bareRepository("doc.git")
        let hook = bare.appendingPathComponent("hooks/post-receive")
        try Data("#!/bin/sh\necho push >> \"$GIT_DIR/pushes.log\"\n".utf8).write(to: hook)
        chmod(hook.path, 0o755)
        return (bare, try GitDaemon(basePath: ws.serversRoot, environment: ws.env))
    }

    func pushCount(_ bare: URL) -> Int {
        (try? String(contentsOf: bare.appendingPathComponent("pushes.log"), encoding: .utf8))?.split(separator: "\n").count ?? 0
    }

    func remoteHead(_ bare: URL) throws -> String {
        try git(["rev-parse", "refs/heads/main"], in: bare, environment: ws.env).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A shared document A (pushed, continuous sync on) and a clone B of it.
    func sharedPair(_ url: String) throws -> (Document, Document) {
        let a = try ws.document("A")
        try a.write(Data("one\n".utf8), to: "document.txt", message: "One")
        try a.share(remote: "origin", url: url, options: TransferOptions(environment: ws.env))
        let b = try ws.store.clone(from: url, to: ws.dir.path("B"), options: TransferOptions(environment: ws.env))
        return (a, b)
    }

    func testGivenABurstOfCommitsWhenTheLoopRunsThenTheyArePushedAsOnePush() throws {
        // Given a shared document whose loop has made its first round
        let (bare, daemon) = try countingServer()
        let (a, _) = try sharedPair(daemon.url("doc.git"))
        let pushesBefore = pushCount(bare)
        let log = EventLog()
        let sync = loop(a, log: log)
        sync.start()
        XCTAssertTrue(eventually { !log.all.isEmpty }, "no first round")
        // When five versions are committed in quick succession
        for n in 0..<5 {
            try a.write(Data("line \(n)\n".utf8), to: "document.txt", message: "Edit \(n)")
            sync.notifyCommitted()
            usleep(50_000)
        }
        // Then the remote gets all five in a single push
        let head = try a.head().id.hex
        XCTAssertTrue(try eventually { try remoteHead(bare) == head }, "the burst never arrived")
        usleep(500_000)
        XCTAssertEqual(pushCount(bare) - pushesBefore, 1, "one push for the burst")
        XCTAssertEqual(sync.state.phase, .synced)
        XCTAssertEqual(sync.state.ahead, 0)
        XCTAssertTrue(log.all.contains { $0.line == "pushed 5 versions" }, log.all.map(\.line).description)
    }

    func testGivenAnotherCloneWhenItPushesThenTheLoopPullsTheChangeWithinOnePoll() throws {
        // Given two clones, the second one syncing every 0.3 s
        let (_, daemon) = try countingServer()
        let (a, b) = try sharedPair(daemon.url("doc.git"))
        let sync = loop(b, interval: 0.3)
        sync.start()
        // When the first clone pushes a new version
        try a.write(Data("one\ntwo\n".utf8), to: "document.txt", message: "Two")
        try a.push(options: TransferOptions(environment: ws.env))
        // Then the second clone has it within a poll or two, with nothing left to push
        XCTAssertTrue(try eventually(5) { try b.head().id == a.head().id }, "the change never arrived")
        // (The branch moves first and the work tree follows within the same change: wait for the file too.)
        XCTAssertTrue(eventually(5) { ws.text(b, "document.txt") == "one\ntwo\n" }, ws.text(b, "document.txt") ?? "no file")
        XCTAssertTrue(eventually(2) { sync.state.phase == .synced && sync.state.behind == 0 })
        try ws.assertClean(b.url)
    }

    func testGivenTheServerStopsWhenThreeVersionsAreCommittedThenTheyWaitAndArriveOnceItReturns() throws {
        // Given a shared document with its loop running against git daemon
        var server: GitDaemon?
        let bare: URL
        (bare, server) = try countingServer()
        let port = try XCTUnwrap(server?.port)
        let (a, _) = try sharedPair("git://127.0.0.1:\(port)/doc.git")
        let sync = loop(a)
        sync.start()
        XCTAssertTrue(eventually { sync.state.phase == .synced })
        // When the server stops and three versions are committed
        server = nil
        for n in 0..<3 {
            try a.write(Data("offline \(n)\n".utf8), to: "document.txt", message: "Offline \(n)")
            sync.notifyCommitted()
        }
        // Then the state is offline with three changes waiting and a reason made by Folio
        XCTAssertTrue(eventually { sync.state.phase == .offline && sync.state.ahead == 3 }, "\(sync.state)")
        XCTAssertEqual(sync.state.summary(), "offline · 3 changes waiting")
        XCTAssertNotNil(sync.state.problem)
        XCTAssertNotNil(sync.state.nextAttempt)
        // (the round saves its state just after showing it)
        XCTAssertTrue(eventually { SharingState.saved(documentPath: a.url.path)?.phase == .offline }, "the saved state says offline too")
        // When the server comes back on the same port
        server = try GitDaemon(basePath: ws.serversRoot, environment: ws.env, port: port)
        sync.syncNow()
        // Then everything arrives and both sides are sound
        let head = try a.head().id.hex
        XCTAssertTrue(try eventually { try remoteHead(bare) == head && sync.state.phase == .synced }, "\(sync.state)")
        XCTAssertEqual(sync.state.ahead, 0)
        try ws.assertFsck(a.url)
        try ws.assertFsck(bare)
        _ = server
    }

    func testGivenBothSidesChangedTheSameLineWhenTheLoopPullsThenItKeepsAConflictAndPushesNothing() throws {
        // Given two clones that changed the same line of a plain-text document
        let (bare, daemon) = try countingServer()
        let (a, b) = try sharedPair(daemon.url("doc.git"))
        try a.write(Data("theirs\n".utf8), to: "document.txt", message: "Theirs")
        try a.push(options: TransferOptions(environment: ws.env))
        try b.write(Data("mine\n".utf8), to: "document.txt", message: "Mine")
        let remoteBefore = try remoteHead(bare)
        // When the second clone's loop runs
        let log = EventLog()
        let sync = loop(b, interval: 0.3, log: log)
        sync.start()
        // Then its state is conflict, the remote version is kept, and nothing is pushed, even after another version
        XCTAssertTrue(eventually { sync.state.phase == .conflict }, "\(sync.state)")
        XCTAssertEqual(try b.keptConflicts().count, 1)
        try b.write(Data("mine again\n".utf8), to: "document.txt", message: "Mine again")
        sync.notifyCommitted()
        usleep(800_000)
        XCTAssertEqual(try remoteHead(bare), remoteBefore, "nothing pushed while a conflict waits")
        XCTAssertEqual(sync.state.phase, .conflict)
        XCTAssertTrue(log.all.contains { if case .conflict = $0.kind { return true } else { return false } })
        // When the conflict is settled, the loop pushes the merge
        let conflict = try XCTUnwrap(b.keptConflicts().first)
        try b.resolveConflict(conflict.ref, keep: .local)
        sync.syncNow()
        let head = try b.head().id.hex
        XCTAssertTrue(try eventually { try remoteHead(bare) == head }, "\(sync.state)")
    }

    func testGivenUnrecordedChangesWhenTheRemoteMovesThenTheLoopSaysWhyAndMergesOnceTheyAreRecorded() throws {
        // Given a clone whose work tree has an unrecorded change, and a new version on the remote
        let (_, daemon) = try countingServer()
        let (a, b) = try sharedPair(daemon.url("doc.git"))
        try a.write(Data("one\n".utf8), to: "other.txt", message: "Other")
        try a.push(options: TransferOptions(environment: ws.env))
        try Data("typed by hand\n".utf8).write(to: b.url.appendingPathComponent("document.txt"))
        // When its loop runs
        let sync = loop(b, interval: 0.3)
        sync.start()
        // Then it does not fail: the state names the unrecorded file and the version waiting
        XCTAssertTrue(eventually { sync.state.problem?.contains("document.txt") == true }, "\(sync.state)")
        XCTAssertEqual(sync.state.phase, .synced)
        XCTAssertEqual(sync.state.behind, 1)
        // When the change is recorded, the next round merges and pushes
        _ = try b.commitWorkTree(message: "By hand")
        XCTAssertTrue(eventually { (try? b.read(path: "other.txt")) == Data("one\n".utf8) && sync.state.ahead == 0 && sync.state.problem == nil }, "\(sync.state)")
        XCTAssertEqual(ws.text(b, "document.txt"), "typed by hand\n")
    }

    func testGivenAnotherProcessHoldsTheSyncLockWhenTheLoopRunsThenTheRoundIsSkipped() throws {
        // Given a shared document with a version to push, and its sync lock held elsewhere
        let (bare, daemon) = try countingServer()
        let (a, _) = try sharedPair(daemon.url("doc.git"))
        try a.write(Data("waiting\n".utf8), to: "document.txt", message: "Waiting")
        let fd = open(a.url.path + "/.git/folio/sync.lock", O_RDWR | O_CREAT, 0o644)
        XCTAssertEqual(flock(fd, LOCK_EX | LOCK_NB), 0)
        // When the loop runs
        let log = EventLog()
        let sync = loop(a, log: log)
        sync.start()
        // Then it skips the round and pushes nothing
        XCTAssertTrue(eventually { log.all.contains { if case .skipped = $0.kind { return true } else { return false } } })
        XCTAssertNotEqual(try remoteHead(bare), try a.head().id.hex)
        // When the lock is released, the version is pushed
        close(fd)
        let head = try a.head().id.hex
        XCTAssertTrue(try eventually { try remoteHead(bare) == head })
    }

    func testGivenContinuousSyncIsOffWhenTheLoopFollowsTheSettingThenItStaysAwayFromTheRemote() throws {
        // Given a shared document with continuous sync turned off and a version to push
        let (bare, daemon) = try countingServer()
        let (a, _) = try sharedPair(daemon.url("doc.git"))
        try a.setContinuousSync(false)
        try a.write(Data("local only\n".utf8), to: "document.txt", message: "Local")
        // When its loop runs
        let log = EventLog()
        let sync = loop(a, log: log)
        sync.start()
        // Then it skips, and the remote does not get the version
        XCTAssertTrue(eventually { log.all.contains { $0.line == "skipped: continuous sync is off" } })
        XCTAssertNotEqual(try remoteHead(bare), try a.head().id.hex)
        XCTAssertFalse(sync.state.continuous)
    }

    func testGivenARoundRanWhenTheSavedStateIsReadThenItMatchesAndADamagedFileIsUnknown() throws {
        // Given a loop that finished a round
        let (_, daemon) = try countingServer()
        let (a, _) = try sharedPair(daemon.url("doc.git"))
        let sync = loop(a)
        sync.start()
        XCTAssertTrue(eventually { SharingState.saved(documentPath: a.url.path)?.phase == .synced })
        // Then the saved state says synced with origin, continuous sync on, and the document's state agrees
        let saved = try XCTUnwrap(SharingState.saved(documentPath: a.url.path))
        XCTAssertEqual(saved.remote, "origin")
        XCTAssertTrue(saved.continuous)
        XCTAssertNotNil(saved.lastSynced)
        XCTAssertEqual(try a.sharingState().phase, .synced)
        sync.stop()
        // When the file is damaged (a duplicate key), the state is unknown and nothing crashes
        let file = SharingState.savedFile(documentPath: a.url.path)
        try Data(#"{"phase":"synced","phase":"offline","ahead":0,"behind":0,"conflicts":[],"continuous":true}"#.utf8).write(to: file)
        XCTAssertNil(SharingState.saved(documentPath: a.url.path))
        try Data([0xFF, 0x00, 0x7B]).write(to: file)
        XCTAssertNil(SharingState.saved(documentPath: a.url.path))
        XCTAssertEqual(try a.sharingState().phase, .synced, "read from the refs instead")
    }

    func testGivenAClonedDocumentThenContinuousSyncIsOnAndAFreshDocumentIsNotShared() throws {
        // Given a document shared with `share` and a clone of it
        let bare = try ws.bareRepository("doc.git")
        let (a, b) = try sharedPair(bare.path)
        let plain = try ws.document("Plain")
        // Then both the shared one and the clone sync continuously; the fresh one is not shared
        XCTAssertTrue(a.continuousSync)
        XCTAssertTrue(b.continuousSync)
        XCTAssertFalse(plain.continuousSync)
        XCTAssertEqual(try plain.sharingState(), .notShared)
        // And an interval out of range is refused, one in range kept
        XCTAssertThrowsError(try b.setContinuousSync(true, interval: 0))
        try b.setContinuousSync(true, interval: 5)
        XCTAssertEqual(try b.syncInterval(), 5)
        try git(["config", "folio.syncInterval", "soon"], in: b.url, environment: ws.env)
        XCTAssertThrowsError(try b.syncInterval()) { XCTAssertTrue("\($0)".contains("'soon'"), "\($0)") }
    }

    func testGivenARemoteWhenItsBranchTipIsAskedThenTheAnswerIsTheBranchOrNil() throws {
        // Given a document pushed to git daemon
        let (bare, daemon) = try countingServer()
        let (a, _) = try sharedPair(daemon.url("doc.git"))
        // When the remote's branches are looked at without fetching
        let repository = try Repository.open(at: a.url)
        let tip = try repository.remoteBranchTip("origin", branch: "refs/heads/main", options: TransferOptions(environment: ws.env))
        let missing = try repository.remoteBranchTip("origin", branch: "refs/heads/nothing", options: TransferOptions(environment: ws.env))
        // Then main is the pushed version and an absent branch is nil
        XCTAssertEqual(tip?.hex, try remoteHead(bare))
        XCTAssertNil(missing)
    }
}

/// `syncInterval` in settings.json: checked like `networkTimeout`.
final class SyncIntervalSettingTests: XCTestCase {
    func testGivenASettingsFileWhenSyncIntervalIsOutOfRangeThenLoadingNamesTheFileAndAValidOneIsUsed() throws {
        // Given settings files with an interval of 0, then of 12 seconds
        let dir = TemporaryDirectory("folio-interval")
        let env = dir.environment()
        let file = Settings.fileURL(environment: env)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"syncInterval": 0}"#.utf8).write(to: file)
        // When they are loaded, then 0 is refused naming the file, and 12 becomes the documents' default
        XCTAssertThrowsError(try Settings.load(environment: env)) { XCTAssertTrue("\($0)".contains(file.path), "\($0)") }
        try Data(#"{"syncInterval": 12}"#.utf8).write(to: file)
        let settings = try Settings.load(environment: env)
        XCTAssertEqual(settings.syncInterval, 12)
        let document = try DocumentStore(settings: settings, environment: env).create(at: dir.path("Doc"), contentType: .plainText, title: "Doc")
        XCTAssertEqual(try document.effectiveSyncInterval(settings: settings), 12)
        XCTAssertEqual(try document.effectiveSyncInterval(settings: Settings()), 30)
    }
}
