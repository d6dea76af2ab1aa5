import FolioCore
import FolioTemplates
import FolioTestSupport
import Foundation
import XCTest

/// Template sources over `http://` (git http-backend on loopback): the transport the templates issue lists with
/// `https://`, which differs from it only by TLS.
final class TemplateSourceHTTPTests: XCTestCase {
    // A synchronous test: stopping the server waits for its process, which must not happen on an async test's
    // executor thread (Foundation's wait would sit there until the server's own time limit).
    func testAnHTTPTemplateSourceResolvesAtItsNewestTagAndASecondResolutionTransfersNothing() throws {
        // Given a template repository with tags v1.0.0 and v1.1.0, pushed to a bare repository served over HTTP
        let ws = try SyncWorkspace()
        let bare = try ws.bareRepository("templates.git")
        let work = ws.dir.path("template-work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        func sh(_ args: [String]) throws {
            let result = try git(args, in: work, environment: ws.env)
            XCTAssertEqual(result.status, 0, "\(args): \(result.stderr)")
        }
        try sh(["init", "-q", "-b", "main"])
        func writeTemplate(version: String, greeting: String) throws {
            try FileManager.default.createDirectory(at: work.appendingPathComponent("hello/files"), withIntermediateDirectories: true)
            try Data("""
            {"id": "web/hello", "name": "Hello", "version": "\(version)", "contentType": "public.plain-text", "primaryFile": "hello.txt",
             "variables": [{"name": "who", "type": "string", "default": "world"}]}
            """.utf8).write(to: work.appendingPathComponent("hello/template.json"))
            try Data("\(greeting) {{who}}\n".utf8).write(to: work.appendingPathComponent("hello/files/hello.txt"))
        }
        try writeTemplate(version: "1.0.0", greeting: "Hello")
        try sh(["add", "-A"]); try sh(["commit", "-q", "-m", "one"]); try sh(["tag", "-a", "v1.0.0", "-m", "v1.0.0"])
        try writeTemplate(version: "1.1.0", greeting: "Hi")
        try sh(["add", "-A"]); try sh(["commit", "-q", "-m", "two"]); try sh(["tag", "-a", "v1.1.0", "-m", "v1.1.0"])
        try writeTemplate(version: "2.0.0-dev", greeting: "Unreleased")
        try sh(["add", "-A"]); try sh(["commit", "-q", "-m", "work in progress"])
        try sh(["push", "-q", bare.path, "main", "--tags"])
        let server = try GitHTTPServer(root: ws.serversRoot, environment: ws.env, lifetime: 60)
        let source = TemplateSource(name: "web", location: server.url("templates.git"))
        let resolver = TemplateResolver(environment: ws.env)

        // When it is resolved twice
        final class Counter: @unchecked Sendable { var received = 0 }
        let first = Counter(), second = Counter()
        let resolved = try blocking { try await resolver.resolve(source) { first.received = max(first.received, $0.receivedObjects) } }
        _ = try blocking { try await resolver.resolve(source) { second.received = max(second.received, $0.receivedObjects) } }

        // Then the newest semver tag is used (not the branch's unreleased work), and nothing is fetched again
        XCTAssertEqual(resolved.ref, "v1.1.0")
        XCTAssertEqual(resolved.templates.map(\.id), ["web/hello"])
        XCTAssertGreaterThan(first.received, 0)
        XCTAssertEqual(second.received, 0)
        let template = try blocking { try await resolver.template("web/hello", in: resolved) }
        let files = try template.render(answers: ["who": .string("Ada")])
        XCTAssertEqual(files.first { $0.path == "hello.txt" }?.data, Data("Hi Ada\n".utf8))
    }
}

/// Runs async work to completion from synchronous test code.
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}

private func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    guard let result = box.result else { throw CocoaError(.featureUnsupported) }
    return try result.get()
}
