import FolioBasics
import FolioCore
import FolioDisplayWidth
import FolioPluginWire
import FoundationEssentials
import Glibc

/// An author's own test of a plugin (`folio plugins test DIR`): a folder `tests/NAME/` in the plugin project holding
/// `test.json` — a sample to start from, the view's size and the commands to run — and `expected/`, what the editor
/// shows and the document's bytes before the first step and after each: `0.view`, then `N.view` and `N.document`
/// for step N, or `N.error` (the error's one line) for a step the editor refuses.
///
///     {"sample": "welcome", "width": 40, "height": 8, "steps": [["add", "Buy milk"], ["toggle", "1"]]}
///
/// `sample` names a file in the project's samples folder (omitted: an empty document); `editor` picks one of the
/// plugin's editors (omitted: its first); `width` and `height` default to 80 and 24, as `folio view`'s do. A step is
/// the command's id and its arguments, as `folio edit DOC COMMAND ARGS…` takes them.
public struct PluginTranscript: Sendable, Equatable {
    /// The test's name: its folder's.
    public let name: String
    /// Its folder, `tests/NAME`.
    public let folder: URL
    public var sample: String?
    public var editor: String?
    public var width: Int
    public var height: Int
    public var steps: [[String]]

    /// The file describing a test, in its folder.
    public static let fileName = "test.json"
    /// The folder of what each step is expected to give, in the test's folder.
    public static let expectedFolder = "expected"
    /// The most steps one test may have.
    public static let maxSteps = 1000

    struct File: Codable {
        var sample: String?
        var editor: String?
        var width: Int?
        var height: Int?
        var steps: [[String]]
        enum CodingKeys: String, CodingKey, CaseIterable { case sample, editor, width, height, steps }
    }

    /// Reads `folder/test.json`; a problem names the file.
    public static func load(_ folder: URL) throws -> PluginTranscript {
        let url = folder.appendingPathComponent(fileName)
        guard let file = try StrictJSON.load(File.self, from: url, strictAt: [[]]) else {
            throw FolioError.unreadableFile(path: url.path, reason: "no such file")
        }
        let invalid = { (problem: String) in FolioError.invalidFile(path: url.path, problem: problem) }
        let width = file.width ?? 80, height = file.height ?? 24
        guard (1...1000).contains(width), (1...1000).contains(height) else { throw invalid("'width' and 'height' must be from 1 to 1000") }
        guard file.steps.count <= maxSteps else { throw invalid("more than \(maxSteps) steps") }
        if let index = file.steps.firstIndex(where: { $0.isEmpty || $0[0].isEmpty }) { throw invalid("step \(index + 1) names no command") }
        if let sample = file.sample, sample.isEmpty || sample.contains("/") || sample.hasPrefix(".") {
            throw invalid("'sample' must name a file in the samples folder")
        }
        return PluginTranscript(name: folder.lastPathComponent, folder: folder, sample: file.sample, editor: file.editor,
                                width: width, height: height, steps: file.steps)
    }

    /// The tests of the project at `project`: every folder of `tests/` holding a `test.json`, by name; none when it has
    /// no `tests/`. A folder or file that leads out of the project is refused naming it.
    public static func all(in project: URL) throws -> [PluginTranscript] {
        let tests = project.appendingPathComponent("tests")
        var info = stat()
        guard lstat(tests.path, &info) == 0 else { return [] }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw FolioError.invalidFile(path: tests.path, problem: "is not a folder") }
        let names = try FileManager.default.contentsOfDirectory(atPath: tests.path).filter { !$0.hasPrefix(".") }.sorted()
        return try names.compactMap { name in
            let folder = tests.appendingPathComponent(name)
            guard lstat(folder.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
            guard lstat(folder.appendingPathComponent(fileName).path, &info) == 0 else { return nil }
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw FolioError.invalidFile(path: folder.appendingPathComponent(fileName).path, problem: "is not a regular file")
            }
            return try load(folder)
        }
    }
}

/// What one step of a transcript gave: the view and the document's bytes, or the error's one line.
public struct TranscriptStep: Sendable, Equatable {
    public var view: String?
    public var document: Data?
    public var error: String?

    /// The expected files of step `index` and their contents (step 0 has only its view).
    func files(_ index: Int) -> [(name: String, bytes: Data)] {
        var files: [(String, Data)] = []
        if let view { files.append(("\(index).view", Data(view.utf8))) }
        if let document { files.append(("\(index).document", document)) }
        if let error { files.append(("\(index).error", Data((error + "\n").utf8))) }
        return files
    }
}

/// The outcome of one transcript: passed, each difference from what was expected (the file and the first line that
/// differs), or (with `update`) the files written.
public struct TranscriptOutcome: Sendable, Equatable {
    public let name: String
    public var differences: [String] = []
    public var written: [String] = []
    public var passed: Bool { differences.isEmpty }
}

extension PluginTranscript {
    /// Runs the test on `backend` (an editor of the plugin under test), starting from `samples/SAMPLE` in
    /// `samplesFolder`: opens it, renders, and then for each step applies the command, renders and serializes, as
    /// `folio edit` and `folio view` do. Compares every result with `expected/`, or writes them there when `update`
    /// (removing expected files no step gives any more).
    public func run(on backend: any EditorBackend, samplesFolder: URL, update: Bool) throws -> TranscriptOutcome {
        let results = try results(on: backend, samplesFolder: samplesFolder)
        let expected = folder.appendingPathComponent(Self.expectedFolder)
        var outcome = TranscriptOutcome(name: name)
        let files = results.enumerated().flatMap { index, step in step.files(index) }
        if update { return try write(files, into: expected, outcome) }
        for (name, bytes) in files {
            let url = expected.appendingPathComponent(name)
            guard let old = Self.contents(url) else {
                outcome.differences.append("\(Self.expectedFolder)/\(name): missing (write it with --update)")
                continue
            }
            if old != bytes { outcome.differences.append("\(Self.expectedFolder)/\(name): \(Self.firstDifference(expected: old, got: bytes))") }
        }
        let given = Set(files.map(\.name))
        for extra in (try? FileManager.default.contentsOfDirectory(atPath: expected.path))?.sorted() ?? [] where !given.contains(extra) && !extra.hasPrefix(".") {
            outcome.differences.append("\(Self.expectedFolder)/\(extra): no step gives it (a step now succeeds or fails where it did not)")
        }
        return outcome
    }

    /// The view before the first step, then each step's view and bytes or error.
    func results(on backend: any EditorBackend, samplesFolder: URL) throws -> [TranscriptStep] {
        var bytes = Data()
        if let sample {
            let url = samplesFolder.appendingPathComponent(sample)
            guard let data = Self.contents(url) else { throw FolioError.unreadableFile(path: url.path, reason: "no such sample (a regular file in the samples folder)") }
            bytes = data
        }
        let request = RenderRequest(width: width, height: height)
        var document = try backend.openDocument(bytes)
        var results = [TranscriptStep(view: try Self.view(document, request))]
        for step in steps {
            do {
                let (changed, _) = try document.apply(step[0], arguments: Array(step.dropFirst()), selection: ViewSelection())
                document = changed
                results.append(TranscriptStep(view: try Self.view(document, request), document: try document.bytes()))
            } catch let error as EditorOperationError {
                results.append(TranscriptStep(error: "\(error)"))
            }
        }
        return results
    }

    /// The bytes of the regular file at `url` (links not followed), nil when there is none.
    static func contents(_ url: URL) -> Data? { (try? RegularFile.read(url.path)).map { Data($0) } }

    static func view(_ document: any EditorDocumentHandle, _ request: RenderRequest) throws -> String {
        try document.view(request).map { $0 + "\n" }.joined()
    }

    /// Writes `files` into `expected` (made when missing), removing the other files there; every file stays inside.
    private func write(_ files: [(name: String, bytes: Data)], into expected: URL, _ outcome: TranscriptOutcome) throws -> TranscriptOutcome {
        var outcome = outcome
        var info = stat()
        if lstat(expected.path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
            throw FolioError.invalidFile(path: expected.path, problem: "is not a folder")
        }
        try FileManager.default.createDirectory(at: expected, withIntermediateDirectories: true)
        let names = Set(files.map(\.name))
        for old in try FileManager.default.contentsOfDirectory(atPath: expected.path) where !names.contains(old) && !old.hasPrefix(".") {
            try FileManager.default.removeItem(at: expected.appendingPathComponent(old))
        }
        for (name, bytes) in files {
            let url = expected.appendingPathComponent(name)
            if Self.contents(url) == bytes { continue }
            if lstat(url.path, &info) == 0, info.st_mode & S_IFMT != S_IFREG { throw FolioError.invalidFile(path: url.path, problem: "is not a regular file") }
            try bytes.write(to: url, options: .atomic)
            outcome.written.append("\(Self.expectedFolder)/\(name)")
        }
        return outcome
    }

    /// Where `got` first differs from `expected`: "line 3: expected '…', got '…'" (or the sizes, for bytes that are
    /// not text).
    static func firstDifference(expected: Data, got: Data) -> String {
        guard let old = String(validating: expected, as: UTF8.self), let new = String(validating: got, as: UTF8.self) else {
            return "the bytes differ (expected \(expected.count), got \(got.count))"
        }
        let a = old.split(separator: "\n", omittingEmptySubsequences: false), b = new.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? String(a[index]) : nil, y = index < b.count ? String(b[index]) : nil
            if x != y {
                let shown = { (line: String?) in line.map { "'\($0.shownAsText)'" } ?? "nothing" }
                return "line \(index + 1): expected \(shown(x)), got \(shown(y))"
            }
        }
        return "the bytes differ"
    }
}
