import FolioTestSupport
import Foundation
import XCTest

/// `folio` puts libgit2's parse of the system CA certificates off until its first remote operation: a command that
/// never connects never pays for it, and one that connects has them in place before any TLS handshake.
final class CertificateDeferralTests: XCTestCase {
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

    private func certificateLines(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { $0.contains("CA certificates loaded") }
    }

    func testGivenAnHTTPSSourceWithAnUntrustedCertificateWhenListedThenTheSystemCertificatesAreLoadedFirstAndItIsRefused() throws {
        // Given a TLS server on loopback whose certificate no system CA signed
        let dir = TemporaryDirectory()
        let server = try TLSServer(in: dir)
        // When its templates are listed
        let result = try runProgram(folioExecutable.path, ["templates", "list", "--source", "https://localhost:\(server.port)/templates.git"],
                                    cwd: dir.url, environment: dir.environment(["FOLIO_TRACE_PHASES": "1"]))
        // Then the system bundle was parsed once, before connecting (it holds certificates), and the server is refused
        // for its certificate: verification ran against the loaded CAs, not an empty chain that lets anything through
        let loaded = certificateLines(result.stderr)
        XCTAssertEqual(loaded.count, 1, result.stderr)
        let count = loaded.first.flatMap { $0.split(separator: "(").last?.split(separator: ",").first }.flatMap { Int($0) } ?? 0
        XCTAssertGreaterThan(count, 0, "no certificate came from the system bundle: \(loaded)")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("not correctly signed by the trusted CA"), result.stderr)
    }

    func testGivenATemplateFolderWhenADocumentIsCreatedThenNoCertificateIsParsed() throws {
        // Given a template in a plain folder
        let dir = TemporaryDirectory()
        try dir.write("templates/note/template.json", #"{ "id": "note", "name": "Note", "version": "1.0.0" }"#)
        try dir.write("templates/note/files/note.txt", "hello\n")
        // When a document is made from it
        let result = try runProgram(folioExecutable.path, ["new", dir.path("doc").path, "--template", "note", "--source", dir.path("templates").path, "--defaults"],
                                    cwd: dir.url, environment: dir.environment(["FOLIO_TRACE_PHASES": "1"]))
        // Then it is made, and libgit2 started without parsing the CA certificates
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("libgit2 started"), result.stderr)
        XCTAssertEqual(certificateLines(result.stderr), [])
    }
}
