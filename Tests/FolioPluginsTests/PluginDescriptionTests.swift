import FolioPluginWire
import Foundation
import XCTest

@testable import FolioPlugins

/// The plugin host's description of a library (its `.loaded` reply) is outside data: read in one place, its editors
/// as strictly as a manifest file's, its ABI numbers without a trapping conversion.
final class PluginDescriptionTests: XCTestCase {
    private func reply(abi: Int64 = 1, minor: Int64 = 2, editors: String) -> PluginWire.Message {
        PluginWire.Message(kind: .ok, sequence: 1, fields: [
            Data(), Data("org.example.tally".utf8), Data("Tally".utf8), Data("1.0.0".utf8),
            PluginWire.integerField(abi), PluginWire.integerField(minor), Data(editors.utf8),
        ])
    }

    private let editor = #"{"id": "tally", "name": "Tally", "contentTypes": ["org.example.tally"]}"#

    func testGivenAWellFormedDescriptionWhenReadThenItsIdVersionABIAndEditorsAreTheLibrarys() throws {
        let described = try PluginDescription(reply(editors: "[\(editor)]"))
        XCTAssertEqual([described.id, described.name, described.version], ["org.example.tally", "Tally", "1.0.0"])
        XCTAssertEqual([described.abiMajor, described.abiMinor], [1, 2])
        XCTAssertEqual(described.editors.map(\.id), ["tally"])
    }

    func testGivenAnEditorWithAKeyNoManifestHasWhenReadThenItIsRefusedNamingTheKey() {
        let forged = #"[{"id": "tally", "name": "Tally", "contentTypes": ["org.example.tally"], "runAsRoot": true}]"#
        XCTAssertThrowsError(try PluginDescription(reply(editors: forged))) { error in
            XCTAssertTrue("\(error)".contains("runAsRoot"), "\(error)")
        }
    }

    func testGivenAnABINumberNoIntCanHoldOrANegativeOneWhenReadThenItIsRefusedNotTrapped() {
        XCTAssertThrowsError(try PluginDescription(reply(abi: -1, editors: "[\(editor)]")))
        XCTAssertThrowsError(try PluginDescription(reply(minor: Int64.min, editors: "[\(editor)]")))
    }
}
