import Foundation
import FolioCore
import FolioGit
import FolioCLITestSupport
import XCTest

/// A temporary workspace with an isolated environment, a document store, bare repositories and git checks.
final class SyncWorkspace {
    let dir = TemporaryDirectory("folio-sync")
    let env: [String: String]
    let store: DocumentStore

    init() throws {
        env = dir.environment()
        store = DocumentStore(settings: Settings(sync: .none), environment: env)
    }

    /// A new blank plain-text document at `name`.
    func document(_ name: String, type: ContentType = .plainText) throws -> Document {
        try store.create(at: dir.path(name), contentType: type, title: name)
    }

    /// A bare repository made by the git CLI under `servers/`, accepting pushes over HTTP too.
    @discardableResult
    func bareRepository(_ name: String) throws -> URL {
        let root = dir.path("servers")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let url = root.appendingPathComponent(name)
        let result = try git(["init", "--bare", "-q", "-b", "main", url.path], in: root, environment: env)
        XCTAssertEqual(result.status, 0, result.stderr)
        try git(["config", "http.receivepack", "true"], in: url, environment: env)
        return url
    }

    var serversRoot: URL { dir.path("servers") }

    /// Fails the test unless `git fsck --strict` finds nothing wrong.
    func assertFsck(_ url: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try git(["fsck", "--strict", "--no-progress"], in: url, environment: env)
        XCTAssertEqual(result.status, 0, "fsck \(url.lastPathComponent): \(result.stdout) \(result.stderr)", file: file, line: line)
        XCTAssertFalse(result.stderr.contains("error") || result.stdout.contains("error"), result.stdout + result.stderr, file: file, line: line)
    }

    /// Fails the test unless `git status` shows a clean work tree and index.
    func assertClean(_ url: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try git(["status", "--porcelain"], in: url, environment: env)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        XCTAssertEqual(result.stdout, "", "git status in \(url.lastPathComponent)", file: file, line: line)
    }

    /// The text of a file in a document's work tree.
    func text(_ document: Document, _ path: String) -> String? {
        FileManager.default.contents(atPath: document.url.appendingPathComponent(path).path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Runs `folio` in-process in the workspace.
    @discardableResult
    func folio(_ args: [String], expect status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) -> RunResult {
        let result = runFolio(args, environment: env, cwd: dir.url)
        XCTAssertEqual(result.status, status, "folio \(args.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        return result
    }
}
