import FolioTestSupport
import Foundation
import XCTest

/// `folio` puts libgit2's start of TLS (with the parse of the system CA certificates) and of SSH off until its first
/// remote operation: a command that never connects never pays for them, and one that connects has them started before
/// any handshake, verifying servers as libgit2's own start-up would have.
final class NetworkStartDeferralTests: XCTestCase {
    /// `openssl s_server` on loopback with a freshly made self-signed certificate for `localhost`.
    private final class TLSServer {
        let port: UInt16
        private let process: Foundation.Process

        init(in dir: TemporaryDirectory) throws {
            let key = dir.path("tls.key").path, cert = dir.path("tls.crt").path
            let made = try runProgram("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                                                  "-days", "1", "-subj", "/CN=localhost"])
            XCTAssertEqual(made.status, 0, "openssl (scripts/setup installs it) made no certificate: \(made.stderr)")
            (port, process) = try startOnLoopbackPort(nil, seconds: 10) { port in
                let process = Foundation.Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = ["openssl", "s_server", "-accept", "127.0.0.1:\(port)", "-cert", cert, "-key", key, "-www", "-quiet"]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                return LoopbackServerStart(server: process, pid: process.processIdentifier, isRunning: { process.isRunning },
                                           stop: { process.terminate(); process.waitUntilExit() })
            }
        }

        deinit { process.terminate(); process.waitUntilExit() }
    }

    private func networkStartLines(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { $0.contains("TLS and SSH started") }
    }

    func testGivenAnHTTPSSourceWithAnUntrustedCertificateWhenListedThenTLSStartsFirstAndTheServerIsRefused() throws {
        // Given a TLS server on loopback whose certificate no system CA signed
        let dir = TemporaryDirectory()
        let server = try TLSServer(in: dir)
        // When its templates are listed
        let result = try runProgram(folioExecutable.path, ["templates", "list", "--source", "https://localhost:\(server.port)/templates.git"],
                                    cwd: dir.url, environment: dir.environment(["FOLIO_TRACE_PHASES": "1"]))
        // Then TLS and SSH started once, without error, before connecting, and the server is refused for its
        // certificate in one line: the handshake ran and verified it against the system's CAs
        let started = networkStartLines(result.stderr)
        XCTAssertEqual(started.count, 1, result.stderr)
        XCTAssertTrue(started.first?.hasSuffix("TLS and SSH started (code 0)") ?? false, result.stderr)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("not correctly signed by the trusted CA"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").filter { !$0.hasPrefix("phase ") }.count, 1, result.stderr)
    }

    func testGivenAnHTTPSRemoteWithAnUntrustedCertificateWhenCloneIsTriedTwiceThenBothAreRefusedAndNothingIsLeft() throws {
        // Given a TLS server on loopback whose certificate no system CA signed
        let dir = TemporaryDirectory()
        let server = try TLSServer(in: dir)
        // When a document is cloned from it twice (a second process starts TLS again, after nothing was left)
        for _ in 0..<2 {
            let result = try runProgram(folioExecutable.path, ["clone", "https://127.0.0.1:\(server.port)/doc.git", dir.path("B").path],
                                        cwd: dir.url, environment: dir.environment())
            // Then it is refused for the certificate in one line, and no folder is made
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains("the SSL certificate is invalid"), result.stderr)
            XCTAssertTrue(result.stderr.hasSuffix("nothing was cloned\n"), result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("B").path))
        }
    }

    func testGivenATemplateFolderWhenADocumentIsCreatedThenNeitherTLSNorSSHStarts() throws {
        // Given a template in a plain folder
        let dir = TemporaryDirectory()
        try dir.write("templates/note/template.json", #"{ "id": "note", "name": "Note", "version": "1.0.0" }"#)
        try dir.write("templates/note/files/note.txt", "hello\n")
        // When a document is made from it
        let result = try runProgram(folioExecutable.path, ["new", dir.path("doc").path, "--template", "note", "--source", dir.path("templates").path, "--defaults"],
                                    cwd: dir.url, environment: dir.environment(["FOLIO_TRACE_PHASES": "1"]))
        // Then it is made, and libgit2 started without starting TLS or SSH
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("libgit2 started"), result.stderr)
        XCTAssertEqual(networkStartLines(result.stderr), [])
    }
}
