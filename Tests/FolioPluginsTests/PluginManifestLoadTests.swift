import FolioCore
@testable import FolioPlugins
import FolioTestSupport
import Foundation
import XCTest

/// Reading a plugin manifest: a missing file is unreadable, a bad one invalid with line and column.
final class PluginManifestLoadTests: XCTestCase {
    let manifest = """
    {"id": "org.test.m", "name": "M", "version": "1.0.0", "abi": 1, "library": "libm.so",
     "editors": [{"id": "e", "name": "E", "contentTypes": ["public.plain-text"],
                  "commands": [{"id": "c", "title": "C", "colour": "red"}]}]}
    """

    func testGivenNoManifestFileWhenLoadedThenTheErrorSaysItCouldNotBeRead() {
        // Given a path where no manifest is
        let dir = TemporaryDirectory()
        let url = dir.url.appendingPathComponent("libm.folio-plugin.json")
        // When it is loaded / Then the error is unreadableFile naming the file, not invalidFile
        XCTAssertThrowsError(try PluginManifest.load(from: url)) { error in
            XCTAssertEqual(error as? FolioError, .unreadableFile(path: url.path, reason: "no such file"))
        }
    }

    func testGivenAnUnknownKeyInACommandWhenLoadedThenItIsRefusedAtItsLineAndColumn() throws {
        // Given a manifest whose command has a key EditorCommand does not know
        let dir = TemporaryDirectory()
        let url = dir.url.appendingPathComponent("libm.folio-plugin.json")
        try Data(manifest.utf8).write(to: url)
        // When it is loaded / Then the key is refused where it stands
        XCTAssertThrowsError(try PluginManifest.load(from: url)) { error in
            XCTAssertEqual(error as? FolioError, .invalidFile(path: url.path, problem: "line 3, column 54: unknown key 'colour'"))
        }
        // And without it the manifest loads
        try Data(manifest.replacingOccurrences(of: #", "colour": "red""#, with: "").utf8).write(to: url)
        XCTAssertEqual(try PluginManifest.load(from: url).editors.first?.commands.first?.id, "c")
    }
}
