import FolioCore
@testable import FolioPlugins
import FolioTestSupport
import Foundation
import XCTest

/// The host protocol's framing, caps and versioning, and the text checks on what plugins return.
final class PluginWireTests: XCTestCase {
    func testGivenAMessageWhenEncodedAndDecodedThenKindSequenceAndFieldsRoundTrip() throws {
        let data = PluginWire.encode(.apply, sequence: 7, fields: [Data("tally".utf8), PluginWire.integerField(-3), Data()])
        let (kind, sequence, length) = try PluginWire.decodeHeader(data.prefix(16), cap: 1024)
        XCTAssertEqual(kind, .apply)
        XCTAssertEqual(sequence, 7)
        XCTAssertEqual(length, data.count - 16)
        let message = PluginWire.Message(kind: kind, sequence: sequence, fields: try PluginWire.decodeFields(data.dropFirst(16)))
        XCTAssertEqual(try message.string(0), "tally")
        XCTAssertEqual(try message.integer(1), -3)
        XCTAssertEqual(try message.field(2), Data())
        XCTAssertThrowsError(try message.field(3), "a missing field is a protocol violation")
    }

    func testGivenAnotherProtocolVersionOrAnUnknownKindOrALengthOverTheCapWhenDecodedThenItIsAViolation() {
        var data = PluginWire.encode(.ok, sequence: 1, fields: [Data(count: 100)])
        XCTAssertThrowsError(try PluginWire.decodeHeader(data.prefix(16), cap: 50)) { XCTAssertTrue("\($0)".contains("over the cap of 50"), "\($0)") }
        data[4] = 2
        XCTAssertThrowsError(try PluginWire.decodeHeader(data.prefix(16), cap: 1000)) { XCTAssertEqual("\($0)", "protocol violation: protocol version 2, expected 4") }
        data[4] = 4
        data[6] = 99
        XCTAssertThrowsError(try PluginWire.decodeHeader(data.prefix(16), cap: 1000)) { XCTAssertEqual("\($0)", "protocol violation: unknown message kind 99") }
        XCTAssertThrowsError(try PluginWire.decodeHeader(Data("GET / HTTP/1.1\r\n".utf8), cap: 1000)) { XCTAssertEqual("\($0)", "protocol violation: bad message header") }
    }

    func testGivenAFieldLongerThanItsMessageWhenDecodedThenItIsAViolation() {
        var payload = Data()
        withUnsafeBytes(of: UInt32(1000).littleEndian) { payload.append(contentsOf: $0) }
        payload.append(contentsOf: [1, 2, 3])
        XCTAssertThrowsError(try PluginWire.decodeFields(payload)) { XCTAssertEqual("\($0)", "protocol violation: a field longer than its message") }
    }

    func testGivenHostileDescriptionsWhenCheckedThenTheyAreOneLineValidUTF8WithoutControlsAndCapped() {
        XCTAssertEqual(PluginText.description(Data([0x6F, 0x6B, 0xFF, 0x1B, 0x5B, 0x32, 0x4A, 0x0A, 0x0D, 0x78])), "ok\u{FFFD} [2J x")
        XCTAssertEqual(PluginText.description("  tab\there\u{85}next\u{7F}  "), "tab here next")
        XCTAssertEqual(PluginText.description(String(repeating: "é", count: 500)).count, 200)
        XCTAssertEqual(PluginText.viewLine("a\u{1B}[31mb\tc\u{9B}"), "a\\e[31mb c\\u{9B}")
    }

    func testGivenPluginLimitsInSettingsWhenLoadedThenTheyApplyAndNonsenseIsOneLineNamingTheFile() throws {
        let temp = TemporaryDirectory("folio-limits")
        let env = temp.environment()
        let url = try temp.write("home/.config/folio/settings.json", #"{"pluginLimits": {"callSeconds": 0.25, "memoryMiB": 512}}"#)
        let limits = PluginLimits(settings: try Settings.load(environment: env).pluginLimits)
        XCTAssertEqual(limits.call, .milliseconds(250))
        XCTAssertEqual(limits.render, .seconds(1))
        XCTAssertEqual(limits.memory, 512 << 20)
        XCTAssertEqual(PluginLimits.describe(limits.call), "0.25 s")
        for bad in [#"{"pluginLimits": {"callSeconds": -1}}"#, #"{"pluginLimits": {"memoryMiB": 1}}"#, #"{"pluginLimits": {"renderSeconds": 1e300}}"#] {
            try Data(bad.utf8).write(to: url)
            XCTAssertThrowsError(try Settings.load(environment: env)) { error in
                XCTAssertTrue("\(error)".hasPrefix(url.path), "\(error)")
                XCTAssertFalse("\(error)".contains("\n"))
            }
        }
        // A size too big for an Int, or not whole, is named as out of range (not as invalid JSON)
        for bad in [#"{"pluginLimits": {"memoryMiB": 1e30}}"#, #"{"pluginLimits": {"bufferMiB": 9223372036854775808}}"#, #"{"pluginLimits": {"bufferMiB": 1.5}}"#] {
            try Data(bad.utf8).write(to: url)
            XCTAssertThrowsError(try Settings.load(environment: env)) { error in
                XCTAssertTrue("\(error)".contains("must be between"), "\(error)")
            }
        }
    }

    func testGivenAKnownInputWhenHashedThenSHA256MatchesTheStandardDigest() {
        XCTAssertEqual(SHA256.hex(Data("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(Data(repeating: 0x61, count: 1000)), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }
}
