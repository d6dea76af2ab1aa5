@testable import FolioCore
import FolioTestSupport
import Foundation
import XCTest

/// `.folio/document.json` is written by hand, byte for byte as Foundation's JSONEncoder wrote it before.
final class DocumentMetadataEncodingTests: XCTestCase {
    private typealias Generator = SeededRandom

    private let alphabet: [String] = ["a", "Z", "_", "9", "é", "漢", "📄", "\"", "\\", "/", "\n", "\r", "\t", "\u{8}", "\u{C}", "\u{1}",
                                      "\u{1F}", "\u{7F}", "\u{2028}", " ", "e\u{301}", "-", "."]

    private func text(_ g: inout Generator, max: Int = 12) -> String {
        (0..<Int.random(in: 0...max, using: &g)).map { _ in alphabet.randomElement(using: &g) ?? "a" }.joined()
    }

    private func value(_ g: inout Generator, depth: Int) -> JSONValue {
        switch Int.random(in: 0..<(depth > 2 ? 4 : 6), using: &g) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &g))
        case 2: return .number(Double(Int64.random(in: -999_999_999_999_999...999_999_999_999_999, using: &g)) * (Bool.random(using: &g) ? 1 : 0))
        case 3: return .string(text(&g))
        case 4: return .array((0..<Int.random(in: 0...3, using: &g)).map { _ in value(&g, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...3, using: &g) { members[text(&g, max: 4)] = value(&g, depth: depth + 1) }
            return .object(members)
        }
    }

    private func metadata(_ g: inout Generator) -> DocumentMetadata {
        var answers: [String: JSONValue] = [:]
        for _ in 0..<Int.random(in: 0...5, using: &g) { answers[text(&g, max: 6)] = value(&g, depth: 0) }
        let template = DocumentOrigin.Template(id: text(&g), version: Bool.random(using: &g) ? text(&g) : nil, source: "/tmp/" + text(&g),
                                               ref: Bool.random(using: &g) ? text(&g) : nil, commit: text(&g), answers: answers)
        let origin = Bool.random(using: &g) ? DocumentOrigin(kind: "template", template: template) : DocumentOrigin(kind: text(&g))
        let created = Date(timeIntervalSince1970: Double(Int64.random(in: -2_000_000_000...4_000_000_000, using: &g)) + Double.random(in: 0..<1, using: &g))
        return DocumentMetadata(contentType: ContentType(text(&g)), title: text(&g), created: created, primaryFile: text(&g), origin: origin)
    }

    func testGivenThousandsOfRandomDocumentsWhenEncodedThenTheBytesAreFoundationsExactly() throws {
        // Given random metadata: every character JSON escapes, non-ASCII keys, nested answers, empty objects and arrays,
        // optional fields present or not, dates before and after 1970 with fractions
        var g = Generator(seed: 20261201)
        for round in 0..<3000 {
            let document = metadata(&g)
            // When it is encoded by hand, Then the bytes are JSONEncoder's
            let hand = try XCTUnwrap(document.handEncoded(), "round \(round)")
            let reference = try document.foundationEncoded()
            guard hand == reference else {
                return XCTFail("round \(round):\n\(String(decoding: hand, as: UTF8.self))\n---\n\(String(decoding: reference, as: UTF8.self))")
            }
        }
    }

    func testGivenAFractionalOrHugeNumberAmongTheAnswersWhenEncodedThenFoundationWritesIt() throws {
        // Given answers holding 0.5 and 1e20
        for number in [0.5, 1e20, -2.5e-7] {
            let document = DocumentMetadata(contentType: .plainText, title: "t", primaryFile: "a.txt",
                                            origin: DocumentOrigin(kind: "template", template: .init(id: "x", version: nil, source: "/s", ref: nil,
                                                                                                     commit: "c", answers: ["n": .number(number)])))
            // When encoded, Then the hand writer declines and the file is JSONEncoder's
            XCTAssertNil(document.handEncoded())
            XCTAssertEqual(try document.encoded(), try document.foundationEncoded())
        }
    }
}
