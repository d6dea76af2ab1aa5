import FolioCore
import FolioLaunch
import FolioTemplates
import Foundation
import XCTest

/// Every input the fuzzers found crashing (`Fuzz/findings/`) is replayed through the reader that crashed on it:
/// each must now be refused with an error, never trap.
final class FuzzFindingsRegressionTests: XCTestCase {
    private var findings: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/findings")
    }

    private func inputs(_ prefix: String) throws -> [(String, Data)] {
        let names = try FileManager.default.contentsOfDirectory(atPath: findings.path).filter { $0.hasPrefix(prefix) }.sorted()
        return try names.map { ($0, try Data(contentsOf: findings.appendingPathComponent($0))) }
    }

    func testGivenEveryFuzzFindingWhenReadByItsReaderThenItIsRefusedWithAnErrorNotACrash() throws {
        // Given the crashing inputs kept by the fuzz harness
        let json = try inputs("json-"), document = try inputs("document-json-")
        let template = try inputs("template-manifest-"), launch = try inputs("launch-")
        XCTAssertFalse(json.isEmpty || document.isEmpty || template.isEmpty || launch.isEmpty, "findings missing in \(findings.path)")
        // When each is read by the reader that crashed on it, Then each is an error naming where it failed
        for (name, data) in json {
            XCTAssertThrowsError(try JSONNode.parse(data), name) { XCTAssertTrue("\($0)".contains("line 1"), "\(name): \($0)") }
        }
        for (name, data) in document { XCTAssertThrowsError(try DocumentMetadata.decode(data), name) }
        for (name, data) in template { XCTAssertThrowsError(try TemplateManifest.parse(data, file: name), name) }
        for (name, data) in launch { XCTAssertThrowsError(try LaunchScene.parse(json: data, file: name, baseDirectory: nil), name) }
    }
}
