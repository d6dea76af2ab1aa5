import FolioCore
import FolioSync
import FolioTestSupport
import Foundation
import XCTest

/// The document's local list of trusted template sources (`.git/folio/trusted-template-sources.json`).
final class TrustedSourcesFileTests: XCTestCase {
    func testGivenSourcesWithQuotesSlashesAndNonASCIIWhenRecordedThenTheyAreReadBackInOrder() throws {
        // Given a document
        let dir = TemporaryDirectory()
        let document = try DocumentStore(environment: dir.environment()).create(at: dir.path("Doc"))
        // When three odd locations are recorded (one twice)
        let locations = ["/tmp/a \"quoted\"/templates", "https://example.com/t.git", "/home/zoë/模板\\x"]
        for location in locations + [locations[0]] { try document.recordTrustedTemplateSource(location) }
        // Then they are read back once each, in order, and the file is JSON git and Foundation read the same way
        XCTAssertEqual(try document.trustedTemplateSources(), locations)
        let data = try Data(contentsOf: dir.path("Doc/.git/folio/trusted-template-sources.json"))
        XCTAssertEqual(try JSONDecoder().decode([String].self, from: data), locations)
    }

    func testGivenADamagedListWhenReadThenTheErrorNamesTheFile() throws {
        // Given a document whose list holds a number where a location belongs
        let dir = TemporaryDirectory()
        let document = try DocumentStore(environment: dir.environment()).create(at: dir.path("Doc"))
        let file = dir.path("Doc/.git/folio/trusted-template-sources.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        for damaged in [#"["/a", 3]"#, #"{"a": "/b"}"#, "[\"/a\""] {
            try Data(damaged.utf8).write(to: file)
            // When it is read, Then the error names the file
            XCTAssertThrowsError(try document.trustedTemplateSources()) { error in
                XCTAssertTrue("\(error)".contains(file.path), "\(error)")
            }
        }
    }

    func testGivenAListThatIsAFolderOrAFIFOWhenReadOrRecordedThenTheErrorNamesTheFileAndWhatIsThere() throws {
        // Given a document whose list is, in turn, a folder and a FIFO
        let dir = TemporaryDirectory()
        let document = try DocumentStore(environment: dir.environment()).create(at: dir.path("Doc"))
        let file = dir.path("Doc/.git/folio/trusted-template-sources.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        for (kind, make) in [("a directory", { try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false) }),
                             ("a FIFO (named pipe)", { XCTAssertEqual(mkfifo(file.path, 0o644), 0) })] as [(String, () throws -> Void)] {
            try make()
            // When it is read, or a source is recorded into it
            // Then each fails naming the file and what is in its place (it is not an empty list)
            let expected = "\(file.path): cannot read the file (it is \(kind), not a regular file)"
            XCTAssertThrowsError(try document.trustedTemplateSources()) { XCTAssertEqual("\($0)", expected) }
            XCTAssertThrowsError(try document.recordTrustedTemplateSource("/t")) { XCTAssertEqual("\($0)", expected) }
            try FileManager.default.removeItem(at: file)
        }
    }
}
