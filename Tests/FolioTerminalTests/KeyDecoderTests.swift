import XCTest
@testable import FolioTerminal

final class KeyDecoderTests: XCTestCase {
    func decode(_ text: String) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.feed(Array(text.utf8)) + decoder.flush()
    }

    func testArrowsAndSpecialKeys() {
        XCTAssertEqual(decode("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D"), [.up, .down, .right, .left])
        XCTAssertEqual(decode("\u{1B}OA\u{1B}OB"), [.up, .down])
        XCTAssertEqual(decode("\r\t\u{7F}\u{1B}[Z"), [.enter, .tab, .backspace, .backTab])
        XCTAssertEqual(decode("\u{1B}[5~\u{1B}[6~\u{1B}[3~\u{1B}[H\u{1B}[F"), [.pageUp, .pageDown, .delete, .home, .end])
        XCTAssertEqual(decode("\u{11}"), [.ctrl("q")])
        XCTAssertEqual(decode("\u{1B}[1;5A"), [.up], "modifiers are ignored")
    }

    func testPrintableUTF8() {
        XCTAssertEqual(decode("aé日🌱"), [.character("a"), .character("é"), .character("日"), .character("🌱")])
    }

    func testLoneEscapeNeedsTheTimeout() {
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.feed([0x1B]), [])
        XCTAssertTrue(decoder.hasPending)
        XCTAssertEqual(decoder.flush(), [.escape])
        XCTAssertFalse(decoder.hasPending)
    }

    func testSequenceSplitAcrossReads() {
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.feed([0x1B]), [])
        XCTAssertEqual(decoder.feed([UInt8(ascii: "[")]), [])
        XCTAssertEqual(decoder.feed([UInt8(ascii: "A"), UInt8(ascii: "x")]), [.up, .character("x")])
        let bytes = Array("日".utf8)
        XCTAssertEqual(decoder.feed([bytes[0]]), [])
        XCTAssertEqual(decoder.feed(Array(bytes[1...])), [.character("日")])
    }

    func testDoubleEscapeIsEscapeThenNext() {
        XCTAssertEqual(decode("\u{1B}\u{1B}[A"), [.escape, .up])
    }

    func testGarbageNeverTraps() {
        XCTAssertEqual(decode("ÿ"), [.character("ÿ")])
        var decoder = KeyDecoder()
        _ = decoder.feed([0xFF, 0xC3, 0x1B, 0x5B, 0x31, 0x31, 0x31, 0x31, 0x31, 0x31, 0x31, 0x31, 0x31, 0x31, 0x31, 0x31, 0x31, 0x31, 0x31, 0x31, 0x31])
        _ = decoder.flush()
        _ = decoder.feed([0xE6, 0x97])
        _ = decoder.flush()
    }
}
