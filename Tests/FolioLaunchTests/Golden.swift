import Foundation
import XCTest

/// Compares rendered text with a golden file under Tests/FolioLaunchTests/Golden/; `FOLIO_UPDATE_GOLDEN=1` rewrites it.
func assertGolden(_ text: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden").appendingPathComponent(name + ".txt")
    let actual = text.hasSuffix("\n") ? text : text + "\n"
    if ProcessInfo.processInfo.environment["FOLIO_UPDATE_GOLDEN"] == "1" {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        XCTAssertNoThrow(try Data(actual.utf8).write(to: url), file: file, line: line)
        return
    }
    guard let data = try? Data(contentsOf: url) else {
        XCTFail("missing golden file \(url.path); run with FOLIO_UPDATE_GOLDEN=1 to create it", file: file, line: line)
        return
    }
    let expected = String(decoding: data, as: UTF8.self)
    if expected != actual {
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let first = zip(e, a).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset ?? min(e.count, a.count)
        XCTFail("\(name): differs from golden at line \(first + 1)\nexpected: \(first < e.count ? String(e[first]) : "<end>")\nactual:   \(first < a.count ? String(a[first]) : "<end>")\n--- actual ---\n\(actual)", file: file, line: line)
    }
}
