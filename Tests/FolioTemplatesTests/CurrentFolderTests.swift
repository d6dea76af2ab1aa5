import Foundation
import XCTest
import FolioCore
import FolioGit
@testable import FolioTemplates
import FolioTestSupport

/// A plain folder whose snapshot is current is listed and loaded straight from its files (no libgit2 reads), and
/// whatever happens to the folder meanwhile, a template is always exactly the snapshot it names.
final class CurrentFolderTests: PlainFolderTestCase {
    /// The template also has a file in a subfolder and a partial.
    override func setUpWithError() throws {
        try super.setUpWithError()
        try folder.write("t/files/sub/more.txt", "more {{who}}\n")
        try folder.write("t/partials/sign.mustache", "-- {{who}}")
        try folder.write("t/files/signed.txt", "{{>sign}}\n")
    }


    /// The stat cache of the folder's snapshot.
    private var statFile: URL {
        CacheRepository.snapshotFolder(for: folder.root.standardizedFileURL, in: temp.path("home/.cache/folio/sources"))
            .appendingPathComponent("folio-snapshot-stat")
    }

    private func resolve() throws -> ResolvedSource { try await_ { [resolver, source] in try await resolver!.resolve(source!) } }

    private func render(_ template: Template) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try template.render(answers: ["who": .string("a")]).map { ($0.path, String(decoding: $0.data, as: UTF8.self)) })
    }

    func testGivenACurrentSnapshotWhenResolvedAgainThenItIsReadFromTheFolderAndMatchesTheSnapshotExactly() throws {
        // Given a folder snapshotted once, with files older than its stat cache
        try folder.ageFiles()
        let first = try resolve()
        XCTAssertNil(first.folder, "the first resolve snapshots through libgit2")
        // When it is resolved again
        let second = try resolve()
        // Then it comes from the folder, names the same commit, and loads the same template as the snapshot's commit
        let current = try XCTUnwrap(second.folder)
        XCTAssertEqual(second.commit, first.commit)
        XCTAssertEqual(second.templates.map(\.id), first.templates.map(\.id))
        let fromFolder = try resolver.loadTemplate("p/t", in: second)
        let fromGit = try resolver.loadTemplate("p/t", in: first)
        XCTAssertEqual(fromFolder.files, fromGit.files)
        XCTAssertEqual(fromFolder.partials.templateLevel, fromGit.partials.templateLevel)
        XCTAssertEqual(try render(fromFolder), ["hello.txt": "v1 a\n", "sub/more.txt": "more a\n", "signed.txt": "-- a"])
        XCTAssertEqual(fromFolder.commit, first.commit)
        // And the blob ids the folder vouches for are the snapshot's own
        let repository = try Repository.open(at: current.gitDirectory)
        let tree = try repository.commit(try XCTUnwrap(ObjectID(hex: first.commit))).tree
        for (entry, blob) in zip(current.entries, current.blobs) {
            XCTAssertEqual(try repository.entry(atPath: entry.path, inTree: tree)?.id, blob, entry.path)
        }
    }

    func testGivenAFolderListedFromItsFilesWhenAFileChangesBeforeLoadingThenTheListedSnapshotIsLoaded() throws {
        // Given a current folder, resolved from its files
        try folder.ageFiles()
        _ = try resolve()
        let resolved = try resolve()
        XCTAssertNotNil(resolved.folder)
        // When a file is rewritten (same size) after the listing and before the template is loaded
        try folder.write("t/files/hello.txt", "v2 {{who}}\n")
        // Then the template loaded is the snapshot that was listed, never a mixture with the new file
        let template = try resolver.loadTemplate("p/t", in: resolved)
        XCTAssertEqual(try render(template)["hello.txt"], "v1 a\n")
        XCTAssertEqual(template.commit, resolved.commit)
        // And the next resolve sees the change as a new snapshot
        let next = try resolve()
        XCTAssertNotEqual(next.commit, resolved.commit)
        XCTAssertEqual(try render(try resolver.loadTemplate("p/t", in: next))["hello.txt"], "v2 a\n")
    }

    func testGivenACacheRepositoryUnderItsEarlierNameWhenResolvedThenItIsMovedAndNotSnapshottedAgain() throws {
        // Given a snapshot whose cache repository still has the name earlier versions gave it
        try folder.ageFiles()
        let first = try resolve()
        let sources = temp.path("home/.cache/folio/sources")
        let now = CacheRepository.snapshotFolder(for: folder.root.standardizedFileURL, in: sources)
        let earlier = CacheRepository.folder(key: "folder:" + folder.root.standardizedFileURL.path, label: "plain", in: sources)
        XCTAssertTrue(FileManager.default.fileExists(atPath: now.path))
        try FileManager.default.moveItem(at: now, to: earlier)
        // When the folder is resolved
        let second = try resolve()
        // Then the repository is back under its name, with the same snapshot, and nothing is left under the old one
        XCTAssertEqual(second.commit, first.commit)
        XCTAssertTrue(FileManager.default.fileExists(atPath: now.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: earlier.path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { !$0.hasPrefix(".") }.count, 1)
    }

    func testGivenFilesDatedBefore1970WhenResolvedAgainThenTheStatCacheStillVouchesForThem() throws {
        // Given a folder whose files are dated 1960 (a negative time stamp in the stat cache)
        let old = Date(timeIntervalSince1970: -315_619_200)
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder.root.path) {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: folder.root.appendingPathComponent(path).path)
        }
        let first = try resolve()
        // When it is resolved again, Then the cache is read back and the folder is current
        let second = try resolve()
        XCTAssertNotNil(second.folder)
        XCTAssertEqual(second.commit, first.commit)
    }

    func testGivenAStatCacheWithHostileLinesWhenResolvedThenItIsIgnoredAndTheSnapshotIsRight() throws {
        // Given a snapshot whose stat cache then gets lines that overflow, go negative, or hold a non-UTF-8 path
        try folder.ageFiles()
        let first = try resolve()
        let file = statFile
        let good = try Data(contentsOf: file)
        let hostile: [[UInt8]] = [
            Array("99999999999999999999 1 1 1 33188 \(first.commit) x\n".utf8),
            Array("1 1 1 -1 33188 \(first.commit) x\n".utf8),
            Array("1 1 1 1 4294967296 \(first.commit) x\n".utf8),
            Array("1 1 1 1 33188 \(first.commit) ".utf8) + [0xFF, 0xFE, 0x0A],
            Array("1 1 1 1 33188 zz x\n".utf8),
        ]
        for line in hostile {
            try (good + Data(line)).write(to: file)
            // When the folder is resolved, Then the cache is not trusted, and the snapshot still holds the folder
            let resolved = try resolve()
            XCTAssertNil(resolved.folder)
            XCTAssertEqual(resolved.commit, first.commit)
            XCTAssertEqual(try render(try resolver.loadTemplate("p/t", in: resolved))["hello.txt"], "v1 a\n")
        }
    }

    func testGivenAFIFOInPlaceOfTheStatCacheWhenResolvedThenItDoesNotWaitAndTheSnapshotIsRight() throws {
        // Given a snapshot whose stat cache has been replaced by a named pipe no one writes to
        try folder.ageFiles()
        let first = try resolve()
        let file = statFile
        try FileManager.default.removeItem(at: file)
        XCTAssertEqual(mkfifo(file.path, 0o644), 0)
        // When the folder is resolved, Then it returns (the pipe is not read) with the same snapshot
        let resolved = try resolve()
        XCTAssertNil(resolved.folder)
        XCTAssertEqual(resolved.commit, first.commit)
    }

    func testGivenHexTextWhenParsedAsAnObjectIDThenOnlyFortyHexDigitsAreAcceptedAndRoundTrip() throws {
        let hex = "ce013625030ba8dba906f756967f9e9ca394464a"
        XCTAssertEqual(ObjectID(hex: hex)?.hex, hex)
        XCTAssertEqual(ObjectID(hex: hex.uppercased())?.hex, hex)
        let dir = TemporaryDirectory()
        XCTAssertEqual(try Repository.create(at: dir.path("r")).writeBlob(Data("hello\n".utf8)), ObjectID(hex: hex))
        for bad in ["", String(hex.dropLast()), hex + "0", "g" + hex.dropFirst(), "０" + hex.dropFirst(), String(hex.dropLast()) + "\u{0}"] {
            XCTAssertNil(ObjectID(hex: bad), bad)
        }
    }
}
