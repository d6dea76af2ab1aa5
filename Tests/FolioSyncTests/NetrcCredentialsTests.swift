import Foundation
import FolioCore
import FolioGit
import FolioSync
import FolioTestSupport
import XCTest

/// HTTP(S) credentials from a `.netrc` file: parsed strictly, used when the server asks, never written to the document.
final class NetrcCredentialsTests: XCTestCase {
    var ws: SyncWorkspace!
    override func setUpWithError() throws { ws = try SyncWorkspace() }
    override func tearDown() { ws = nil }

    func testGivenANetrcFileThenEachMachineGetsItsOwnCredentialsAndOthersTheDefault() throws {
        // Given a file with two machines, a macro and a default
        let text = """
        machine git.example.com login ada password "to ken"
        macdef init
        cd /pub
        bin

        machine other.example login bob
          password s3cret account x
        default login anon password guest
        """
        // When it is parsed
        let netrc = try Netrc.parse(text, path: "/home/ada/.netrc")
        // Then each host gets its entry (host names compared without case) and an unknown one the default
        XCTAssertEqual(netrc.credentials(host: "GIT.example.com")?.password, "to ken")
        XCTAssertEqual(netrc.credentials(host: "git.example.com")?.login, "ada")
        XCTAssertEqual(netrc.credentials(host: "other.example")?.password, "s3cret")
        XCTAssertEqual(netrc.credentials(host: "elsewhere")?.login, "anon")
    }

    func testGivenAMalformedNetrcFileThenTheErrorNamesTheFileAndLineAndNoSecret() throws {
        // Given files with a stray word, a keyword with no value, a login before any machine, an open quote
        let cases: [(String, Int)] = [
            ("machine a login x password y\nmachine b lgoin z\n", 2),
            ("machine a\nlogin x\npassword", 3),
            ("\n\nlogin x password secret-value\n", 3),
            ("machine a password \"unterminated\nmachine b\n", 1),
            ("machine a login x password half secret-value\n", 1),
        ]
        for (text, line) in cases {
            // When each is parsed
            XCTAssertThrowsError(try Netrc.parse(text, path: "/n/.netrc")) { error in
                // Then the one-line error names the file and the line, and never a password
                let described = "\(error)"
                XCTAssertTrue(described.hasPrefix("/n/.netrc:\(line): "), described)
                XCTAssertFalse(described.contains("secret-value") || described.contains("\n"), described)
            }
        }
    }

    /// A document, a bare repository served over HTTP that demands `ada:tok3n`, and a `.netrc` naming the server.
    func authenticatedServer(netrc: String) throws -> (Document, GitHTTPServer, [String: String]) {
        try ws.bareRepository("doc.git")
        let server = try GitHTTPServer(root: ws.serversRoot, environment: ws.env, basicAuth: ("ada", "tok3n"))
        let file = try ws.dir.write("netrc", netrc)
        var env = ws.env
        env["NETRC"] = file.path
        let document = try ws.document("A")
        try document.write(Data("hello\n".utf8), to: "document.txt", message: "Hello")
        try document.addRemote("origin", url: server.url("doc.git"))
        return (document, server, env)
    }

    func testGivenANetrcEntryWhenPushingAndPullingOverHTTPThenItAuthenticatesAndNothingIsStoredInTheDocument() throws {
        // Given a server demanding Basic auth and a .netrc entry for 127.0.0.1
        let (a, server, env) = try authenticatedServer(netrc: "machine 127.0.0.1\n  login ada\n  password tok3n\n")
        // When the document is pushed, cloned, changed in the clone and pulled back, all over HTTP
        try a.push(options: TransferOptions(environment: env))
        let b = try ws.store.clone(from: server.url("doc.git"), to: ws.dir.path("B"), options: TransferOptions(environment: env))
        try b.write(Data("hello\nagain\n".utf8), to: "document.txt", message: "Again")
        let round = try b.syncRound(options: SyncOptions(transfer: TransferOptions(environment: env)))
        XCTAssertEqual(round.pushed, 1)
        _ = try a.pull(options: SyncOptions(transfer: TransferOptions(environment: env)))
        // Then everything arrived, and neither document's config holds the password
        XCTAssertEqual(ws.text(a, "document.txt"), "hello\nagain\n")
        for document in [a, b] {
            let config = try String(contentsOf: document.url.appendingPathComponent(".git/config"), encoding: .utf8)
            XCTAssertFalse(config.contains("tok3n"), config)
        }
        try ws.assertFsck(a.url)
    }

    func testGivenNoOrWrongCredentialsWhenPushingOverHTTPThenItFailsAndAMalformedFileIsNamed() throws {
        // Given a server demanding Basic auth and a .netrc with the wrong password
        let (a, server, env) = try authenticatedServer(netrc: "machine 127.0.0.1 login ada password wrong\n")
        // When pushing, then it is refused without looping on the same credentials
        XCTAssertThrowsError(try a.push(options: TransferOptions(environment: env, timeout: .seconds(5))))
        // Given a malformed .netrc, when pushing, then the error names the file and its line
        try Data("machine 127.0.0.1\nlogin ada\npasword tok3n\n".utf8).write(to: URL(fileURLWithPath: env["NETRC"]!))
        XCTAssertThrowsError(try a.push(options: TransferOptions(environment: env, timeout: .seconds(5)))) { error in
            let line = DocumentSyncLoop.problem(error, remote: "origin")
            XCTAssertTrue(line.contains("\(env["NETRC"]!):3: unexpected 'pasword'"), line)
            XCTAssertFalse(line.contains("tok3n"), line)
        }
        _ = server
    }
}
