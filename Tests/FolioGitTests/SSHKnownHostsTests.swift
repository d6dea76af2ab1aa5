import Foundation
@testable import FolioGit
import XCTest

/// known_hosts matching as OpenSSH does it: ports, wildcards, negation, hashed names, revoked keys.
final class SSHKnownHostsTests: XCTestCase {
    let key = Data([0, 0, 0, 11] + Array("ssh-ed25519".utf8) + [0, 0, 0, 32] + [UInt8](repeating: 7, count: 32))
    let otherKey = Data([0, 0, 0, 11] + Array("ssh-ed25519".utf8) + [0, 0, 0, 32] + [UInt8](repeating: 9, count: 32))

    func verdict(_ lines: [String], host: String = "git.example.com", port: Int = 22, key: Data? = nil) throws -> SSHKnownHosts.Verdict {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("known_hosts-\(UUID().uuidString)")
        try Data(lines.joined(separator: "\n").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return SSHKnownHosts(files: [file.path]).verdict(host: host, port: port, key: key ?? self.key)
    }

    func line(_ hosts: String, _ key: Data? = nil, marker: String = "") -> String {
        "\(marker)\(marker.isEmpty ? "" : " ")\(hosts) ssh-ed25519 \((key ?? self.key).base64EncodedString()) comment"
    }

    func testGivenPlainPatternsWhenAHostIsCheckedThenPortsWildcardsAndNegationsMatchAsInOpenSSH() throws {
        XCTAssertEqual(try verdict([line("git.example.com")]), .known)
        XCTAssertEqual(try verdict([line("GIT.example.com,other")]), .known)
        XCTAssertEqual(try verdict([line("git.example.com")], port: 2222), .unknown)
        XCTAssertEqual(try verdict([line("[git.example.com]:2222")], port: 2222), .known)
        XCTAssertEqual(try verdict([line("[git.example.com]:2222")], port: 22), .unknown)
        XCTAssertEqual(try verdict([line("*.example.com")]), .known)
        XCTAssertEqual(try verdict([line("git.example.co?")]), .known)
        XCTAssertEqual(try verdict([line("*.example.com,!git.example.com")]), .unknown)
        XCTAssertEqual(try verdict([line("[1]27.0.0.1")], host: "127.0.0.1"), .unknown)
        XCTAssertEqual(try verdict(["# a comment", "", "garbage", line("git.example.com")]), .known)
    }

    func testGivenAnEntryWithAnotherKeyWhenTheHostIsCheckedThenItIsChangedAndARevokedKeyIsRevoked() throws {
        XCTAssertEqual(try verdict([line("git.example.com", otherKey)]), .changed)
        XCTAssertEqual(try verdict([line("git.example.com", otherKey), line("git.example.com")]), .known)
        XCTAssertEqual(try verdict([line("*", marker: "@revoked"), line("git.example.com")]), .revoked)
        XCTAssertEqual(try verdict([line("git.example.com", marker: "@cert-authority")]), .unknown)
    }

    func testGivenAHashedEntryWhenTheHostIsCheckedThenItMatchesOnlyThatHost() throws {
        // Given an entry hashed as `ssh-keygen -H` does: |1|base64(salt)|base64(HMAC-SHA1(salt, name))
        let salt: [UInt8] = Array(0..<20)
        let hash = SHA1.hmac(key: salt, message: Array("[127.0.0.1]:2222".utf8))
        let hashed = "|1|\(Data(salt).base64EncodedString())|\(Data(hash).base64EncodedString())"
        XCTAssertEqual(try verdict([line(hashed)], host: "127.0.0.1", port: 2222), .known)
        XCTAssertEqual(try verdict([line(hashed)], host: "127.0.0.1", port: 2223), .unknown)
    }

    func testGivenKnownVectorsWhenHashedThenSHA1AndHMACMatchTheRFCs() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        XCTAssertEqual(hex(SHA1.hash(Array("abc".utf8))), "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(hex(SHA1.hash([])), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        XCTAssertEqual(hex(SHA1.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))),
                       "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        // RFC 2202 test case 2
        XCTAssertEqual(hex(SHA1.hmac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))),
                       "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
    }

    func testGivenRemoteURLsWhenThePortIsReadThenOnlyAnExplicitOneDiffersFrom22() {
        XCTAssertEqual(SSHKnownHosts.port(ofRemoteURL: "ssh://git@host:2222/x.git"), 2222)
        XCTAssertEqual(SSHKnownHosts.port(ofRemoteURL: "ssh://git@host/x.git"), 22)
        XCTAssertEqual(SSHKnownHosts.port(ofRemoteURL: "git@host:x.git"), 22)
        XCTAssertEqual(SSHKnownHosts.fingerprint(sha256: Data([0xFF, 0xEE])), "SHA256:/+4")
    }
}
