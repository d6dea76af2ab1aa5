import FolioPluginABI
import FolioPluginText
import XCTest

/// folio_text.h, the C helpers for plugin authors: UTF-8 decoding, display widths by Folio's rules, the JSON argument
/// array and the line builder that cuts by cells. Called here as a C plugin calls them (the header's static inlines).
final class FolioTextTests: XCTestCase {
    /// (code point, length) decoded from the start of `bytes`.
    private func decode(_ bytes: [UInt8]) -> (Int32, Int) {
        var length = 0
        let code = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { folio_utf8_decode($0.baseAddress, $0.count, &length) }
        }
        return (code, length)
    }

    private func width(_ text: String) -> Int {
        Int(text.withCString { folio_text_width($0, strlen($0)) })
    }

    /// (bytes kept, cells used) of `text` fitted to `cells`.
    private func fit(_ text: [UInt8], _ cells: Int32) -> (Int, Int32) {
        var used: Int32 = -1
        let kept = text.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { folio_text_fit($0.baseAddress, $0.count, cells, &used) }
        }
        return (kept, used)
    }

    private func arguments(_ json: String) -> [String]? {
        var args = folio_args()
        guard folio_args_parse(json, &args) == 1 else {
            XCTAssertEqual(args.count, 0, "a refused array leaves nothing behind")
            return nil
        }
        defer { folio_args_free(&args) }
        return (0..<args.count).map { String(cString: args.values[$0]!) }
    }

    func testGivenInvalidUTF8WhenDecodedThenEachBadSequenceIsOneSkippedByteAndGoodOnesDecode() {
        // Given stray, overlong, surrogate, out-of-range and cut sequences; When decoded; Then each is -1, one byte long
        for bad: [UInt8] in [[0xFF], [0x80], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE5, 0xAE], [0xE5, 0x41, 0x41]] {
            XCTAssertTrue(decode(bad) == (-1, 1), "\(bad) decoded as \(decode(bad))")
        }
        // And well-formed characters of each length decode to their code points
        XCTAssertTrue(decode(Array("A".utf8)) == (0x41, 1))
        XCTAssertTrue(decode(Array("é".utf8)) == (0xE9, 2))
        XCTAssertTrue(decode(Array("宽".utf8)) == (0x5BBD, 3))
        XCTAssertTrue(decode(Array("😀".utf8)) == (0x1F600, 4))
        XCTAssertTrue(decode([0xED, 0x9F, 0xBF]) == (0xD7FF, 3), "the last code point before the surrogates")
        XCTAssertEqual("Café 宽 😀".withCString { folio_utf8_valid($0, strlen($0)) }, 1)
        XCTAssertEqual([UInt8]([0x61, 0xED, 0xB0, 0x80]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { folio_utf8_valid($0.baseAddress, 4) } }, 0)
    }

    func testGivenWideCombiningAndEmojiTextWhenMeasuredThenWidthsAreFoliosCells() {
        // Given text of each kind; When measured; Then wide characters take two cells and combining marks none
        XCTAssertEqual(width("abc"), 3)
        XCTAssertEqual(width("宽宽"), 4)
        XCTAssertEqual(width("e\u{301}"), 1, "e with a combining acute accent is one cell")
        XCTAssertEqual(width("😀"), 2)
        XCTAssertEqual(width("🇫🇷"), 2, "a flag (two regional indicators) is one wide cluster")
        XCTAssertEqual(width("❤\u{FE0F}"), 2, "the emoji presentation selector makes a narrow symbol wide")
        XCTAssertEqual(width("Café 宽"), 7)
        XCTAssertEqual(folio_char_width(0x07), 0, "a control character")
    }

    func testGivenALineTooWideWhenFittedThenItIsCutBetweenWholeClustersNeverInsideACharacter() {
        // Given wide characters, a combining sequence and an invalid byte; When fitted; Then only whole clusters are kept
        XCTAssertTrue(fit(Array("宽宽宽".utf8), 5) == (6, 4), "a wide character with one cell left stays out")
        XCTAssertTrue(fit(Array("宽".utf8), 1) == (0, 0))
        XCTAssertTrue(fit(Array("e\u{301}x".utf8), 1) == (3, 1), "the accent stays with its letter")
        XCTAssertTrue(fit([0x61, 0xFF, 0x62], 2) == (2, 2), "an invalid byte is one cell")
        XCTAssertTrue(fit(Array("ab".utf8), 10) == (2, 2))
    }

    func testGivenJSONArgumentArraysWhenParsedThenStringsAreDecodedAndMalformedOnesRefused() {
        // Given well-formed arrays; Then every escape is decoded, surrogate pairs included
        XCTAssertEqual(arguments(#"[]"#), [])
        XCTAssertEqual(arguments(#" [ "a" , "b\u00e9\n\"\\" , "\ud83d\ude00", "宽" ] "#), ["a", "bé\n\"\\", "😀", "宽"])
        XCTAssertEqual(arguments("[" + (1...20).map { "\"\($0)\"" }.joined(separator: ",") + "]")?.count, 20)
        // Given malformed ones (lone surrogates, NUL, raw controls, bad escapes, not an array, trailing text); Then refused
        for bad in [#"["\ud800"]"#, #"["\udc00"]"#, #"["\ud800\u0041"]"#, #"["\u0000"]"#, "[\"a\u{1}\"]", #"["\x"]"#, #"["\u12"]"#,
                    #""a""#, #"["a""#, #"["a"] x"#, #"["a",]"#, #"[1]"#, ""] {
            XCTAssertNil(arguments(bad), bad)
        }
        // And invalid UTF-8 inside a string is refused too
        var args = folio_args()
        let invalid: [CChar] = [0x5B, 0x22, -1, 0x22, 0x5D, 0]  // ["\xFF"]
        XCTAssertEqual(folio_args_parse(invalid, &args), 0)
    }

    func testGivenALineBuilderWhenTextIsAddedPastItsWidthThenEachLineIsCutByCellsAndStaysValidUTF8() {
        // Given a builder 5 cells wide
        var lines = folio_lines()
        folio_lines_init(&lines, 5)
        // When a line of wide text, then one with an invalid byte and controls, are added
        XCTAssertEqual(folio_lines_add_string(&lines, "ab宽宽"), 0, "cut")
        folio_lines_break(&lines)
        XCTAssertEqual([UInt8]([0xFF, 0x78, 0x0A]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { folio_lines_add(&lines, $0.baseAddress, 3) } }, 1)
        XCTAssertEqual(folio_lines_add_string(&lines, "e\u{301}"), 1)
        XCTAssertEqual(folio_lines_add_string(&lines, "xyz"), 0)
        // Then the first line keeps "ab宽" (4 cells: the second 宽 does not fit) and the second shows replacements
        var out = folio_buffer(), error = folio_buffer()
        XCTAssertEqual(folio_lines_finish(&lines, &out, &error), FOLIO_STATUS_OK)
        defer { folio_buffer_release(&out) }
        let text = String(decoding: UnsafeBufferPointer(start: out.data, count: out.size), as: UTF8.self)
        XCTAssertEqual(text, "ab宽\n\u{FFFD}x\u{FFFD}e\u{301}x")
        XCTAssertEqual(String(validating: UnsafeBufferPointer(start: out.data, count: out.size), as: UTF8.self), text, "valid UTF-8")
    }
}
