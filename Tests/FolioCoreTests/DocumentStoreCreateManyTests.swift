@testable import FolioCore
import FolioGit
import FolioTestSupport
import Foundation
import XCTest

/// A new document of many files: its files and objects are written at the same time, and git must see exactly
/// what was given, with an index whose stat data needs no refresh.
final class DocumentStoreCreateManyTests: XCTestCase {
    func testGivenManyNestedFilesALinkAndAnExecutableWhenCreatedThenGitSeesEachAsGivenAndNothingStatDirty() throws {
        // Given 250 files over nested folders, an executable and a link
        let dir = TemporaryDirectory()
        let env = dir.environment()
        let store = DocumentStore(settings: Settings(sync: .full), environment: env)
        var files = (0..<250).map { DocumentFile(path: "part\($0 % 7)/sub\($0 % 3)/f\($0).txt", data: Data("content \($0)\n".utf8)) }
        files.append(DocumentFile(path: "run.sh", data: Data("#!/bin/sh\necho hi\n".utf8), executable: true))
        files.append(DocumentFile(path: "latest", data: Data(), symlinkTarget: "part0/sub0/f0.txt"))
        let metadata = DocumentMetadata(contentType: .plainText, title: "Many", primaryFile: "run.sh")
        // When the document is created
        let document = try store.create(at: dir.path("Many"), metadata: metadata, files: files, message: "Create Many")
        // Then git reads every file with its content and mode, fsck is clean, and no file is stat-dirty in the index
        XCTAssertEqual(try git(["fsck", "--strict", "--no-dangling"], in: document.url, environment: env).status, 0)
        XCTAssertEqual(try git(["diff-files", "--name-only"], in: document.url, environment: env).stdout, "")
        XCTAssertEqual(try git(["status", "--porcelain"], in: document.url, environment: env).stdout, "")
        XCTAssertEqual(try git(["show", "HEAD:part3/sub2/f143.txt"], in: document.url, environment: env).stdout, "content 143\n")
        let tree = try git(["ls-tree", "-r", "HEAD"], in: document.url, environment: env).stdout
        XCTAssertTrue(tree.contains("100755 blob"), tree)
        XCTAssertTrue(tree.contains("120000 blob"), tree)
        XCTAssertEqual(tree.split(separator: "\n").count, 253)
        XCTAssertEqual(try String(contentsOf: dir.path("Many/part6/sub1/f97.txt"), encoding: .utf8), "content 97\n")
        // And one pack holds the objects, with nothing written beside the document
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path("Many/.git/objects/pack").path).filter { $0.hasSuffix(".pack") }.count, 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.hasPrefix(".folio-new") }, [])
    }
}
