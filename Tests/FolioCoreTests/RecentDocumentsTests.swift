@testable import FolioCore
import FolioTestSupport
import Foundation
import Synchronization
import XCTest

/// The recent-documents list: read and written without Foundation's coders, in the layout they wrote, and kept whole
/// when several processes record at once.
final class RecentDocumentsTests: XCTestCase {
    private let hostile = ["quote \" and back\\slash", "new\nline\ttab\r", "control \u{1}\u{1F}", "emoji 📄 and 漢字", "line sep \u{2028}", ""]

    private func entries() -> [RecentDocuments.Entry] {
        hostile.enumerated().map { index, text in
            RecentDocuments.Entry(path: "/tmp/\(text)/\(index)", title: text, contentType: "public.plain-text",
                                  opened: Date(timeIntervalSince1970: 1_796_000_000 + TimeInterval(index * 3601)),
                                  pinned: index == 1 ? true : index == 2 ? false : nil)
        }
    }

    func testGivenEntriesWithQuotesControlCharactersAndEmojiWhenWrittenAndReadThenTheyComeBackUnchanged() throws {
        // Given entries whose paths and titles hold every character JSON must escape, and some that it must not
        let written = entries()
        // When they are encoded and decoded
        let data = RecentDocuments.encode(written)
        // Then they are the same entries, and the bytes are strict JSON that Foundation reads as the same list
        XCTAssertEqual(RecentDocuments.decode(data), written)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        XCTAssertEqual(try decoder.decode([RecentDocuments.Entry].self, from: data), written)
        XCTAssertNoThrow(try JSONNode.parse(data))
    }

    func testGivenAListWrittenByFoundationsEncoderWhenReadThenEveryEntryIsThere() throws {
        // Given the file as the earlier versions wrote it (JSONEncoder, pretty, sorted keys, ISO 8601 dates)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let old = try encoder.encode(entries())
        // When it is read, Then every entry comes back
        XCTAssertEqual(RecentDocuments.decode(old), entries())
    }

    func testGivenDamagedListsWhenReadThenOnlyWholeEntriesAreKept() {
        // Given a file that is not JSON, one with a duplicate key, one that is not an array, and one with a bad element
        XCTAssertNil(RecentDocuments.decode(Data("[{".utf8)))
        XCTAssertNil(RecentDocuments.decode(Data(#"[{"path":"/a","path":"/b"}]"#.utf8)))
        XCTAssertNil(RecentDocuments.decode(Data(#"{"path":"/a"}"#.utf8)))
        XCTAssertNil(RecentDocuments.decode(Data([0x5B, 0x22, 0xFF, 0x22, 0x5D])))
        let mixed = #"""
        [{"path":"/good","title":"Good","contentType":"t","opened":"2026-12-01T07:00:00Z"},
         {"path":"/no-date","title":"x","contentType":"t"},
         {"path":"/bad-date","title":"x","contentType":"t","opened":"2026-13-01T07:00:00Z"},
         {"path":"/bad-pin","title":"x","contentType":"t","opened":"2026-12-01T07:00:00Z","pinned":"yes"},
         {"path":"/offset","title":"Offset","contentType":"t","opened":"2026-12-01T08:00:00+01:00"}]
        """#
        // When read, Then the whole entries are kept (a date with an offset too), and the broken ones are dropped
        let kept = RecentDocuments.decode(Data(mixed.utf8)) ?? []
        XCTAssertEqual(kept.map(\.path), ["/good", "/offset"])
        XCTAssertEqual(kept.first?.opened, kept.last?.opened)
        XCTAssertEqual(ISO8601Seconds.format(kept[0].opened), "2026-12-01T07:00:00Z")
    }

    func testGivenTwoWritersRecordingAtOnceWhenTheyFinishThenEveryDocumentIsListed() throws {
        // Given one recent list
        let dir = TemporaryDirectory()
        let env = dir.environment()
        let recent = RecentDocuments(environment: env)
        // When two threads each create eight documents and record each one as it is made
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            do {
                let store = try DocumentStore(environment: env)
                for index in 0..<8 { recent.record(try store.create(at: dir.path("Doc\(lane)-\(index)"))) }
            } catch { failures.withLock { $0.append("\(error)") } }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        let expected = (0..<2).flatMap { lane in (0..<8).map { dir.path("Doc\(lane)-\($0)").path } }
        // Then all sixteen are in the list, once each
        XCTAssertEqual(Set(try recent.load().map(\.path)), Set(expected))
        XCTAssertEqual(try recent.load().count, 16)
    }
}
