@testable import FolioCore
import Foundation
import XCTest

/// Hostile JSON: every malformed input is a one-line error with its position, never a trap or a silent repair.
final class JSONHostileInputTests: XCTestCase {
    private func parseError(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> JSONPositionError? {
        do {
            _ = try JSONNode.parse(Data(bytes))
            XCTFail("accepted \(String(decoding: bytes.prefix(80), as: UTF8.self))", file: file, line: line)
            return nil
        } catch let error as JSONPositionError {
            return error
        } catch {
            XCTFail("not a positioned error: \(error)", file: file, line: line)
            return nil
        }
    }

    private func parseError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> JSONPositionError? {
        parseError(Array(text.utf8), file: file, line: line)
    }

    func testGivenLoneSurrogateEscapesWhenParsedThenEachIsAnErrorAtTheEscape() {
        let cases: [(String, Int, String)] = [
            (#"{"a": "\uD800\u0041"}"#, 8, "lone UTF-16 surrogate \\uD800"),
            (#"{"a": "\uDC00"}"#, 8, "lone UTF-16 surrogate \\uDC00"),
            (#"{"a": "x\uD800"}"#, 9, "lone UTF-16 surrogate \\uD800"),
            (#"{"a": "\uD800\uD800"}"#, 8, "lone UTF-16 surrogate \\uD800"),
            (#"{"a": "\udbff"#, 8, "lone UTF-16 surrogate \\uDBFF"),
            (#"["\uD800"]"#, 3, "lone UTF-16 surrogate"),
        ]
        for (json, column, message) in cases {
            guard let error = parseError(json) else { continue }
            XCTAssertEqual(error.line, 1, json)
            XCTAssertEqual(error.column, column, json)
            XCTAssertTrue(error.message.contains(message), "\(json): \(error.message)")
            XCTAssertFalse(error.description.contains("\n"), json)
        }
    }

    func testGivenValidSurrogatePairsAndEscapesWhenParsedThenTheyDecode() throws {
        let node = try JSONNode.parse(Data(#"{"a": "\uD83D\uDE00 \u00e9\u0041\/\"\\\b\f\n\r\t", "b": "\uDBFF\uDFFF"}"#.utf8))
        XCTAssertEqual(node["a"]?.value, .string("\u{1F600} \u{E9}A/\"\\\u{8}\u{C}\n\r\t"))
        XCTAssertEqual(node["b"]?.value, .string("\u{10FFFF}"))
    }

    func testGivenDuplicateKeysWhenParsedThenTheErrorNamesBothPositions() {
        guard let error = parseError("{\n  \"id\": \"a\",\n  \"x\": {\"id\": 1},\n    \"id\": \"b\"\n}") else { return }
        XCTAssertEqual(error.line, 4)
        XCTAssertEqual(error.column, 5)
        XCTAssertEqual(error.message, "duplicate key 'id' (first at line 2, column 3)")
        // The same key in different objects is fine.
        XCTAssertNoThrow(try JSONNode.parse(Data(#"[{"id": 1}, {"id": 2}]"#.utf8)))
    }

    func testGivenInvalidUTF8WhenParsedThenItIsAnErrorAtTheByteNotAReplacementCharacter() {
        let prefix = Array(#"{"é": ""#.utf8)
        let cases: [[UInt8]] = [[0xFF], [0xC3], [0xC3, 0x28], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80],
                                [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0x80], [0xE2, 0x82]]
        for bad in cases {
            let bytes = prefix + bad + Array(#""}"#.utf8)
            guard let error = parseError(bytes) else { continue }
            XCTAssertTrue(error.message.contains("invalid UTF-8"), "\(bad): \(error.message)")
            XCTAssertEqual(error.column, 8, "\(bad): the column counts 'é' as one character")
        }
        XCTAssertNotNil(parseError([0xEF, 0xBB, 0xBF] + Array("{}".utf8)))  // no silent BOM either
    }

    func testGivenDeepNestingWhenParsedThenALimitErrorNotAStackOverflow() {
        for opener in ["[", "{\"a\":"] {
            let text = String(repeating: opener, count: 100_000)
            guard let error = parseError(text) else { continue }
            XCTAssertTrue(error.message.contains("nested deeper than \(JSONNode.maximumDepth)"), error.message)
        }
        let allowed = String(repeating: "[", count: JSONNode.maximumDepth) + String(repeating: "]", count: JSONNode.maximumDepth)
        XCTAssertNoThrow(try JSONNode.parse(Data(allowed.utf8)))
    }

    func testGivenNumbersOutsideTheGrammarOrRangeWhenParsedThenTheyAreRefused() throws {
        for bad in ["1e999", "-1e999", "+1", "01", "1.", ".5", "1e", "--1", "NaN", "Infinity", "0x10", "1.e5", "-"] {
            guard let error = parseError("[\(bad)]") else { continue }
            XCTAssertEqual(error.line, 1, bad)
            XCTAssertFalse(error.description.isEmpty)
        }
        XCTAssertEqual(try JSONNode.parse(Data("[-0, 1e300, 0.5e-3, 12E+2]".utf8)).value,
                       .array([.number(-0.0), .number(1e300), .number(0.0005), .number(1200)]))
    }

    func testGivenControlCharactersAndBadEscapesWhenParsedThenTheyAreRefused() {
        for bad in ["[\"a\u{01}b\"]", "[\"a\tb\"]", #"["\x"]"#, #"["\u12"]"#, #"["\u+123"]"#, #"["\uGGGG"]"#, "[\"abc", "[\"\\"] {
            XCTAssertNotNil(parseError(bad), bad)
        }
    }

    func testGivenHostileMetadataWhenDecodedThenFormatAndPrimaryFileAreRefused() throws {
        let good = String(decoding: try DocumentMetadata(contentType: .plainText, title: "t", primaryFile: "document.txt").encoded(), as: UTF8.self)
        let cases: [(String, String, String)] = [
            ("\"format\" : 1", "\"format\" : -5", "format -5 is not a format version"),
            ("\"format\" : 1", "\"format\" : 0", "format 0 is not a format version"),
            ("\"format\" : 1", "\"format\" : 1e30", "expected a whole number"),
            ("\"format\" : 1", "\"format\" : 9223372036854775807", "expected a whole number"),
            ("\"format\" : 1", "\"format\" : -9223372036854775808", "expected a whole number"),
            ("\"format\" : 1", "\"format\" : \"1\"", "expected a whole number"),
            ("\"primaryFile\" : \"document.txt\"", "\"primaryFile\" : \".folio/document.json\"", ".folio is managed by Folio"),
            ("\"primaryFile\" : \"document.txt\"", "\"primaryFile\" : \".git/config\"", "inside .git"),
            ("\"primaryFile\" : \"document.txt\"", "\"primaryFile\" : \"/etc/passwd\"", "relative path"),
            ("\"primaryFile\" : \"document.txt\"", "\"primaryFile\" : \"a/../../x\"", "relative path"),
            ("\"title\" : \"t\"", "\"title\" : \"t\", \"title\" : \"u\"", "duplicate key 'title'"),
            ("\"title\" : \"t\"", "\"title\" : \"\\uD800\"", "lone UTF-16 surrogate"),
        ]
        for (from, to, expected) in cases {
            let json = good.replacingOccurrences(of: from, with: to)
            XCTAssertNotEqual(json, good)
            XCTAssertThrowsError(try DocumentMetadata.decode(Data(json.utf8)), to) { error in
                let text = JSONKeys.describe(error)
                XCTAssertTrue(text.contains(expected), "\(to): \(text)")
                XCTAssertTrue(text.hasPrefix("line "), "\(to): \(text)")
            }
        }
    }

    func testGivenRandomBytesWhenParsedThenNothingTraps() {
        // A cheap in-suite fuzz (the long runs are in scripts/fuzz): mutations of a real file never trap.
        var generator = SystemRandomNumberGenerator()
        let seed = Array(#"{"a": [1, -0.5e3, "\uD83D\uDE00é", {"b": null, "c": true}], "d": "\u0041"}"#.utf8)
        for _ in 0..<5_000 {
            var bytes = seed
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[position] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.remove(at: position)
                default: bytes.insert(Array(#"\{["u-e9D8"#.utf8).randomElement(using: &generator) ?? 0, at: position)
                }
            }
            if let node = try? JSONNode.parse(Data(bytes)) { _ = node.value }
        }
    }
}
