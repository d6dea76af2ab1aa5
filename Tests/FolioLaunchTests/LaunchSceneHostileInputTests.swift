@testable import FolioLaunch
import Foundation
import XCTest

/// Hostile launch.json: each malformed input is one line naming the file, line and column; nothing traps.
final class LaunchSceneHostileInputTests: XCTestCase {
    private func error(_ json: String) -> String? {
        do {
            _ = try LaunchScene.parse(json: Data(json.utf8), file: "launch.json", baseDirectory: nil)
            return nil
        } catch {
            return "\(error)"
        }
    }

    func testGivenHostileLaunchConfigurationsWhenParsedThenOneLineErrorsWithPositions() {
        let actions = #""actions": [{"kind": "open", "label": "O"}]"#
        let cases: [(String, String)] = [
            (#"{"title": "\uD800\u0041", \#(actions)}"#, "launch.json:1:12: lone UTF-16 surrogate \\uD800"),
            (#"{"title": "a", "title": "b", \#(actions)}"#, "launch.json:1:16: duplicate key 'title' (first at line 1, column 2)"),
            (#"{"title": "x", \#(actions), "recent": {"count": 1e30}}"#, "recent.count: expected a whole number from 0 to 100"),
            (#"{"title": "x", \#(actions), "recent": {"count": 1e999}}"#, "out of range"),
            (#"{"title": "x", \#(actions), "recent": {"count": 9223372036854775807}}"#, "recent.count: expected a whole number from 0 to 100"),
            (#"{"title": "x", \#(actions), "banners": [{"text": "a", "anchor": {"dx": -1e300}}]}"#, "anchor.dx: expected a whole number"),
            (String(repeating: "[", count: 100_000), "nested deeper than 256"),
        ]
        for (json, expected) in cases {
            guard let message = error(json) else { XCTFail("accepted: \(json.prefix(80))"); continue }
            XCTAssertTrue(message.contains(expected), "\(message) does not mention \(expected)")
            XCTAssertTrue(message.hasPrefix("launch.json:"), message)
            XCTAssertFalse(message.contains("\n"), message)
        }
    }
}
