import FolioTestSupport
import Foundation
import XCTest

/// `folio` is linked without ICU: its modules import FoundationEssentials, so neither ICU's code nor its 34 MB of
/// data (`icudt…`) is in the binary.
final class NoICUTests: XCTestCase {
    func testFolioBinaryCarriesNoICUData() throws {
        // Given the built folio binary
        let binary = try Data(contentsOf: folioExecutable, options: .alwaysMapped)
        XCTAssertGreaterThan(binary.count, 1_000_000, "not the folio binary: \(folioExecutable.path)")
        // When its bytes are searched / Then neither ICU's data symbol nor its data package name is there
        XCTAssertNil(binary.range(of: Data("icudt".utf8)), "folio links ICU data")
        XCTAssertNil(binary.range(of: Data("uloc_canonicalize".utf8)), "folio links ICU code")
    }
}
