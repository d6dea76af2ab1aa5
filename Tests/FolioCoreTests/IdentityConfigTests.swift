import FolioCore
import FolioGit
import FolioTestSupport
import Foundation
import Synchronization
import XCTest

/// Each environment's git config names its own committer, even with several environments in one process, and no
/// store sets a process-wide libgit2 option after the first.
final class IdentityConfigTests: XCTestCase {
    /// An environment whose only identity source is `~/.gitconfig` with `name`.
    private func environment(_ dir: TemporaryDirectory, name: String) throws -> [String: String] {
        var env = dir.environment()
        for key in ["GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"] { env[key] = nil }
        try dir.write("home/.gitconfig", "[user]\n\tname = \(name)\n\temail = \(name.lowercased())@example.com\n")
        return env
    }

    func testGivenTwoEnvironmentsWithTheirOwnGitConfigWhenBothWriteInOneProcessThenEachCommitNamesItsOwnUser() throws {
        // Given two environments, each with a ~/.gitconfig naming a different user
        let first = TemporaryDirectory(), second = TemporaryDirectory()
        let storeA = DocumentStore(settings: Settings(sync: .none), environment: try environment(first, name: "Grace"))
        let optionWrites = GitLibrary.processWideOptionWrites
        let storeB = DocumentStore(settings: Settings(sync: .none), environment: try environment(second, name: "Linus"))
        // When each store creates and changes a document, at the same time on two threads
        let stores = [(storeA, first), (storeB, second)]
        let authors = Mutex<[Int: [String]]>([:])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let (store, dir) = stores[index]
            do {
                let document = try store.create(at: dir.path("Doc"))
                for i in 1...10 { try document.write(Data("\(i)\n".utf8), to: "document.txt", message: "change \(i)") }
                let names = try document.log().map { "\($0.author) <\($0.email)>" }
                authors.withLock { $0[index] = names }
            } catch { authors.withLock { $0[index] = ["\(error)"] } }
        }
        // Then every commit of each document names that environment's user, and no option was set after the first store
        let result = authors.withLock { $0 }
        XCTAssertEqual(result[0], Array(repeating: "Grace <grace@example.com>", count: 11))
        XCTAssertEqual(result[1], Array(repeating: "Linus <linus@example.com>", count: 11))
        XCTAssertEqual(GitLibrary.processWideOptionWrites, optionWrites)
    }

    func testGivenGitConfigGlobalWhenWritingThenItReplacesTheHomeFileAndTheDocumentsOwnConfigWins() throws {
        let dir = TemporaryDirectory()
        var env = try environment(dir, name: "Home")
        try dir.write("elsewhere.gitconfig", "[user]\n\tname = Elsewhere\n")
        env["GIT_CONFIG_GLOBAL"] = dir.path("elsewhere.gitconfig").path
        let store = DocumentStore(settings: Settings(sync: .none), environment: env)
        let document = try store.create(at: dir.path("Doc"))
        XCTAssertEqual(try document.log().first?.author, "Elsewhere")
        // The document's own config wins over the user's
        XCTAssertEqual(try git(["config", "user.name", "Local"], in: document.url, environment: env).status, 0)
        let reopened = try store.open(at: document.url)
        try reopened.write(Data("x".utf8), to: "document.txt", message: "Local change")
        XCTAssertEqual(try reopened.log().first?.author, "Local")
    }
}
