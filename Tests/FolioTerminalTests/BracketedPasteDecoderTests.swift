import XCTest
@testable import FolioTerminal

final class BracketedPasteDecoderTests: XCTestCase {
    let start = "\u{1B}[200~", end = "\u{1B}[201~"

    func feed(_ chunks: [String], into decoder: inout KeyDecoder) -> [Key] {
        chunks.flatMap { decoder.feed(Array($0.utf8)) }
    }

    func testGivenAPasteWithANewlineWhenDecodedThenOneTextEventAndNoKeys() {
        var decoder = KeyDecoder()
        let keys = feed(["a" + start + "Figs\rdates" + end + "d"], into: &decoder)
        XCTAssertEqual(keys, [.character("a"), .paste(PastedText("Figs\ndates")), .character("d")])
        XCTAssertFalse(decoder.hasPending)
        XCTAssertFalse(decoder.isPasting)
    }

    func testGivenAPasteSplitAcrossEveryByteWhenFedOneByteAtATimeThenTheSameSingleEvent() {
        var decoder = KeyDecoder()
        let whole = start + "Figs\r\ndates é日🌱" + end + "x"
        var keys: [Key] = []
        for byte in Array(whole.utf8) {
            keys += decoder.feed([byte])
            XCTAssertFalse(decoder.hasPending && decoder.isPasting, "a paste in progress never asks for the Esc flush")
        }
        XCTAssertEqual(keys, [.paste(PastedText("Figs\ndates é日🌱")), .character("x")])
    }

    func testGivenTheEndMarkerSplitBetweenReadsWhenCompletedThenThePasteEndsThere() {
        var decoder = KeyDecoder()
        XCTAssertEqual(feed([start + "one\u{1B}[2", "0"], into: &decoder), [])
        XCTAssertTrue(decoder.isPasting)
        XCTAssertEqual(decoder.flush(), [], "a quiet moment does not end a paste or turn it into keys")
        XCTAssertEqual(feed(["1~j"], into: &decoder), [.paste(PastedText("one")), .character("j")])
    }

    func testGivenCRLFAndLoneCRWhenPastedThenEachIsOneNewline() {
        var decoder = KeyDecoder()
        XCTAssertEqual(feed([start + "a\r\nb\rc\nd\r", "\ne" + end], into: &decoder), [.paste(PastedText("a\nb\nc\nd\ne"))])
    }

    func testGivenEscapeSequencesAndControlsInsideAPasteWhenDecodedThenTheyStayTextWithoutControls() {
        var decoder = KeyDecoder()
        let keys = feed([start + "x\u{1B}[Ay\u{1B}[3~\u{03}\u{7F}\tz\u{1B}[200~w" + end], into: &decoder)
        XCTAssertEqual(keys, [.paste(PastedText("x[Ay[3~\tz[200~w"))], "no arrow, delete, ^C or backspace key comes out")
    }

    func testGivenInvalidUTF8InAPasteWhenDecodedThenItIsReplaced() {
        var decoder = KeyDecoder()
        let keys = decoder.feed(Array(start.utf8) + [0x61, 0xFF, 0xC3, 0x62] + Array(end.utf8))
        XCTAssertEqual(keys, [.paste(PastedText("a\u{FFFD}\u{FFFD}b"))])
    }

    func testGivenAPasteOverTheLimitWhenItEndsThenTheFirstMebibyteIsKeptAndMarkedTruncated() {
        var decoder = KeyDecoder()
        var keys = decoder.feed(Array(start.utf8))
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
        for _ in 0..<40 { keys += decoder.feed(chunk) }
        XCTAssertEqual(keys, [])
        XCTAssertLessThanOrEqual(decoder.pasteBytes?.count ?? 0, KeyDecoder.pasteLimit, "memory stays bounded by the cap")
        keys += decoder.feed(Array((end + "q").utf8))
        XCTAssertEqual(keys.count, 2)
        guard case let .paste(paste) = keys.first else { return XCTFail("no paste: \(keys)") }
        XCTAssertTrue(paste.truncated)
        XCTAssertEqual(paste.text.utf8.count, KeyDecoder.pasteLimit)
        XCTAssertEqual(keys.last, .character("q"), "keys after the paste are keys again")
    }

    func testGivenATruncatedPasteEndingInsideACharacterWhenCutThenNoHalfCharacterRemains() {
        var decoder = KeyDecoder()
        let filler = [UInt8](repeating: UInt8(ascii: "x"), count: KeyDecoder.pasteLimit - 1)
        let keys = decoder.feed(Array(start.utf8) + filler + Array("日日".utf8) + Array(end.utf8))
        guard case let .paste(paste) = keys.first else { return XCTFail("no paste: \(keys)") }
        XCTAssertTrue(paste.truncated)
        XCTAssertFalse(paste.text.contains("\u{FFFD}"))
        XCTAssertEqual(paste.text.utf8.count, KeyDecoder.pasteLimit - 1)
    }

    func testGivenAnUnterminatedPasteWhenMoreArrivesThenItStaysPendingUntilTheEndMarker() {
        var decoder = KeyDecoder()
        XCTAssertEqual(feed([start + "Figs\r", "dates", "d", "a"], into: &decoder), [], "nothing typed as commands")
        XCTAssertTrue(decoder.isPasting)
        XCTAssertEqual(feed([end], into: &decoder), [.paste(PastedText("Figs\ndatesda"))])
        XCTAssertEqual(feed(["d"], into: &decoder), [.character("d")])
    }

    func testGivenAnUnterminatedPasteWhenAbandonedThenWhatArrivedIsTextMarkedTruncatedAndKeysWorkAgain() {
        var decoder = KeyDecoder()
        XCTAssertEqual(feed([start + "abc\u{1B}[20"], into: &decoder), [])
        XCTAssertEqual(decoder.abandonPaste(), [.paste(PastedText("abc[20", truncated: true))])
        XCTAssertFalse(decoder.isPasting)
        XCTAssertEqual(feed(["j"], into: &decoder), [.character("j")])
        XCTAssertEqual(decoder.abandonPaste(), [], "nothing to abandon outside a paste")
    }

    func testGivenAnEmptyPasteOrAStrayEndMarkerWhenDecodedThenNoKeys() {
        var decoder = KeyDecoder()
        XCTAssertEqual(feed([start + end], into: &decoder), [.paste(PastedText(""))])
        XCTAssertEqual(feed([end + "k"], into: &decoder), [.character("k")])
    }
}
