import Foundation
import FolioCore
import FolioGit
import FolioSync
import FolioTestSupport
import FolioCLITestSupport
import XCTest

/// The user's git configuration works for Folio's transfers as it does for git: credential helpers, URL rewriting,
/// proxies, a CA of one's own; a document's own `.git/config` never names a helper. Every test reads its own
/// `GIT_CONFIG_GLOBAL` file (no system file), never the real `~/.gitconfig`.
final class GitUserConfigTransferTests: XCTestCase {
    var ws: SyncWorkspace!
    override func setUpWithError() throws { ws = try SyncWorkspace() }
    override func tearDown() { ws = nil }

    /// The workspace's environment with `gitconfig` as the user's global git config.
    private func environment(gitconfig: String) throws -> [String: String] {
        var env = ws.env
        env["GIT_CONFIG_GLOBAL"] = try ws.dir.write("user-gitconfig", gitconfig).path
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        return env
    }

    /// A document with one commit and `origin` at `remote`.
    private func document(_ name: String = "A", remote: String) throws -> Document {
        let document = try ws.document(name)
        try document.write(Data("hello\n".utf8), to: "document.txt", message: "Hello")
        try document.addRemote("origin", url: remote)
        return document
    }

    private func options(_ env: [String: String]) -> TransferOptions { TransferOptions(environment: env, timeout: .seconds(15)) }

    func testGivenAStoreCredentialHelperWhenPushingAndCloningThenItsLoginIsUsedAndAWrongOneIsErasedAndNamed() throws {
        try ws.bareRepository("doc.git")
        let server = try GitHTTPServer(root: ws.serversRoot, environment: ws.env, basicAuth: ("ada", "tok3n"))
        let store = try ws.dir.write("git-credentials", "http://ada:tok3n@127.0.0.1:\(server.port)\n")
        let env = try environment(gitconfig: "[credential]\n\thelper = store --file \(store.path)\n")
        let a = try document(remote: server.url("doc.git"))
        try a.push(options: options(env))
        let b = try ws.store.clone(from: server.url("doc.git"), to: ws.dir.path("B"), options: options(env))
        XCTAssertEqual(ws.text(b, "document.txt"), "hello\n")
        // A wrong stored password: refused, named, and erased from the helper's file.
        try Data("http://ada:wrong@127.0.0.1:\(server.port)\n".utf8).write(to: store)
        try a.write(Data("hello\nagain\n".utf8), to: "document.txt", message: "Again")
        XCTAssertThrowsError(try a.push(options: options(env))) { error in
            XCTAssertEqual((error as? CredentialRefused)?.reason, .refused(from: .helper("store")), "\(error)")
            XCTAssertTrue("\(error)".contains("refused the login from credential helper 'store'"), "\(error)")
            XCTAssertFalse("\(error)".contains("wrong"), "\(error)")
        }
        let left = try String(contentsOf: store, encoding: .utf8)
        XCTAssertFalse(left.contains("ada:wrong"), "the helper was told to erase the refused login: \(left)")
        for document in [a, b] {
            let config = try String(contentsOf: document.url.appendingPathComponent(".git/config"), encoding: .utf8)
            XCTAssertFalse(config.contains("tok3n"), config)
        }
    }

    func testGivenNoHelperLoginWhenTheServerAsksThenTheRefusalNamesTheHelperAndQuotesWhatItSaid() throws {
        try ws.bareRepository("doc.git")
        let server = try GitHTTPServer(root: ws.serversRoot, environment: ws.env, basicAuth: ("ada", "tok3n"))
        let env = try environment(gitconfig: "[credential]\n\thelper = \"!f() { echo 'no keyring here' >&2; exit 3; }; f\"\n")
        let a = try document(remote: server.url("doc.git"))
        XCTAssertThrowsError(try a.push(options: options(env))) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("Folio found none: credential helper '!f()' gave none, no FOLIO_GIT_TOKEN, no matching entry in .netrc"), text)
            XCTAssertTrue(text.contains("exited with status 3: \"no keyring here\""), text)
        }
    }

    func testGivenADocumentConfigNamingACredentialHelperWhenPushingThenOnlyTheUsersHelperRuns() throws {
        try ws.bareRepository("doc.git")
        let server = try GitHTTPServer(root: ws.serversRoot, environment: ws.env, basicAuth: ("ada", "tok3n"))
        let store = try ws.dir.write("git-credentials", "http://ada:tok3n@127.0.0.1:\(server.port)\n")
        let env = try environment(gitconfig: "[credential]\n\thelper = store --file \(store.path)\n")
        let a = try document(remote: server.url("doc.git"))
        let marker = ws.dir.path("document-helper-ran")
        let helper = "!f() { touch '\(marker.path)'; echo username=eve; echo password=stolen; }; f"
        try git(["config", "--add", "credential.helper", helper], in: a.url, environment: env)
        try git(["config", "core.sshCommand", "touch '\(marker.path)'"], in: a.url, environment: env)
        try a.push(options: options(env))
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker.path), "the document's own credential helper ran")
    }

    func testGivenInsteadOfAndPushInsteadOfWhenCloningAndPushingThenTheRewrittenServersAreReachedAndTheShortURLKept() throws {
        try ws.bareRepository("doc.git")
        let pushed = try ws.bareRepository("pushed-doc.git")
        let server = try GitHTTPServer(root: ws.serversRoot, environment: ws.env)
        let env = try environment(gitconfig: """
            [url "http://127.0.0.1:\(server.port)/"]
            \tinsteadOf = https://short.example/
            [url "http://127.0.0.1:\(server.port)/nowhere/"]
            \tinsteadOf = https://short
            [url "http://127.0.0.1:\(server.port)/pushed-"]
            \tpushInsteadOf = https://short.example/push/
            """)
        let a = try document(remote: "https://short.example/doc.git")
        try a.push(options: options(env))
        let b = try ws.store.clone(from: "https://short.example/doc.git", to: ws.dir.path("B"), options: options(env))
        XCTAssertEqual(ws.text(b, "document.txt"), "hello\n")
        XCTAssertEqual(try b.remotes().map(\.url), ["https://short.example/doc.git"], "the clone keeps the URL as typed")
        // pushInsteadOf: the push goes to pushed-doc.git, fetches still to doc.git.
        try a.repository.setRemoteURL("origin", url: "https://short.example/push/doc.git")
        XCTAssertThrowsError(try a.fetch(options: options(env)), "fetching rewrites with insteadOf only (no push/ there)")
        try a.push(options: options(env))
        let log = try git(["log", "-1", "--format=%s", "main"], in: pushed, environment: env)
        XCTAssertEqual(log.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "Hello", log.stderr)
    }

    func testGivenAShortURLAndAHelperInTheUsersConfigWhenFolioClonesThenItReachesTheServerWithTheHelpersLoginAndShowsNoSecret() throws {
        try ws.bareRepository("doc.git")
        let server = try GitHTTPServer(root: ws.serversRoot, environment: ws.env, basicAuth: ("ada", "tok3n"))
        let a = try document(remote: server.url("doc.git"))
        let store = try ws.dir.write("git-credentials", "http://ada:tok3n@127.0.0.1:\(server.port)\n")
        let env = try environment(gitconfig: """
            [url "http://127.0.0.1:\(server.port)/"]
            \tinsteadOf = team:
            [credential "http://127.0.0.1:\(server.port)"]
            \thelper = store --file \(store.path)
            """)
        try a.push(options: options(env))
        let clone = runFolio(["clone", "team:doc.git", "B"], environment: env, cwd: ws.dir.url)
        XCTAssertEqual(clone.status, 0, clone.stderr)
        XCTAssertFalse((clone.stdout + clone.stderr).contains("tok3n"), clone.stderr)
        XCTAssertEqual(try String(contentsOf: ws.dir.path("B/document.txt"), encoding: .utf8), "hello\n")
        let config = try String(contentsOf: ws.dir.path("B/.git/config"), encoding: .utf8)
        XCTAssertTrue(config.contains("url = team:doc.git"), config)
        XCTAssertFalse(config.contains("tok3n"), config)
    }

    func testGivenAnHTTPProxyInTheUsersConfigOrTheEnvironmentWhenPushingThenItGoesThroughItUnlessNoProxyNamesTheHost() throws {
        try ws.bareRepository("doc.git")
        let server = try GitHTTPServer(root: ws.serversRoot, environment: ws.env)
        let proxy = try HTTPProxyServer(folder: ws.dir.url)
        let a = try document(remote: server.url("doc.git"))
        // http.proxy
        try a.push(options: options(try environment(gitconfig: "[http]\n\tproxy = \(proxy.url)\n")))
        XCTAssertTrue(proxy.requests.contains { $0.hasPrefix("GET http://127.0.0.1:\(server.port)/doc.git/info/refs") }, "\(proxy.requests)")
        // http_proxy (and no proxy at all when NO_PROXY names the host)
        var env = try environment(gitconfig: "")
        env["http_proxy"] = proxy.url
        env["NO_PROXY"] = "example.org,127.0.0.1"
        let before = proxy.requests.count
        try a.write(Data("hello\nagain\n".utf8), to: "document.txt", message: "Again")
        try a.push(options: options(env))
        XCTAssertEqual(proxy.requests.count, before, "NO_PROXY names the host: \(proxy.requests)")
        env["NO_PROXY"] = nil
        try a.write(Data("hello\nthird\n".utf8), to: "document.txt", message: "Third")
        try a.push(options: options(env))
        XCTAssertGreaterThan(proxy.requests.count, before, "http_proxy: \(proxy.requests)")
    }

    func testGivenATLSServerWithItsOwnCAWhenCloningThenSSLCAInfoLetsItThroughAndWithoutItItIsRefusedWhateverTheDocumentSays() throws {
        try ws.bareRepository("doc.git")
        let ca = try TestCertificateAuthority(folder: ws.dir.url)
        let server = try GitHTTPServer(root: ws.serversRoot, environment: ws.env, tls: (ca.certificate, ca.key))
        let a = try document(remote: server.url("doc.git"))
        // Without the CA: refused, even with http.sslVerify=false in the document's own config.
        try a.repository.setConfig("http.sslVerify", false)
        XCTAssertThrowsError(try a.push(options: options(try environment(gitconfig: "")))) { error in
            XCTAssertTrue("\(error)".lowercased().contains("certificate"), "\(error)")
        }
        // With it (http.sslCAInfo, then GIT_SSL_CAINFO through an https proxy): through.
        try a.push(options: options(try environment(gitconfig: "[http]\n\tsslCAInfo = \(ca.caFile)\n")))
        let proxy = try HTTPProxyServer(folder: ws.dir.url)
        var env = try environment(gitconfig: "")
        env["GIT_SSL_CAINFO"] = ca.caFile
        env["HTTPS_PROXY"] = proxy.url
        let b = try ws.store.clone(from: server.url("doc.git"), to: ws.dir.path("B"), options: options(env))
        XCTAssertEqual(ws.text(b, "document.txt"), "hello\n")
        XCTAssertTrue(proxy.requests.contains("CONNECT localhost:\(server.port) HTTP/1.1"), "\(proxy.requests)")
        // The user's own http.sslVerify=false: through without the CA.
        try a.write(Data("hello\nunverified\n".utf8), to: "document.txt", message: "Unverified")
        try a.push(options: options(try environment(gitconfig: "[http \"https://localhost:\(server.port)\"]\n\tsslVerify = false\n")))
        // A CA file that does not vouch for the server: refused, naming the file.
        let other = try TestCertificateAuthority(folder: ws.dir.path("other-ca").creatingDirectory())
        XCTAssertThrowsError(try a.push(options: options(try environment(gitconfig: "[http]\n\tsslCAInfo = \(other.caFile)\n")))) { error in
            XCTAssertTrue("\(error)".contains("not signed by a CA in the file") && "\(error)".contains(other.caFile), "\(error)")
        }
    }
}

private extension URL {
    func creatingDirectory() throws -> URL {
        try FileManager.default.createDirectory(at: self, withIntermediateDirectories: true)
        return self
    }
}
