import XCTest

@testable import FolioTemplates

/// copier picks `_migrations` by PEP 440 order (Python's `packaging.version.Version`). The expectations are what
/// packaging 26.4 gives: `python3 -c "from packaging.version import Version; print([str(Version(v)) for v in VS]);
/// print(sorted(VS, key=Version))"` over the versions below.
final class PEP440VersionTests: XCTestCase {
    let versions = ["1.0.dev1", "1.0a1", "1.0a2.dev3", "1.0b1", "1.0rc1", "1.0", "1.0.post1.dev2", "1.0.post1", "1.0.1", "1.1", "2!0.1",
                    "v2.0.0", "1.0.0", "1.0-RC2", "1.0_alpha3", "1.0-1", "1.0.0.0"]

    func testGivenVersionsAsTagsAreWrittenWhenReadThenTheirNormalFormIsPackagings() throws {
        let normal = try versions.map { try XCTUnwrap(PEP440Version($0), $0).description }
        XCTAssertEqual(normal, ["1.0.dev1", "1.0a1", "1.0a2.dev3", "1.0b1", "1.0rc1", "1.0", "1.0.post1.dev2", "1.0.post1", "1.0.1", "1.1", "2!0.1",
                                "2.0.0", "1.0.0", "1.0rc2", "1.0a3", "1.0.post1", "1.0.0.0"])
    }

    func testGivenVersionsWhenSortedThenTheOrderIsPackagings() throws {
        let parsed = try versions.map { ($0, try XCTUnwrap(PEP440Version($0), $0)) }
        // A stable sort, as Python's: equal versions keep their order.
        let sorted = parsed.enumerated().sorted { $0.element.1 < $1.element.1 || (!($1.element.1 < $0.element.1) && $0.offset < $1.offset) }.map(\.element.0)
        XCTAssertEqual(sorted, ["1.0.dev1", "1.0a1", "1.0a2.dev3", "1.0_alpha3", "1.0b1", "1.0rc1", "1.0-RC2", "1.0", "1.0.0", "1.0.0.0",
                                "1.0.post1.dev2", "1.0.post1", "1.0-1", "1.0.1", "1.1", "v2.0.0", "2!0.1"])
    }

    func testGivenTextThatIsNoVersionWhenReadThenItIsNil() {
        for text in ["", "main", "v", "1.0-gabc", "1..0", "1.0+", "1.0+a b", "99999999999999999999"] { XCTAssertNil(PEP440Version(text), text) }
    }
}
