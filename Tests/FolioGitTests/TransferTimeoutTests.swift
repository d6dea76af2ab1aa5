import FolioGit
import FolioTestSupport
import Foundation
import Synchronization
import XCTest

/// A server that accepts the connection and never answers cannot hang a fetch, push or connect: each gives up after
/// the transfer's timeout with one line naming the remote and what it waited for, and a cancel ends it at once.
final class TransferTimeoutTests: XCTestCase {
    let dir = TemporaryDirectory()

    func repository() throws -> Repository { try Repository.create(at: dir.path("local-\(UUID().uuidString.prefix(6))")) }

    func options(timeout: Duration = .seconds(1), isCancelled: (@Sendable () -> Bool)? = nil) -> TransferOptions {
        TransferOptions(environment: dir.environment(["FOLIO_SSH_KNOWN_HOSTS": dir.path("known_hosts").path]),
                        isCancelled: isCancelled, timeout: timeout)
    }

    /// Runs `body`, expecting `TransferTimedOut`; returns its message and how long it took.
    func timedOut(_ body: @escaping () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> (String, Duration) {
        let start = ContinuousClock.now
        switch runBounded(seconds: 10, body) {
        case nil: XCTFail("still waiting for the silent server after 10 s", file: file, line: line)
        case .success: XCTFail("the transfer succeeded against a silent server", file: file, line: line)
        case let .failure(error as TransferTimedOut): return (error.description, ContinuousClock.now - start)
        case let .failure(error): XCTFail("expected a timeout, got: \(error)", file: file, line: line)
        }
        return ("", ContinuousClock.now - start)
    }

    func testFetchOverGitFromASilentServerGivesUpAfterTheTimeout() throws {
        // Given a git:// server that accepts connections and never answers
        let server = try SilentServer()
        let url = "git://\(server.address)/doc"
        let repo = try repository()
        // When a fetch with a 1 s timeout runs against it
        let (message, took) = timedOut { try repo.fetch(url, options: self.options()) }
        // Then it gives up after about a second, naming the URL and what it waited for
        XCTAssertEqual(message, "\(url): no answer from the server for 1 s while waiting for its reply; gave up")
        XCTAssertLessThan(took, .seconds(5))
        XCTAssertGreaterThanOrEqual(took, .milliseconds(900))
        // And no ref moved
        XCTAssertEqual(try repo.referenceNames(matching: "refs/*"), [])
    }

    func testFetchOverHTTPFromASilentServerGivesUp() throws {
        // Given an http:// server that accepts connections and never answers
        let server = try SilentServer()
        let url = "http://\(server.address)/doc.git"
        let repo = try repository()
        // When a fetch with a 1 s timeout runs against it
        let (message, took) = timedOut { try repo.fetch(url, options: self.options()) }
        // Then it gives up, naming the URL
        XCTAssertEqual(message, "\(url): no answer from the server for 1 s while waiting for its reply; gave up")
        XCTAssertLessThan(took, .seconds(5))
    }

    func testFetchOverHTTPSFromASilentServerGivesUpInTheTLSHandshake() throws {
        // Given a server that accepts connections and never answers, asked over https://
        let server = try SilentServer()
        let url = "https://\(server.address)/doc.git"
        let repo = try repository()
        // When a fetch with a 1 s timeout runs against it
        let (message, took) = timedOut { try repo.fetch(url, options: self.options()) }
        // Then it gives up during the TLS handshake
        XCTAssertEqual(message, "\(url): no answer from the server for 1 s during the TLS handshake; gave up")
        XCTAssertLessThan(took, .seconds(5))
    }

    func testFetchOverSSHFromASilentServerGivesUpInTheHandshake() throws {
        // Given a server that accepts connections and never answers, asked over ssh:// (libssh2 reads the socket itself)
        let server = try SilentServer()
        let url = "ssh://git@\(server.address)/doc.git"
        let repo = try repository()
        // When a fetch with a 1 s timeout runs against it
        let (message, took) = timedOut { try repo.fetch(url, options: self.options()) }
        // Then it gives up during the ssh handshake
        XCTAssertEqual(message, "\(url): no answer from the server for 1 s during the ssh handshake; gave up")
        XCTAssertLessThan(took, .seconds(5))
    }

    func testPushToASilentServerGivesUp() throws {
        // Given a repository with a commit and a git:// server that never answers
        let server = try SilentServer()
        let url = "git://\(server.address)/doc"
        let repo = try repository()
        let blob = try repo.writeBlob(Data("a".utf8))
        let tree = try repo.updateTree(nil, [.upsert(path: "a.txt", blob: blob, mode: 0o100644)])
        let commit = try repo.createCommit(tree: tree, parents: [], author: Signature(name: "A", email: "a@example.com"), message: "a")
        try repo.updateReference("refs/heads/main", to: commit, expecting: nil, logMessage: "test")
        // When it pushes with a 1 s timeout
        let (message, took) = timedOut { try repo.push(url, refspecs: ["refs/heads/main:refs/heads/main"], options: self.options()) }
        // Then the push gives up, naming the URL
        XCTAssertEqual(message, "\(url): no answer from the server for 1 s while waiting for its reply; gave up")
        XCTAssertLessThan(took, .seconds(5))
    }

    func testRemoteDefaultBranchFromASilentServerGivesUp() throws {
        // Given a git:// server that never answers
        let server = try SilentServer()
        let url = "git://\(server.address)/doc"
        // When the remote's default branch is asked for (a template source's connect)
        let (message, _) = timedOut { _ = try self.repository().remoteDefaultBranch(url, options: self.options()) }
        // Then it gives up too
        XCTAssertEqual(message, "\(url): no answer from the server for 1 s while waiting for its reply; gave up")
    }

    func testAConnectionThatIsNeverAcceptedGivesUpWhileConnecting() throws {
        // Given a listener whose accept queue is full: a new connection's handshake gets no answer
        let server = try SilentServer(accepting: false)
        let url = "git://\(server.address)/doc"
        // When a fetch with a 1 s timeout runs against it
        let (message, took) = timedOut { try self.repository().fetch(url, options: self.options()) }
        // Then it gives up while connecting
        XCTAssertEqual(message, "\(url): no answer from the server for 1 s while connecting; gave up")
        XCTAssertLessThan(took, .seconds(5))
    }

    func testCancellingAFetchFromASilentServerEndsItWithinASecond() throws {
        // Given a silent server and a fetch with the default 30 s timeout
        let server = try SilentServer()
        let repo = try repository()
        let cancelled = Atomic<Bool>(false)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { cancelled.store(true, ordering: .relaxed) }
        let start = ContinuousClock.now
        // When the caller cancels it after 0.3 s
        let options = options(timeout: .seconds(30)) { cancelled.load(ordering: .relaxed) }
        let result = runBounded(seconds: 10) { try repo.fetch("git://\(server.address)/doc", options: options) }
        // Then it ends, cancelled, well within a second of the cancel
        guard case let .failure(error)? = result else { return XCTFail("not cancelled: \(String(describing: result))") }
        let stopped = try XCTUnwrap(error as? TransferCancelled, "\(error)")
        XCTAssertEqual(stopped.operation, "fetch")
        XCTAssertEqual(stopped.remote, "git://\(server.address)/doc")
        XCTAssertTrue("\(error)".hasSuffix("cancelled"), "\(error)")
        XCTAssertLessThan(ContinuousClock.now - start, .milliseconds(1300))
    }

    func testASlowServerThatKeepsSendingIsNotCutOff() throws {
        // Given a git:// server whose (empty) ref list arrives a byte every 0.4 s: 1.6 s in all, no gap of 1 s
        let slow = (0..<4).map { _ in (delay: 0.4, bytes: Data("0".utf8)) }
        let server = try SilentServer(replies: slow)
        let repo = try repository()
        // When a fetch with a 1 s timeout runs against it
        let start = ContinuousClock.now
        XCTAssertNoThrow(try repo.fetch("git://\(server.address)/doc", options: self.options()))
        // Then it is not given up on: the timeout is for no progress, not for the whole transfer
        XCTAssertGreaterThan(ContinuousClock.now - start, .seconds(1.2))
    }
}
