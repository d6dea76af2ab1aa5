@testable import FolioTemplates
import FolioJinja
import Foundation
import XCTest

/// Folio reads YAML as PyYAML's `safe_load` does (the reference in `Fixtures/copier/yaml`, made by PyYAML 6.0.4).
final class YAMLReaderTests: XCTestCase {
    private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/copier/yaml")

    func testGivenYAMLUsingEachScalarFormWhenReadThenTheValuesArePyYAMLsSafeLoads() throws {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("cases.yml"))
        let expected = try String(contentsOf: fixtures.appendingPathComponent("cases.repr"), encoding: .utf8)
        let documents = try YAMLReader().documents(data, file: "cases.yml")
        XCTAssertEqual(documents.count, 1)
        XCTAssertEqual(documents[0].pythonRepr + "\n", expected)
    }

    func testGivenSeveralDocumentsWhenReadThenEachIsOneValueAndAnEmptyOneIsNone() throws {
        let documents = try YAMLReader().documents(Data("a: 1\n---\n---\n- x\n".utf8), file: "f.yml")
        XCTAssertEqual(documents.map(\.pythonRepr), ["{'a': 1}", "None", "['x']"])
    }

    func testGivenInputOverTheLimitsWhenReadThenItIsRefusedNamingTheFile() {
        var reader = YAMLReader()
        reader.maxDepth = 8
        XCTAssertThrowsError(try reader.documents(Data((String(repeating: "[", count: 20) + String(repeating: "]", count: 20)).utf8), file: "deep.yml")) {
            XCTAssertTrue("\($0)".contains("deep.yml:1:") && "\($0)".contains("deeper than 8 levels"), "\($0)")
        }
        XCTAssertThrowsError(try YAMLReader().documents(Data([0x61, 0x3A, 0x20, 0xFF]), file: "bad.yml")) {
            XCTAssertEqual("\($0)", "bad.yml: is not valid UTF-8")
        }
        XCTAssertThrowsError(try YAMLReader().documents(Data("a: *nowhere\n".utf8), file: "alias.yml")) {
            XCTAssertTrue("\($0)".contains("alias.yml:1:4") && "\($0)".contains("names no anchor"), "\($0)")
        }
        XCTAssertThrowsError(try YAMLReader().documents(Data("a: 99999999999999999999\n".utf8), file: "big.yml")) {
            XCTAssertTrue("\($0)".contains("out of range"), "\($0)")
        }
    }
}
