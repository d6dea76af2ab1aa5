import FolioPluginKit
import FolioPluginText
import XCTest

/// folio_text.h's id helpers make the ids Folio's Swift SDK makes (`ItemIdentity`), so that a C plugin and a Swift
/// plugin of one format, or a C plugin on one machine and a Swift one on another, give an old document the same ids.
final class ItemIdentityCHelperTests: XCTestCase {
    private func derivedInC(_ fields: [String], occurrence: Int) -> String {
        let bytes = fields.map { Array($0.utf8) }
        var out = [CChar](repeating: 0, count: Int(FOLIO_ID_LENGTH) + 1)
        var pointers: [UnsafePointer<CChar>?] = []
        let storage = bytes.map { field -> UnsafeMutablePointer<CChar> in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: max(field.count, 1))
            for (i, byte) in field.enumerated() { copy[i] = CChar(bitPattern: byte) }
            return copy
        }
        defer { storage.forEach { $0.deallocate() } }
        pointers = storage.map { UnsafePointer($0) }
        let sizes = bytes.map(\.count)
        folio_id_derived(pointers, sizes, fields.count, occurrence, &out)
        return String(cString: out)
    }

    func testGivenFieldsAndOccurrencesWhenIdsAreDerivedInCAndInSwiftThenTheyAreTheSame() {
        let cases: [([String], Int)] = [([], 0), (["Milk"], 0), (["Milk"], 1), (["Milk"], 12), (["", ""], 0),
                                        (["Päss 😀", "rect"], 3), (["a\u{0}b"], 0), ([String(repeating: "x", count: 5000)], 99)]
        for (fields, occurrence) in cases {
            XCTAssertEqual(derivedInC(fields, occurrence: occurrence), ItemIdentity.derived(fields, occurrence: occurrence), "\(fields) \(occurrence)")
        }
    }

    func testGivenFreshIdsFromCWhenMadeThenEachIsValidForTheSwiftSDKAndTheyDiffer() {
        var seen = Set<String>()
        for _ in 0..<200 {
            var out = [CChar](repeating: 0, count: Int(FOLIO_ID_LENGTH) + 1)
            XCTAssertEqual(folio_id_fresh(&out), 0)
            let id = String(cString: out)
            XCTAssertEqual(id.count, ItemIdentity.length)
            XCTAssertTrue(ItemIdentity.isValid(id), id)
            seen.insert(id)
        }
        XCTAssertEqual(seen.count, 200)
    }

    func testGivenCandidateIdsWhenCheckedInCAndInSwiftThenBothAgree() {
        for id in ["k3mxq8bz2rtw", "", "a b", "a\"b", "a\\b", String(repeating: "z", count: 64), String(repeating: "z", count: 65), "é", "tab\t", "~!#$"] {
            let valid = id.withCString { folio_id_valid($0, strlen($0)) } != 0
            XCTAssertEqual(valid, ItemIdentity.isValid(id), id)
        }
    }
}
