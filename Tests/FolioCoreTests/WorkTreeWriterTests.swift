@testable import FolioCore
import FolioTestSupport
import Foundation
import XCTest

/// The work-tree writer on its own (without the checks a change makes first, as when a folder is swapped for a link
/// between the check and the write): it never writes, creates or removes anything through a link.
final class WorkTreeWriterTests: XCTestCase {
    func testGivenALinkSwappedInForAFolderWhenWritingThenTheWriterRefusesAndWritesNothingOutside() throws {
        let dir = TemporaryDirectory()
        let root = dir.path("root"), outside = dir.path("outside")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside.appendingPathComponent("deep"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root.path + "/out", withDestinationPath: outside.path)
        let tree = WorkTree(rootPath: root.path, displayRoot: root.path)
        // When writing through the link (existing and missing folders behind it), then each write is refused
        XCTAssertThrowsError(try tree.write(Data("x".utf8), to: "out/x", mode: 0o666, sync: false)) {
            XCTAssertEqual($0 as? WorkTreeError, .linkInPath(path: root.path + "/out/x", link: "out"))
        }
        XCTAssertThrowsError(try tree.write(Data("x".utf8), to: "out/deep/x", mode: 0o666, sync: false)) {
            XCTAssertEqual($0 as? WorkTreeError, .linkInPath(path: root.path + "/out/deep/x", link: "out"))
        }
        XCTAssertThrowsError(try tree.write(Data("x".utf8), to: "out/new/x", mode: 0o666, sync: false)) {
            XCTAssertEqual($0 as? WorkTreeError, .linkInPath(path: root.path + "/out/new/x", link: "out"))
        }
        XCTAssertThrowsError(try tree.writeLink("/etc", to: "out/l", sync: false))
        // And removing through it removes nothing
        try Data("keep".utf8).write(to: outside.appendingPathComponent("deep/keep"))
        tree.remove("out/deep/keep")
        XCTAssertEqual(FileManager.default.contents(atPath: outside.path + "/deep/keep"), Data("keep".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside.path), ["deep"])
        // And reading through it reads nothing
        XCTAssertNil(tree.read("out/deep/keep"))
    }

    func testGivenNewFoldersWhenWritingThenTheyAreCreatedAndEmptyOnesGoWithTheLastFile() throws {
        let dir = TemporaryDirectory()
        let tree = WorkTree(rootPath: dir.url.path, displayRoot: dir.url.path)
        try tree.write(Data("a".utf8), to: "a/b/c.txt", mode: 0o666, sync: true)
        XCTAssertEqual(tree.read("a/b/c.txt"), Data("a".utf8))
        try tree.writeLink("c.txt", to: "a/b/link", sync: false)
        XCTAssertEqual(tree.linkTarget("a/b/link"), "c.txt")
        tree.remove("a/b/c.txt")
        XCTAssertTrue(tree.exists("a/b"), "a folder still holding a link stays")
        tree.remove("a/b/link")
        XCTAssertFalse(tree.exists("a"), "folders left empty are removed")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.hasPrefix(".folio-tmp") }, [])
    }
}
