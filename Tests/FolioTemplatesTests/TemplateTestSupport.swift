import Foundation
import XCTest
import FolioCore
import FolioGit
import FolioTemplates
import FolioTestSupport

/// Builds template repositories for tests: files in a folder, optionally committed and tagged with the git CLI.
struct TemplateRepoBuilder {
    let root: URL
    let environment: [String: String]

    func write(_ path: String, _ text: String, executable: Bool = false) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        if executable { chmod(url.path, 0o755) }
    }

    func writeData(_ path: String, _ data: Data) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    /// Sets every file's time stamps an hour back, so that a snapshot's stat cache written next trusts them (files
    /// changed within its clock tick are re-read, as in git).
    func ageFiles() throws {
        let old = Date().addingTimeInterval(-3600)
        for path in try FileManager.default.subpathsOfDirectory(atPath: root.path) {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: root.appendingPathComponent(path).path)
        }
    }

    func link(_ path: String, to target: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
    }

    /// A minimal template `id` in folder `folder` with one greeting file.
    func template(_ folder: String, id: String, version: String = "1.0.0", body: String = "Hello {{who}}\n", extra: String = "") throws {
        try write("\(folder)/template.json", """
        {"id": "\(id)", "name": "Test \(id)", "version": "\(version)", "contentType": "public.plain-text", "primaryFile": "hello.txt",
         "variables": [{"name": "who", "type": "string", "default": "world"}]\(extra)}
        """)
        try write("\(folder)/files/hello.txt", body)
    }

    func git(_ args: [String]) throws {
        let result = try FolioTestSupport.git(args, in: root, environment: environment)
        if result.status != 0 { throw TemplateError("git \(args.joined(separator: " "))", result.stderr, kind: .sourceUnavailable) }
    }

    func initRepository() throws {
        try git(["init", "-q", "-b", "main"])
    }

    func commitAll(_ message: String, tag: String? = nil) throws {
        try git(["add", "-A"])
        try git(["commit", "-q", "-m", message])
        if let tag { try git(["tag", "-a", tag, "-m", tag]) }
    }
}

final class TestBox<T>: @unchecked Sendable { var result: Result<T, any Error>? }

/// Synchronous wrapper for async calls in tests.
func await_<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let box = TestBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    guard let result = box.result else { throw TemplateError("test", "no result", kind: .sourceUnavailable) }
    return try result.get()
}

/// A template built in memory for pure rendering tests.
func memoryTemplate(files: [TemplateFile], manifestJSON: String? = nil, partials: [String: String] = [:],
                    repositoryPartials: [String: String] = [:]) throws -> Template {
    let json = manifestJSON ?? #"{"id": "test/t", "name": "T", "version": "1.0.0", "variables": [{"name": "name", "type": "string", "default": "demo"}]}"#
    let manifest = try TemplateManifest.parse(Data(json.utf8), file: "template.json")
    return Template(manifest: manifest, path: "t", source: TemplateSource(name: "test", location: "/nowhere"), commit: String(repeating: "a", count: 40),
                    ref: nil, files: files, partials: partials, repositoryPartials: repositoryPartials)
}

func file(_ path: String, _ text: String, mode: UInt32 = 0o100644) -> TemplateFile {
    TemplateFile(path: path, data: Data(text.utf8), mode: mode)
}

func assertThrows(_ expression: @autoclosure () throws -> Any, containing fragments: [String], file: StaticString = #filePath, line: UInt = #line) {
    do {
        _ = try expression()
        XCTFail("expected an error containing \(fragments)", file: file, line: line)
    } catch {
        let text = String(describing: error)
        XCTAssertFalse(text.contains("\n"), "error is not one line: \(text)", file: file, line: line)
        for fragment in fragments {
            XCTAssertTrue(text.contains(fragment), "'\(text)' does not mention '\(fragment)'", file: file, line: line)
        }
    }
}

/// The environment of `temp` with the repository's bundled templates as the template source.
func bundledEnvironment(_ temp: TemporaryDirectory) -> [String: String] {
    temp.environment(["FOLIO_TEMPLATES": repositoryRoot.appendingPathComponent("Templates").path])
}

/// Every regular file under `folder`: its path, bytes and whether it is executable (reference outputs of other tools).
func fileTree(_ folder: URL) throws -> [String: (Data, Bool)] {
    var out: [String: (Data, Bool)] = [:]
    let enumerator = try XCTUnwrap(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]))
    for case let url as URL in enumerator where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
        let path = String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
        out[path] = (try Data(contentsOf: url), FileManager.default.isExecutableFile(atPath: url.path))
    }
    return out
}
