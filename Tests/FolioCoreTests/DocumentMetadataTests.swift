@testable import FolioCore
import Foundation
import XCTest

final class DocumentMetadataTests: XCTestCase {
    func testWhatIsWrittenReadsBackTheSame() throws {
        // Given metadata of a templated document, with answers of every JSON kind
        let template = DocumentOrigin.Template(id: "novel", version: "2.1", source: "https://example.com/t.git", ref: nil, commit: String(repeating: "a", count: 40),
                                               answers: ["title": .string("Dune \u{1F3DC}"), "chapters": .number(12), "draft": .bool(true), "tags": .array([.string("sf")]), "none": .null])
        let metadata = DocumentMetadata(contentType: "org.folio.story", title: "Dune \"2\"", created: Date(timeIntervalSince1970: 1_795_975_000),
                                        primaryFile: "book/story.md", origin: DocumentOrigin(kind: "template", template: template))
        // When it is encoded and decoded
        let decoded = try DocumentMetadata.decode(try metadata.encoded())
        // Then nothing changed
        XCTAssertEqual(decoded, metadata)
        XCTAssertEqual(try DocumentMetadata.decode(try DocumentMetadata(contentType: .plainText, title: "t", primaryFile: "document.txt").encoded()).origin, .blank)
    }

    func testISO8601TimestampsAgreeWithFoundation() throws {
        for text in ["2026-11-29T17:39:16Z", "1970-01-01T00:00:00Z", "2000-02-29T23:59:59Z", "2026-03-01T01:02:03+05:30",
                     "1969-12-31T23:00:00-02:00", "2026-11-29T17:39:16.250Z", "2100-12-31t00:00:00z"] {
            let expected = try Date(text.uppercased(), strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: text.contains(".")))
            XCTAssertEqual(ISO8601Seconds.parse(text), expected, text)
        }
        for bad in ["", "2026-11-29", "2026-11-29T17:39:16", "2026-13-01T00:00:00Z", "2026-11-29T17:39:16+0530", "2026-11-29T17:39:16Zjunk", "２026-11-29T17:39:16Z"] {
            XCTAssertNil(ISO8601Seconds.parse(bad), bad)
        }
    }

    func testAWrongOrMissingValueIsReportedWithItsPosition() throws {
        let good = try DocumentMetadata(contentType: .plainText, title: "t", primaryFile: "document.txt").encoded()
        let text = String(decoding: good, as: UTF8.self)
        let cases: [(String, String)] = [
            (text.replacingOccurrences(of: "\"title\" : \"t\"", with: "\"title\" : 7"), "expected a string"),
            (text.replacingOccurrences(of: "\"format\" : 1", with: "\"format\" : 1.5"), "expected a whole number"),
            (text.replacingOccurrences(of: "\"primaryFile\" : \"document.txt\",", with: ""), "missing key 'primaryFile'"),
            (text.replacingOccurrences(of: #"Z""#, with: #"""#), "is not an ISO 8601 date"),
            (text.replacingOccurrences(of: "\"format\" : 1", with: "\"format\" : 9"), "format 9 is newer"),
        ]
        for (json, expected) in cases {
            XCTAssertNotEqual(json, text, "the case must change the file: \(expected)")
            XCTAssertThrowsError(try DocumentMetadata.decode(Data(json.utf8)), expected) { error in
                XCTAssertTrue("\(error)".hasPrefix("line "), "\(error)")
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
            }
        }
    }
}
