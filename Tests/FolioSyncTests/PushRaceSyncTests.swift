import Foundation
import FolioCore
import FolioGit
import FolioSync
import FolioTestSupport
import XCTest

/// Issue 32: a push refused because the remote moved meanwhile (another pusher got there first, so `git daemon`'s
/// receive-pack answers `failed to update ref`) is not "offline": the round fetches, merges and pushes again at once,
/// and the loop keeps its backoff for a remote it cannot reach.
final class PushRaceSyncTests: XCTestCase {
    var ws: SyncWorkspace!
    var loops: [DocumentSyncLoop] = []

    override func setUpWithError() throws { ws = try SyncWorkspace() }
    override func tearDown() {
        for loop in loops { loop.stop() }
        loops = []
        ws = nil
    }

    func transfer() -> TransferOptions { TransferOptions(environment: ws.env, timeout: .seconds(5)) }

    /// A bare `doc.git` served by git daemon whose pre-receive hook, for the first `races` pushes, moves `main` on by
    /// one commit of its own just before receive-pack updates it: exactly what another pusher winning the race does
    /// (`racingServerHook` sets the count again).
    func racingServer(races: Int) throws -> (URL, GitDaemon) {
        let bare = try ws.bareRepository("doc.git")
        let hook = bare.appendingPathComponent("hooks/pre-receive")
        try Data("""
            #!/bin/sh
            cat >/dev/null
            n=$(cat "$GIT_DIR/races" 2>/dev/null || echo 0)
            [ "$n" -lt \(races) ] || exit 0
            echo $((n + 1)) > "$GIT_DIR/races"
            unset GIT_QUARANTINE_PATH GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES
            tip=$(git rev-parse refs/heads/main) || exit 0
            export GIT_AUTHOR_NAME=Racer GIT_AUTHOR_EMAIL=racer@example.invalid GIT_COMMITTER_NAME=Racer GIT_COMMITTER_EMAIL=racer@example.invalid
            commit=$(echo "Another writer $n" | git commit-tree "$tip^{tree}" -p "$tip") && git update-ref refs/heads/main "$commit"
            exit 0

            """.utf8).write(to: hook)
        chmod(hook.path, 0o755)
        return (bare, try GitDaemon(basePath: ws.serversRoot, environment: ws.env))
    }

    func races(_ bare: URL) -> Int {
        Int((try? String(contentsOf: bare.appendingPathComponent("races"), encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
    }

    func remoteLog(_ bare: URL) throws -> String {
        try git(["log", "--format=%s", "refs/heads/main"], in: bare, environment: ws.env).stdout
    }

    /// A shared document A (pushed through `url`, before the hook races) with one change not yet pushed.
    func sharedDocument(_ url: String) throws -> Document {
        let a = try ws.document("A")
        try a.write(Data("one\n".utf8), to: "document.txt", message: "One")
        try a.share(remote: "origin", url: url, options: transfer())
        try a.write(Data("two\n".utf8), to: "document.txt", message: "Two")
        return a
    }

    func testGivenThePushLosesARaceForTheServersRefWhenTheRoundRunsThenItFetchesMergesAndPushesAgainAtOnce() throws {
        // Given a server whose branch moves between the round's look and its push (once)
        let (bare, daemon) = try racingServer(races: 0)
        let a = try sharedDocument(daemon.url("doc.git"))
        try racingServerHook(bare, races: 1)
        // When A's sync round runs
        let round = try a.syncRound(options: SyncOptions(transfer: transfer()))
        // Then the refusal was a lost race, retried in the same round: merged with the other writer's commit and pushed
        XCTAssertEqual(races(bare), 1, "the hook raced once")
        XCTAssertEqual(round.pushRetries, 1)
        XCTAssertGreaterThan(round.pushed, 0)
        guard case .merged? = round.pulled else { return XCTFail("expected a merge, got \(String(describing: round.pulled))") }
        let log = try remoteLog(bare)
        XCTAssertTrue(log.contains("Another writer 0") && log.contains("Two"), log)
        XCTAssertEqual(try git(["rev-parse", "refs/heads/main"], in: bare, environment: ws.env).stdout.trimmingCharacters(in: .whitespacesAndNewlines),
                       try a.head().id.hex)
        try ws.assertFsck(bare)
    }

    func testGivenEveryPushOfARoundLosesTheRaceWhenTheLoopRunsThenItSyncsAgainWithinMillisecondsNotAsOfflineWithBackoff() throws {
        // Given a server that moves its branch before each of the next 7 pushes (more than one round retries), and a
        // loop whose retry after a failure would be 30 s
        let (bare, daemon) = try racingServer(races: 0)
        let a = try sharedDocument(daemon.url("doc.git"))
        try racingServerHook(bare, races: 7)
        let log = EventLog()
        let timings = SyncTimings(interval: .seconds(60), pushDelay: .milliseconds(100), pushDelayLimit: .seconds(1),
                                  retryDelay: .seconds(30), retryDelayLimit: .seconds(60), localCheck: .milliseconds(50))
        let loop = DocumentSyncLoop(document: a.url, store: ws.store,
                                    options: .init(timings: timings, fixedInterval: true, transferTimeout: .seconds(5), environment: ws.env),
                                    onEvent: { log.append($0) })
        loops.append(loop)
        // When the loop runs
        let started = Date()
        loop.start()
        // Then A's version reaches the server well before the 30 s retry, with no round reported offline
        XCTAssertTrue(waitUntil(timeout: 20) { (try? self.remoteLog(bare).contains("Two")) == true }, "A's version never reached the server")
        XCTAssertLessThan(Date().timeIntervalSince(started), 15)
        XCTAssertEqual(races(bare), 7)
        let kinds = log.all.map(\.kind)
        XCTAssertFalse(kinds.contains { if case .offline = $0 { return true } else { return false } }, "\(log.all.map(\.line))")
        let retrying = kinds.compactMap { kind -> Duration? in if case let .retrying(_, retryIn) = kind { return retryIn } else { return nil } }
        XCTAssertFalse(retrying.isEmpty, "a round that lost every race says it syncs again: \(log.all.map(\.line))")
        XCTAssertTrue(retrying.allSatisfy { $0 < .milliseconds(200) }, "\(retrying)")
        XCTAssertTrue(log.all.contains { $0.line.contains("refused this one") && $0.line.contains("syncing again in") }, "\(log.all.map(\.line))")
        try ws.assertFsck(bare)
    }

    /// Makes the racing hook on `bare` race the next `races` pushes (the pushes before went through).
    func racingServerHook(_ bare: URL, races: Int) throws {
        let hook = bare.appendingPathComponent("hooks/pre-receive")
        try? FileManager.default.removeItem(at: bare.appendingPathComponent("races"))
        let text = try String(contentsOf: hook, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "-lt 0 ]", with: "-lt \(races) ]").utf8).write(to: hook)
    }
}

/// Polls `condition` every 20 ms until it holds or `timeout` seconds pass; whether it held.
private func waitUntil(timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}
