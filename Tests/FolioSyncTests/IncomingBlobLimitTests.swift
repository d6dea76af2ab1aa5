import Foundation
import FolioCore
import FolioGit
import FolioSync
import FolioTestSupport
import XCTest

/// A remote can hold a file of any size; Folio takes in none larger than `maxIncomingFileMiB` (lowered to 1 MiB
/// here). A larger one is refused at fetch in one line naming the file, its size, the limit and the remote, and
/// nothing of it is kept; one under the limit arrives as before.
final class IncomingBlobLimitTests: XCTestCase {
    var ws: SyncWorkspace!
    /// The victim's store: the settings lower the limit to 1 MiB.
    var limited: DocumentStore!

    override func setUpWithError() throws {
        ws = try SyncWorkspace()
        var settings = Settings(sync: .none)
        settings.maxIncomingFileMiB = 1
        limited = DocumentStore(settings: settings, environment: ws.env)
    }

    override func tearDown() {
        ws = nil
        limited = nil
    }

    private func transfer() -> TransferOptions { TransferOptions(environment: ws.env) }

    /// Bytes that do not compress, so the pack is as large as the file.
    private func noise(_ count: Int) -> Data {
        var generator = SeededRandom(seed: UInt64(count))
        var data = Data(capacity: count + 8)
        while data.count < count { withUnsafeBytes(of: generator.next()) { data.append(contentsOf: $0) } }
        return data.prefix(count)
    }

    /// The author's document pushed to a bare remote (reached as `url` gives it), and the victim's clone under the
    /// lowered limit.
    private func shared(url: (URL) -> String = { $0.path }) throws -> (author: Document, victim: Document) {
        let bare = try ws.bareRepository("shared.git")
        let author = try ws.document("Author")
        try author.write(Data("milk\n".utf8), to: "document.txt", message: "Milk")
        try author.addRemote("origin", url: url(bare))
        try author.push(options: transfer())
        let victim = try limited.clone(from: url(bare), to: ws.dir.path("Victim"), options: transfer())
        return (author, victim)
    }

    /// Refs, the files of the work tree and the quarantines left in `.git/folio`.
    private func state(_ document: Document) throws -> [String] {
        let refs = try git(["for-each-ref", "--format=%(refname) %(objectname)"], in: document.url, environment: ws.env).stdout
        let files = try FileManager.default.contentsOfDirectory(atPath: document.url.path).sorted()
        let folio = (try? FileManager.default.contentsOfDirectory(atPath: document.url.appendingPathComponent(".git/folio").path)) ?? []
        return [refs] + files + folio.filter { $0.hasPrefix("incoming-") }
    }

    /// The id git gives `data` as a blob.
    private func blobID(_ data: Data) throws -> String {
        let file = ws.dir.path("blob-\(data.count)")
        try data.write(to: file)
        return try git(["hash-object", file.path], in: ws.dir.url, environment: ws.env).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Asserts `text` is one line naming the file, its id, its size, the limit and the remote, that `document`
    /// is as `before`, and that the file's blob was not kept.
    private func assertRefused(_ text: String, blob: String, size: Int, document: Document, before: [String],
                               file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertFalse(text.trimmingCharacters(in: .newlines).contains("\n"), "one line: \(text)", file: file, line: line)
        for part in ["origin", "refused", "'big.bin'", String(blob.prefix(7)), "\(size) bytes", "1048576 bytes (1.0 MiB)", "nothing was fetched"] {
            XCTAssertTrue(text.contains(part), "names \(part): \(text)", file: file, line: line)
        }
        XCTAssertEqual(try state(document), before, "the document changed", file: file, line: line)
        XCTAssertNotEqual(try git(["cat-file", "-e", blob], in: document.url, environment: ws.env).status, 0,
                          "the refused file's blob was kept", file: file, line: line)
        try ws.assertClean(document.url, file: file, line: line)
        try ws.assertFsck(document.url, file: file, line: line)
    }

    func testGivenARemoteFileOverTheLimitWhenPulledThenItIsRefusedInOneLineAndTheDocumentIsUnchanged() throws {
        // Given a shared document, and the author adding a 1.5 MiB file
        let (author, victim) = try shared()
        let big = noise(1_572_864)
        try author.write(big, to: "big.bin", message: "Big")
        try author.push(options: transfer())
        let before = try state(victim)
        // When the victim, whose limit is 1 MiB, pulls
        var refusal = "no error"
        XCTAssertThrowsError(try victim.pull(options: SyncOptions(transfer: transfer()))) { refusal = "\($0)" }
        // Then one line names the file, its size, the limit and the remote, and nothing of it was kept
        try assertRefused(refusal, blob: try blobID(big), size: big.count, document: victim, before: before)
        XCTAssertTrue(refusal.contains("commit \(try author.head().id.short)"), refusal)
    }

    func testGivenARemoteFileUnderTheLimitWhenPulledThenItArrives() throws {
        // Given a shared document, and the author adding a file just under 1 MiB
        let (author, victim) = try shared()
        let small = noise(1_048_576 - 1024)
        try author.write(small, to: "small.bin", message: "Small")
        try author.push(options: transfer())
        // When the victim pulls, then the file arrives whole
        _ = try victim.pull(options: SyncOptions(transfer: transfer()))
        XCTAssertEqual(FileManager.default.contents(atPath: victim.url.appendingPathComponent("small.bin").path), small)
        XCTAssertEqual(try victim.head().id, try author.head().id)
        try ws.assertFsck(victim.url)
    }

    func testGivenAFileThatGrowsPastTheLimitOverGitDaemonWhenPulledThenTheNewVersionIsRefused() throws {
        // Given a document shared over git daemon holding a file under the limit, already pulled
        try FileManager.default.createDirectory(at: ws.serversRoot, withIntermediateDirectories: true)
        let daemon = try GitDaemon(basePath: ws.serversRoot, environment: ws.env)
        let (author, victim) = try shared { daemon.url($0.lastPathComponent) }
        let first = noise(900 * 1024)
        try author.write(first, to: "big.bin", message: "First")
        try author.push(options: transfer())
        _ = try victim.pull(options: SyncOptions(transfer: transfer()))
        // When it grows past 1 MiB (the server sends it as a delta against the version the victim has)
        let grown = first + noise(300 * 1024)
        try author.write(grown, to: "big.bin", message: "Grown")
        try author.push(options: transfer())
        let before = try state(victim)
        var refusal = "no error"
        XCTAssertThrowsError(try victim.pull(options: SyncOptions(transfer: transfer()))) { refusal = "\($0)" }
        // Then the new version is refused by its size, and the victim keeps the old one
        try assertRefused(refusal, blob: try blobID(grown), size: grown.count, document: victim, before: before)
        XCTAssertEqual(FileManager.default.contents(atPath: victim.url.appendingPathComponent("big.bin").path), first)
    }

    func testGivenARemoteHoldingAFileOverTheLimitWhenClonedThenNothingIsLeftBeside() throws {
        // Given a remote whose document holds a 2 MiB file
        let bare = try ws.bareRepository("shared.git")
        let author = try ws.document("Author")
        try author.write(noise(2 << 20), to: "big.bin", message: "Big")
        try author.addRemote("origin", url: bare.path)
        try author.push(options: transfer())
        let beside = try FileManager.default.contentsOfDirectory(atPath: ws.dir.url.path).sorted()
        // When it is cloned under the 1 MiB limit, then the clone is refused naming the file, and nothing is left
        XCTAssertThrowsError(try limited.clone(from: bare.path, to: ws.dir.path("Clone"), options: transfer())) { error in
            XCTAssertTrue("\(error)".contains("'big.bin'") && "\(error)".contains("2097152 bytes"), "\(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: ws.dir.url.path).sorted(), beside)
    }

    func testGivenTheLimitInSettingsJSONWhenFolioPullRunsThenItRefusesWithANonZeroExit() throws {
        // Given a shared document with a 1.5 MiB file on the remote, and settings.json lowering the limit to 1 MiB
        let (author, victim) = try shared()
        let big = noise(1_572_864)
        try author.write(big, to: "big.bin", message: "Big")
        try author.push(options: transfer())
        let settings = Settings.fileURL(environment: ws.env)
        try FileManager.default.createDirectory(at: settings.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"sync": "none", "maxIncomingFileMiB": 1}"#.utf8).write(to: settings)
        let before = try state(victim)
        // When folio pull runs, then it exits 1 with one line naming the file, and nothing changed
        let result = ws.folio(["pull", victim.url.path], expect: 1)
        try assertRefused(result.stderr, blob: try blobID(big), size: big.count, document: victim, before: before)
    }

    func testGivenALimitOfZeroInSettingsJSONWhenLoadedThenTheFileIsRefusedNamingTheKey() throws {
        // Given settings.json with a limit that is not a whole number of MiB from 1
        let settings = Settings.fileURL(environment: ws.env)
        try FileManager.default.createDirectory(at: settings.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"maxIncomingFileMiB": 0}"#.utf8).write(to: settings)
        // When the settings load, then they are refused naming the key
        XCTAssertThrowsError(try Settings.load(environment: ws.env)) { XCTAssertTrue("\($0)".contains("maxIncomingFileMiB"), "\($0)") }
    }
}
