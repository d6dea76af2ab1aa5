import XCTest
@testable import FolioTerminal

/// `TerminalText.visible`, the one function that shows untrusted text as text: every control character becomes a
/// visible escape, ordinary text (accents, CJK, emoji sequences, combining marks) is left exactly as it is.
final class TerminalTextTests: XCTestCase {
    /// The escape expected for each C0 control and DEL.
    private func expectedC0(_ value: UInt32) -> String {
        switch value {
        case 0x09: return "\\t"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x1B: return "\\e"
        default: return "\\x" + (value < 0x10 ? "0" : "") + String(value, radix: 16, uppercase: true)
        }
    }

    func testGivenEveryC0ControlAndDELWhenShownThenEachIsItsEscapeBetweenOrdinaryLetters() {
        for value in Array(0x00..<0x20) + [0x7F] {
            let scalar = Unicode.Scalar(UInt8(value))
            // Given a control between two letters; When shown; Then it is its escape and nothing else changed
            XCTAssertEqual(TerminalText.visible("a\(scalar)b"), "a\(expectedC0(UInt32(value)))b", "U+\(String(value, radix: 16))")
            XCTAssertEqual("a\(scalar)b".shownAsText, "a\(expectedC0(UInt32(value)))b")
        }
        XCTAssertEqual(TerminalText.visible("\u{1B}]52;c;cHduZWQ=\u{07}"), "\\e]52;c;cHduZWQ=\\x07")
    }

    func testGivenEveryC1ControlAndEachBidiControlWhenShownThenEachIsAUnicodeEscape() {
        let bidi: [UInt32] = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x2028, 0x2029]
        for value in Array(UInt32(0x80)...0x9F) + bidi {
            let scalar = Unicode.Scalar(value)!
            XCTAssertEqual(TerminalText.visible("a\(scalar)b"), "a\\u{\(String(value, radix: 16, uppercase: true))}b", "U+\(String(value, radix: 16))")
        }
        XCTAssertEqual(TerminalText.visible("\u{9B}2J"), "\\u{9B}2J")
    }

    func testGivenMultiLineTextWhenShownKeepingLinesThenNewlinesAndTabsStayAndEveryOtherControlIsEscaped() {
        XCTAssertEqual(TerminalText.visible("one\ttwo\nthree\r\n\u{1B}[2J\u{202E}", keepingLines: true), "one\ttwo\nthree\\r\n\\e[2J\\u{202E}")
        XCTAssertEqual(TerminalText.visible("one\ttwo\nthree"), "one\\ttwo\\nthree", "a one-line field keeps nothing")
    }

    func testGivenInvalidUTF8BytesWhenShownThenEachBadByteIsAHexEscapeAndValidTextAroundItIsKept() {
        // Given a lone 0xFF, an overlong NUL, a truncated sequence, an encoded surrogate and a lone continuation byte
        let bytes: [UInt8] = [0x61, 0xFF, 0xC0, 0x80, 0xE2, 0x82, 0x41, 0xED, 0xA0, 0x80, 0x80, 0x1B, 0xC2, 0x9B, 0xE6, 0x97, 0xA5]
        // When shown; Then every invalid byte shows as \xNN, the valid ESC, C1 CSI and 日 as usual
        XCTAssertEqual(TerminalText.visible(utf8: bytes), "a\\xFF\\xC0\\x80\\xE2\\x82A\\xED\\xA0\\x80\\x80\\e\\u{9B}日")
        XCTAssertEqual(TerminalText.visible(utf8: [0x61, 0x0A, 0x09, 0xF0, 0x9F], keepingLines: true), "a\n\t\\xF0\\x9F")
    }

    func testGivenOrdinaryTextWhenShownThenItIsUnchangedAsStringAndAsBytes() {
        // Accents, CJK, an emoji ZWJ family, a flag, a skin tone, combining marks, an emoji presentation selector,
        // RTL letters (no override) and backslashes
        let ordinary = "Zoë — 日本語 👩‍👩‍👧 🇫🇷 👍🏽 e\u{301}\u{308} ☺\u{FE0F} שלום مرحبا C:\\e\\x07 \\u{9B} ~!@#$%^&*()"
        XCTAssertEqual(TerminalText.visible(ordinary), ordinary)
        XCTAssertEqual(TerminalText.visible(ordinary, keepingLines: true), ordinary)
        XCTAssertEqual(TerminalText.visible(utf8: Array(ordinary.utf8)), ordinary)
        XCTAssertEqual(ordinary[...].shownAsText, ordinary)
    }

    func testGivenTextAlreadyShownWhenShownAgainThenNothingChanges() {
        let hostile = "x\u{1B}[31m\u{07}\u{9B}\u{202E}\n\t\r\u{7F}y"
        let once = TerminalText.visible(hostile)
        XCTAssertEqual(TerminalText.visible(once), once)
        XCTAssertEqual(TerminalText.visible(once, keepingLines: true), once)
    }
}
