@testable import FolioCore
import Foundation
import XCTest

/// The one strict-JSON loader: one parse, keys from the type's `CodingKeys`, every problem at its line and column.
final class StrictJSONTests: XCTestCase {
    struct Limits: Decodable, Equatable {
        var count: Int
        var label: String?
        enum CodingKeys: String, CodingKey, CaseIterable { case count, label }
    }

    struct Root: Decodable, Equatable {
        var limits: [Limits]
        var free: [String: Int]?
        enum CodingKeys: String, CodingKey, CaseIterable { case limits, free }
    }

    func decode(_ text: String, strictAt paths: Set<[String]> = [[], ["limits", "*"]]) throws -> Root {
        try StrictJSON.decode(Root.self, from: Data(text.utf8), strictAt: paths)
    }

    func message(_ text: String, strictAt paths: Set<[String]> = [[], ["limits", "*"]]) -> String {
        do { _ = try decode(text, strictAt: paths); return "no error" } catch { return "\(error)" }
    }

    func testAWellFormedFileDecodesAsJSONDecoderWould() throws {
        // Given a file with nested objects, an optional key left out and a free-form dictionary
        let text = "{\"limits\": [{\"count\": 3, \"label\": \"a\"}, {\"count\": 4}], \"free\": {\"x\": 1}}"
        // When it is decoded strictly / Then the value is what JSONDecoder reads from the same bytes
        XCTAssertEqual(try decode(text), Root(limits: [Limits(count: 3, label: "a"), Limits(count: 4)], free: ["x": 1]))
    }

    func testAnUnknownKeyInAStrictObjectIsRefusedAtItsPosition() {
        // Given a misspelt key in an array element, a strict path
        let text = "{\n  \"limits\": [\n    {\"count\": 3, \"lable\": \"a\"}\n  ]\n}"
        // Then it is refused where the key stands, before the missing-key error it would otherwise cause
        XCTAssertEqual(message(text), "line 3, column 18: unknown key 'lable'")
        // And outside the strict paths the same key is accepted
        XCTAssertEqual(message(text, strictAt: [[]]), "no error")
    }

    func testAValueOfTheWrongTypeIsReportedAtItsLineAndColumn() {
        // Given a string where a whole number belongs, on line 2
        let text = "{\"limits\": [\n {\"count\": \"three\"}]}"
        // Then the error names the line and column of the value and the field's path
        XCTAssertEqual(message(text), "line 2, column 12: limits.[0].count: Expected to decode Int but found a string instead.")
    }

    func testAMissingKeyIsReportedAtItsObject() {
        // Given an element without its required key
        let text = "{\"limits\": [{}, {\"label\": \"b\"}]}"
        // Then the error points at the first object that lacks it
        XCTAssertEqual(message(text), "line 1, column 13: missing key 'count' in limits.[0]")
    }

    func testANumberThatIsNotAWholeNumberIsNotReadAsAnInteger() {
        // Given a fractional and a huge count
        // Then neither is rounded or trapped on: each is refused at its position
        XCTAssertTrue(message("{\"limits\": [{\"count\": 1.5}]}").hasPrefix("line 1, column 23: limits.[0].count: Number 1.5"))
        XCTAssertTrue(message("{\"limits\": [{\"count\": 1e300}]}").hasPrefix("line 1, column 23: limits.[0].count: Number"))
    }

    func testParserRefusalsStillApply() {
        // Given a duplicate key and a lone surrogate
        // Then the loader refuses them as the strict parser does, at their positions
        XCTAssertEqual(message("{\"limits\": [], \"limits\": []}"), "line 1, column 16: duplicate key 'limits' (first at line 1, column 2)")
        XCTAssertTrue(message("{\"limits\": [{\"count\": 1, \"label\": \"\\uD800\"}]}").contains("lone UTF-16 surrogate"))
    }

    func testSettingsErrorsNameTheFileLineAndColumn() throws {
        // Given a settings file whose networkTimeout is text
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strict-json-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["XDG_CONFIG_HOME": folder.path, "HOME": folder.path]
        let url = Settings.fileURL(environment: environment)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{\n  \"networkTimeout\": \"soon\"\n}\n".utf8).write(to: url)
        // When the settings are loaded
        // Then the error is invalidFile naming the file and where the bad value is
        XCTAssertThrowsError(try Settings.load(environment: environment)) { error in
            guard case let .invalidFile(path, problem)? = error as? FolioError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, url.path)
            XCTAssertTrue(problem.hasPrefix("line 2, column 21: networkTimeout: "), problem)
        }
    }
}
