import Foundation
import FolioCore
import FolioGit
import FolioSync
import FolioTestSupport
import FolioCLITestSupport
import XCTest

/// Credentials go only where they belong: the token to the server asked for, over https or where the user allowed
/// plain http, never after a redirect to another server, never into `.git/config`, never printed.
final class CredentialScopeTests: XCTestCase {
    var ws: SyncWorkspace!
    override func setUpWithError() throws { ws = try SyncWorkspace() }
    override func tearDown() { ws = nil }

    func testGivenURLsWithUserInformationWhenShownOrScopedThenTheSecretIsRedactedAndServersCompared() {
        XCTAssertEqual(RemoteURL.redacted("https://ada:tok3n@git.example.org/doc.git"), "https://***@git.example.org/doc.git")
        XCTAssertEqual(RemoteURL.redacted("https://TOKEN@github.com/a/b"), "https://***@github.com/a/b")
        XCTAssertEqual(RemoteURL.redacted("https://github.com/a@b"), "https://github.com/a@b", "an @ in the path is not user information")
        XCTAssertEqual(RemoteURL.redacted("git@github.com:a/b.git"), "git@github.com:a/b.git")
        XCTAssertTrue(RemoteURL.holdsPassword("http://u:p@h/x"))
        XCTAssertFalse(RemoteURL.holdsPassword("ssh://git@h:2222/x"))
        XCTAssertEqual(RemoteURL.restoringRedaction("https://***@h/new.git", original: "https://ada@h/old.git"), "https://ada@h/new.git")
        XCTAssertTrue(CredentialScope.sameServer("https://H/a/info/refs", "https://h:443/a"))
        XCTAssertFalse(CredentialScope.sameServer("https://evil.example/a", "https://h/a"))
        XCTAssertFalse(CredentialScope.sameServer("http://127.0.0.1:2/a", "http://127.0.0.1:1/a"))
        XCTAssertTrue(CredentialScope.allowsToken(to: "https://h/x", environment: [:]))
        XCTAssertFalse(CredentialScope.allowsToken(to: "http://h/x", environment: [:]))
        XCTAssertTrue(CredentialScope.allowsToken(to: "http://h:8080/x", environment: ["FOLIO_GIT_HTTP_TOKEN_HOSTS": "other, h:8080"]))
    }

    private func document(remote: String) throws -> Document {
        let document = try ws.document("A")
        try document.write(Data("hello\n".utf8), to: "document.txt", message: "Hello")
        try document.addRemote("origin", url: remote)
        return document
    }

    func testGivenATokenAndAPlainHTTPServerWhenPushingThenTheTokenIsNotSentUnlessTheUserAllowedThatHost() throws {
        try ws.bareRepository("doc.git")
        let server = try GitHTTPServer(root: ws.serversRoot, environment: ws.env, basicAuth: ("ada", "tok3n"))
        let a = try document(remote: server.url("doc.git"))
        var env = ws.env
        env["FOLIO_GIT_USERNAME"] = "ada"
        env["FOLIO_GIT_TOKEN"] = "tok3n"
        XCTAssertThrowsError(try a.push(options: TransferOptions(environment: env, timeout: .seconds(10)))) { error in
            XCTAssertEqual(error as? CredentialRefused, CredentialRefused(url: server.url("doc.git"), reason: .noneFound(tokenWithheld: true)))
            XCTAssertTrue("\(error)".contains("FOLIO_GIT_TOKEN is set but is not sent over plain http to this host"), "\(error)")
            XCTAssertFalse("\(error)".contains("tok3n"))
        }
        env["FOLIO_GIT_HTTP_TOKEN_HOSTS"] = "127.0.0.1"
        try a.push(options: TransferOptions(environment: env, timeout: .seconds(10)))
        let config = try String(contentsOf: a.url.appendingPathComponent(".git/config"), encoding: .utf8)
        XCTAssertFalse(config.contains("tok3n"), config)
    }

    func testGivenARedirectToAnotherServerWhenItAsksForALoginThenNoCredentialIsSentThere() throws {
        let dir = ws.dir.path("probe")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let target = try AuthProbeServer(folder: dir)
        let redirector = try AuthProbeServer(folder: dir, redirect: "http://127.0.0.1:\(target.port)")
        let a = try document(remote: redirector.url("doc.git"))
        var env = ws.env
        env["FOLIO_GIT_TOKEN"] = "tok3n"
        env["FOLIO_GIT_HTTP_TOKEN_HOSTS"] = "127.0.0.1"
        let netrc = try ws.dir.write("netrc", "default login ada password n3trc\n")
        env["NETRC"] = netrc.path
        XCTAssertThrowsError(try a.push(options: TransferOptions(environment: env, timeout: .seconds(10)))) { error in
            XCTAssertTrue("\(error)".contains("redirected to http://127.0.0.1:\(target.port)"), "\(error)")
            XCTAssertTrue("\(error)".contains("no credentials were sent there"), "\(error)")
        }
        XCTAssertFalse(target.authorizations.isEmpty, "the redirect was followed")
        XCTAssertEqual(Set(target.authorizations), ["-"], "the other server got no Authorization header")
        XCTAssertEqual(Set(redirector.authorizations), ["-"])
    }

    func testGivenNoCredentialsWhenTheServerAsksThenTheErrorSaysWhereFolioLooked() throws {
        try ws.bareRepository("doc.git")
        let server = try GitHTTPServer(root: ws.serversRoot, environment: ws.env, basicAuth: ("ada", "tok3n"))
        let a = try document(remote: server.url("doc.git"))
        XCTAssertThrowsError(try a.push(options: TransferOptions(environment: ws.env, timeout: .seconds(10)))) { error in
            XCTAssertEqual("\(error)", "\(server.url("doc.git")) asks for a login and Folio found none: no FOLIO_GIT_TOKEN, no matching entry in .netrc")
        }
    }

    func testGivenAURLWithAPasswordWhenClonedOrAddedThenItIsRefusedWithTheSecretNeverShownOrStored() throws {
        try ws.bareRepository("doc.git")
        let server = try GitHTTPServer(root: ws.serversRoot, environment: ws.env)
        let secretURL = "http://ada:tok3n@127.0.0.1:\(server.port)/doc.git"
        let clone = runFolio(["clone", secretURL, "B"], environment: ws.env, cwd: ws.dir.url)
        XCTAssertEqual(clone.status, 1)
        XCTAssertFalse((clone.stdout + clone.stderr).contains("tok3n"), clone.stderr)
        XCTAssertTrue(clone.stderr.contains("holds a password"), clone.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: ws.dir.path("B").path))
        let a = try ws.document("A")
        XCTAssertThrowsError(try a.addRemote("origin", url: secretURL)) { error in XCTAssertFalse("\(error)".contains("tok3n"), "\(error)") }
        // A URL whose user part may be a token is shown redacted wherever Folio lists it.
        try a.addRemote("origin", url: "http://TOKEN123@127.0.0.1:\(server.port)/doc.git")
        for arguments in [["remote", a.url.path, "list"], ["remote", a.url.path, "list", "--json"], ["status", a.url.path, "--json"]] {
            let shown = runFolio(arguments, environment: ws.env, cwd: ws.dir.url)
            XCTAssertFalse(shown.stdout.contains("TOKEN123"), "\(arguments): \(shown.stdout)")
        }
        XCTAssertTrue(runFolio(["remote", a.url.path, "list"], environment: ws.env, cwd: ws.dir.url).stdout.contains("http://***@127.0.0.1"))
    }
    func testGivenATemplateURLWithAPasswordWhenAddedOrUsedThenItIsRefusedAndNeitherSettingsNorADocumentHoldIt() throws {
        let url = "https://ada:tok3n@templates.example.org/t.git"
        let added = runFolio(["templates", "add", "mine", url], environment: ws.env, cwd: ws.dir.url)
        XCTAssertEqual(added.status, 1)
        XCTAssertTrue(added.stderr.contains("https://***@templates.example.org/t.git") && !added.stderr.contains("tok3n"), added.stderr)
        let made = runFolio(["new", "doc", "--template", url, "--defaults"], environment: ws.env, cwd: ws.dir.url)
        XCTAssertEqual(made.status, 1)
        XCTAssertFalse((made.stdout + made.stderr).contains("tok3n"), made.stderr)
        XCTAssertTrue(made.stderr.contains("holds a password"), made.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: ws.dir.path("doc").path))
        let settings = (try? String(contentsOf: ws.dir.path("home/.config/folio/settings.json"), encoding: .utf8)) ?? ""
        XCTAssertFalse(settings.contains("tok3n"), settings)
    }
}
