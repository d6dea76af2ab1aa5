import Foundation
import XCTest
import FolioCore
import FolioTemplates
import FolioTestSupport

/// A plain-folder source is snapshotted again only as far as its files changed (a stat cache like git's index);
/// whatever the cache says, the snapshot always holds the folder's current content.
final class FolderSnapshotStatCacheTests: PlainFolderTestCase {

    private func rendered() throws -> String? {
        let template = try await_ { [resolver, source] in try await resolver!.findTemplate("p/t", in: [source!]) }
        return try template.render(answers: ["who": .string("a")]).first.map { String(decoding: $0.data, as: UTF8.self) }
    }

    private var statFile: URL? {
        let sources = temp.path("home/.cache/folio/sources")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
        return names.first { !$0.hasPrefix(".") }.map { sources.appendingPathComponent($0).appendingPathComponent("folio-snapshot-stat") }
    }

    func testGivenAFolderOfManyFilesWhenSnapshottedTwiceThenOnePackHoldsThemAndEveryFileRendersFromIt() throws {
        // Given a template folder of 120 files (enough for the first snapshot to be written as one pack)
        for i in 0..<120 { try folder.write(String(format: "t/files/many/f%03d.txt", i), "file \(i) of {{who}}\n") }
        try folder.ageFiles()
        // When it is snapshotted, and again with nothing changed
        let first = try await_ { [resolver, source] in try await resolver!.resolve(source!) }
        let second = try await_ { [resolver, source] in try await resolver!.resolve(source!) }
        // Then both name the same commit, the cache repository is whole for git, with its objects in one pack
        XCTAssertEqual(second.commit, first.commit)
        let cache = try XCTUnwrap(statFile).deletingLastPathComponent()
        let fsck = try git(["fsck", "--strict", "--no-dangling"], in: cache, environment: temp.environment())
        XCTAssertEqual(fsck.status, 0, fsck.stderr)
        let packs = try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("objects/pack").path)
        XCTAssertEqual(packs.filter { $0.hasSuffix(".pack") }.count, 1)
        // And every file renders with its own content, in path order
        let template = try await_ { [resolver, source] in try await resolver!.findTemplate("p/t", in: [source!]) }
        let files = try template.render(answers: ["who": .string("a")])
        XCTAssertEqual(files.count, 121)
        for i in 0..<120 {
            let file = try XCTUnwrap(files.first { $0.path == String(format: "many/f%03d.txt", i) })
            XCTAssertEqual(String(decoding: file.data, as: UTF8.self), "file \(i) of a\n")
        }
    }

    func testGivenTrustedCacheWhenAFileChangesWithTheSameSizeThenTheNewContentIsSnapshotted() throws {
        // Given a snapshot whose files are older than its stat cache
        try folder.ageFiles()
        let first = try await_ { [resolver, source] in try await resolver!.resolve(source!) }
        XCTAssertNotNil(statFile.flatMap { FileManager.default.contents(atPath: $0.path) })
        XCTAssertEqual(try await_ { [resolver, source] in try await resolver!.resolve(source!) }.commit, first.commit)
        // When a file is rewritten with the same size
        try folder.write("t/files/hello.txt", "v2 {{who}}\n")
        // Then the next snapshot is a new commit with the new content
        let second = try await_ { [resolver, source] in try await resolver!.resolve(source!) }
        XCTAssertNotEqual(second.commit, first.commit)
        XCTAssertEqual(try rendered(), "v2 a\n")
        // And adding or removing a file is seen as well
        try folder.ageFiles()
        _ = try await_ { [resolver, source] in try await resolver!.resolve(source!) }
        try folder.write("t/files/extra.txt", "x\n")
        let third = try await_ { [resolver, source] in try await resolver!.resolve(source!) }
        XCTAssertNotEqual(third.commit, second.commit)
        try FileManager.default.removeItem(at: folder.root.appendingPathComponent("t/files/extra.txt"))
        XCTAssertNotEqual(try await_ { [resolver, source] in try await resolver!.resolve(source!) }.commit, third.commit)
        let template = try await_ { [resolver, source] in try await resolver!.findTemplate("p/t", in: [source!]) }
        XCTAssertEqual(template.files.map(\.path), ["hello.txt"])
    }

    func testGivenCorruptOrLyingStatCacheWhenResolvedThenTheFolderIsReadAgain() throws {
        try folder.ageFiles()
        let first = try await_ { [resolver, source] in try await resolver!.resolve(source!) }
        let file = try XCTUnwrap(statFile)
        // A cache that does not parse is ignored
        try Data("garbage\n\u{0}".utf8).write(to: file)
        XCTAssertEqual(try await_ { [resolver, source] in try await resolver!.resolve(source!) }.commit, first.commit)
        // A cache naming another commit than the branch is not taken at its word
        let text = try XCTUnwrap(String(data: try Data(contentsOf: file), encoding: .utf8))
        try Data(text.replacingOccurrences(of: first.commit, with: String(repeating: "0", count: 40)).utf8).write(to: file)
        try folder.write("t/files/hello.txt", "v3 {{who}}\n")
        XCTAssertNotEqual(try await_ { [resolver, source] in try await resolver!.resolve(source!) }.commit, first.commit)
        XCTAssertEqual(try rendered(), "v3 a\n")
    }
}
