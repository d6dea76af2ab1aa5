import FolioBasics
import Foundation
import XCTest

/// The text helpers that replace Foundation's ICU-backed ones give the same text Foundation gave.
final class TextTests: XCTestCase {
    func testTrimmingMatchesFoundationsCharacterSets() {
        // Given text with ASCII and Unicode spaces, tabs, line breaks and none at all
        let samples = ["", "   ", " a b ", "\t\n x \r\n", "\u{00A0}\u{2003}word\u{3000}", "\u{2028}line\u{85}", "a\n", "\n\t",
                       "  é  ", "x"]
        for text in samples {
            // When trimmed / Then as trimmingCharacters(in:) trimmed
            XCTAssertEqual(text.trimming(.whitespaces), text.trimmingCharacters(in: .whitespaces), text.debugDescription)
            XCTAssertEqual(text.trimming(.whitespacesAndNewlines), text.trimmingCharacters(in: .whitespacesAndNewlines), text.debugDescription)
            XCTAssertEqual(text.trimming(ScalarSet(charactersIn: "/ .")), text.trimmingCharacters(in: CharacterSet(charactersIn: "/ .")))
        }
    }

    func testFixedDecimalsMatchStringFormat() {
        // Given values that round both ways, negatives, huge and non-finite ones
        for value in [0.0, 2.25, 2.35, 0.05, -1.25, 1.5, 1e20, -0.0, 123_456.789, Double.nan, .infinity, -.infinity] {
            for digits in [0, 1, 2] {
                // When written / Then as String(format: "%.Nf") wrote them
                XCTAssertEqual(NumberText.fixed(value, digits: digits), String(format: "%.\(digits)f", value), "\(value) \(digits)")
            }
        }
        XCTAssertEqual(NumberText.hex(255, width: 2), String(format: "%02x", 255))
        XCTAssertEqual(NumberText.hex(0x1F0, width: 8), String(format: "%08x", 0x1F0))
        XCTAssertEqual(NumberText.hex(0, width: 2), "00")
    }

    func testPaddingMatchesFoundation() {
        // Given short, exact and long text / When padded / Then as padding(toLength:withPad:startingAt:)
        for (text, length) in [("ab", 5), ("abcde", 5), ("abcdefg", 4), ("", 3), ("é", 2), ("x", 0)] {
            XCTAssertEqual(text.padded(toLength: length), text.padding(toLength: length, withPad: " ", startingAt: 0))
        }
    }

    func testPathPartsMatchNSString() {
        // Given absolute, relative, root, empty and trailing-slash paths
        // ("a" alone is left out: NSString.lastPathComponent traps on a one-character relative path on Linux.)
        for path in ["/a/b/c.txt", "/a/b/", "/a", "/", "", "a/b", "/a//b", "notes.tar.gz", ".hidden", "/x/.folio"] {
            // When split / Then as NSString's path methods split them
            let ns = path as NSString
            XCTAssertEqual(PathText.lastComponent(path), ns.lastPathComponent, path)
            XCTAssertEqual(PathText.parent(path), ns.deletingLastPathComponent, path)
            XCTAssertEqual(PathText.pathExtension(path), ns.pathExtension, path)
        }
        XCTAssertEqual([PathText.lastComponent("a"), PathText.parent("a"), PathText.pathExtension("a")], ["a", "", ""])
    }

    func testPercentDecodingMatchesFoundation() {
        // Given encoded, plain, broken and non-UTF-8 text / When decoded / Then as removingPercentEncoding
        for text in ["a%2Fb", "%2e%2E", "plain", "100%", "%zz", "%C3%A9", "%FF", "%", "a%2"] {
            XCTAssertEqual(PercentEncoding.decoded(text), text.removingPercentEncoding, text)
        }
    }

    func testNumericOrderMatchesFoundation() {
        // Given item keys as editors number them
        let keys = ["10", "2", "1.10", "1.2", "a2", "a10", "b", "", "1", "1.2.3", "x-9", "x-10", "B", "é"]
        for a in keys {
            for b in keys where a != b {
                // When compared / Then in the order compare(_:options: .numeric) gives
                XCTAssertEqual(NumericOrder.ascending(a, b), a.compare(b, options: .numeric) == .orderedAscending, "\(a) < \(b)")
            }
        }
    }

    func testFoldingDropsCaseDiacriticsAndWidths() {
        // Given accented, upper-case and full-width text / When folded / Then as Foundation's folding
        XCTAssertEqual(TextFolding.folded("Crème Brûlée"), "creme brulee")
        XCTAssertEqual(TextFolding.folded("ÅNGSTRÖM"), "angstrom")
        XCTAssertEqual(TextFolding.folded("Ｆｕｌｌ", widths: true), "full")
        XCTAssertEqual(TextFolding.folded("Ｆｕｌｌ", widths: true),
                       "Ｆｕｌｌ".folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil))
    }

    func testFileErrorsNameThePathAndTheReason() {
        // Given a read of a file that does not exist
        do {
            _ = try Data(contentsOf: URL(fileURLWithPath: "/nonexistent/folio-basics"))
            XCTFail("read a missing file")
        } catch {
            // When described / Then the line names the file and the C library's reason
            XCTAssertEqual(errorText(error), "/nonexistent/folio-basics: No such file or directory")
        }
    }

    func testDetachedThreadRunsItsBody() {
        // Given a thread asked for with a 1 MiB stack
        let done = expectation(description: "ran")
        let started = DetachedThread.start(stackSize: 1 << 20) { done.fulfill() }
        // Then it started and ran its body
        XCTAssertTrue(started)
        wait(for: [done], timeout: 10)
    }
}
