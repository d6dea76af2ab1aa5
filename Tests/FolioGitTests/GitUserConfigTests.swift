import Foundation
import FolioGit
import FolioTestSupport
import XCTest

/// The user's git configuration as git reads it: files and includes in priority order, the `GIT_CONFIG_COUNT`
/// variables, `<url>` subsections matched as git's urlmatch does, proxies and rewrites as git and curl choose them;
/// credential helpers' commands and answers.
final class GitUserConfigTests: XCTestCase {
    private let dir = TemporaryDirectory("folio-gitconfig")

    private func config(_ entries: [(String, String?)], environment: [String: String] = [:]) -> GitUserConfig {
        GitUserConfig(entries: entries.map { GitUserConfig.Entry(name: $0.0, value: $0.1) }, environment: environment)
    }

    func testGivenSystemXDGGlobalFilesWithAnIncludeAndGitConfigCountThenHelpersComeInGitsOrderAndAnEmptyOneResetsThem() throws {
        let system = try dir.write("system-gitconfig", "[credential]\n\thelper = sys\n")
        try dir.write("home/.config/git/config", "[credential]\n\thelper = xdg\n")
        try dir.write("home/included", "[credential]\n\thelper =\n\thelper = inc\n")
        try dir.write("home/.gitconfig", "[include]\n\tpath = included\n[credential]\n\thelper = glob\n[core]\n\tsshCommand = ssh -F /dev/null\n")
        var env = dir.environment()
        env["GIT_CONFIG_NOSYSTEM"] = nil
        env["GIT_CONFIG_SYSTEM"] = system.path
        env["GIT_CONFIG_COUNT"] = "2"
        env["GIT_CONFIG_KEY_0"] = "Credential.https://h.example.Helper"
        env["GIT_CONFIG_VALUE_0"] = "env"
        env["GIT_CONFIG_KEY_1"] = "url.https://mirror.example/.insteadOf"
        env["GIT_CONFIG_VALUE_1"] = "https://h.example/"
        let read = try GitUserConfig(environment: env)
        XCTAssertEqual(read.credentialHelpers(for: "https://h.example/doc.git"), ["inc", "glob", "env"])
        XCTAssertEqual(read.credentialHelpers(for: "https://other.example/doc.git"), ["inc", "glob"])
        XCTAssertEqual(read.rewrite(url: "https://h.example/doc.git", forPush: false), "https://mirror.example/doc.git")
        XCTAssertEqual(read.sshCommand, "ssh -F /dev/null")
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        XCTAssertEqual(try GitUserConfig(environment: env).credentialHelpers(for: "https://x.example/"), ["inc", "glob"])
        // includeIf "gitdir:" is decided by where the document is.
        try dir.write("home/work.gitconfig", "[credential]\n\thelper = work\n")
        try dir.write("home/.gitconfig", "[includeIf \"gitdir:\(dir.path("work").path)/\"]\n\tpath = work.gitconfig\n")
        let work = try Repository.create(at: dir.path("work/doc"))
        let elsewhere = try Repository.create(at: dir.path("elsewhere/doc"))
        XCTAssertEqual(try GitUserConfig(environment: env, repository: work).credentialHelpers(for: "https://x.example/"), ["xdg", "work"])
        XCTAssertEqual(try GitUserConfig(environment: env, repository: elsewhere).credentialHelpers(for: "https://x.example/"), ["xdg"])
        env["GIT_CONFIG_COUNT"] = "two"
        XCTAssertThrowsError(try GitUserConfig(environment: env)) { XCTAssertTrue("\($0)".contains("GIT_CONFIG_COUNT"), "\($0)") }
        env["GIT_CONFIG_COUNT"] = "3"
        XCTAssertThrowsError(try GitUserConfig(environment: env)) { XCTAssertTrue("\($0)".contains("GIT_CONFIG_KEY_2"), "\($0)") }
    }

    func testGivenURLSubsectionsThenTheMostSpecificMatchingOneWinsAsInGit() {
        let c = config([("http.proxy", "http://generic:1"), ("http.https://h.example/team.proxy", "http://team:1"),
                        ("http.https://h.example.proxy", "http://host:1"), ("http.https://*.wild.example.proxy", "http://wild:1"),
                        ("http.https://h.example:8443.sslverify", "false"), ("http.followredirects", "false"),
                        ("credential.https://h.example.username", "ada"), ("credential.h.example/team.usehttppath", "true")])
        XCTAssertEqual(c.proxy(for: "https://h.example/team/doc.git"), "http://team:1", "the longer path wins, whatever the order")
        XCTAssertEqual(c.proxy(for: "https://h.example/teamwork/doc.git"), "http://host:1", "paths match whole segments")
        XCTAssertEqual(c.proxy(for: "https://git.wild.example/doc.git"), "http://wild:1")
        XCTAssertEqual(c.proxy(for: "https://a.b.wild.example/doc.git"), "http://generic:1", "* is one label")
        XCTAssertEqual(c.proxy(for: "http://h.example/doc.git"), "http://generic:1", "the scheme must match")
        XCTAssertFalse(c.sslVerify(for: "https://h.example:8443/doc.git"))
        XCTAssertTrue(c.sslVerify(for: "https://h.example/doc.git"), "another port")
        XCTAssertEqual(c.followRedirects(for: "https://h.example/"), .never)
        XCTAssertEqual(c.credentialUsername(for: "https://h.example/doc.git"), "ada")
        XCTAssertNil(c.credentialUsername(for: "https://other.example/doc.git"))
        XCTAssertTrue(c.credentialUsesHTTPPath(for: "http://h.example/team/doc.git"), "a pattern without a scheme matches any")
        XCTAssertFalse(c.credentialUsesHTTPPath(for: "https://h.example/doc.git"))
    }

    func testGivenProxyVariablesThenHTTPSTakesEitherCaseHTTPOnlyLowerCaseAndNoProxyOrAnEmptyHTTPProxyBypassesThem() {
        let env = ["HTTPS_PROXY": "proxy.example:3128", "HTTP_PROXY": "http://upper:1", "no_proxy": ".internal.example, localhost"]
        XCTAssertEqual(config([], environment: env).proxy(for: "https://h.example/x"), "http://proxy.example:3128")
        XCTAssertNil(config([], environment: env).proxy(for: "http://h.example/x"), "curl ignores HTTP_PROXY")
        XCTAssertEqual(config([], environment: ["http_proxy": "http://lower:1"]).proxy(for: "http://h.example/x"), "http://lower:1")
        XCTAssertEqual(config([], environment: ["ALL_PROXY": "http://all:1"]).proxy(for: "http://h.example/x"), "http://all:1")
        XCTAssertNil(config([], environment: env).proxy(for: "https://git.internal.example/x"))
        XCTAssertNil(config([], environment: env).proxy(for: "https://localhost:8443/x"))
        XCTAssertNil(config([("http.proxy", "")], environment: env).proxy(for: "https://h.example/x"), "an empty http.proxy: none")
        XCTAssertNil(config([("http.proxy", "http://p:1")], environment: ["NO_PROXY": "*"]).proxy(for: "https://h.example/x"))
        XCTAssertNil(config([("http.proxy", "http://p:1")]).proxy(for: "ssh://h.example/x"))
    }

    func testGivenInsteadOfRulesThenTheLongestPrefixWinsOnceAndPushInsteadOfOnlyForPushes() {
        let c = config([("url.https://long/.insteadof", "gh:org/"), ("url.https://short/.insteadof", "gh:"),
                        ("url.https://chain/.insteadof", "https://short/"), ("url.ssh://push/.pushinsteadof", "gh:")])
        XCTAssertEqual(c.rewrite(url: "gh:org/doc.git", forPush: false), "https://long/doc.git")
        XCTAssertEqual(c.rewrite(url: "gh:other/doc.git", forPush: false), "https://short/other/doc.git", "applied once, not chained")
        XCTAssertEqual(c.rewrite(url: "gh:org/doc.git", forPush: true), "ssh://push/org/doc.git")
        XCTAssertEqual(c.rewrite(url: "https://elsewhere/doc.git", forPush: true), "https://elsewhere/doc.git")
    }

    func testGivenCAVariablesThenTheUsersConfigWinsThenGitSSLCAInfoThenSSLCertFile() {
        let env = ["GIT_SSL_CAINFO": "/git-ca.pem", "SSL_CERT_FILE": "/ssl-ca.pem", "HOME": "/home/ada"]
        XCTAssertEqual(config([("http.sslcainfo", "~/ca.pem")], environment: env).caFile(for: "https://h/x"), "/home/ada/ca.pem")
        XCTAssertEqual(config([], environment: env).caFile(for: "https://h/x"), "/git-ca.pem")
        XCTAssertEqual(config([], environment: ["SSL_CERT_FILE": "/ssl-ca.pem"]).caFile(for: "https://h/x"), "/ssl-ca.pem")
        XCTAssertNil(config([]).caFile(for: "https://h/x"))
    }

    func testGivenHelperValuesAndAnswersThenCommandsAreGitsAndOnlyKeyValueTextIsAccepted() {
        XCTAssertEqual(CredentialHelper("store --file /c").commandLine("get"), "git credential-store --file /c get")
        XCTAssertEqual(CredentialHelper("/usr/lib/helper -v").commandLine("erase"), "/usr/lib/helper -v erase")
        XCTAssertEqual(CredentialHelper("!f() { echo x; }; f").commandLine("store"), "f() { echo x; }; f store")
        XCTAssertEqual(CredentialHelper("store --file /c").name, "store")
        XCTAssertEqual(CredentialAnswer(Array("username=ada\npassword=p=w\nfoo=bar\n\nignored\n".utf8)),
                       CredentialAnswer(Array("password=p=w\r\nusername=ada\r\n".utf8)))
        XCTAssertEqual(CredentialAnswer(Array("password=p=w\n".utf8))?.password, "p=w")
        XCTAssertEqual(CredentialAnswer(Array("quit=1\n".utf8))?.quit, true)
        XCTAssertNil(CredentialAnswer(Array("password=a\0b\n".utf8)), "a NUL")
        XCTAssertNil(CredentialAnswer(Array("just words\n".utf8)), "a line without =")
        XCTAssertNil(CredentialAnswer([0x70, 0x3D, 0xFF, 0x0A]), "not UTF-8")
        XCTAssertNil(CredentialAnswer(Array(repeating: UInt8(ascii: "a"), count: 70_000)), "too long")
        XCTAssertNil(CredentialFields(protocolName: "https", host: "h", username: "ada\nhost=evil").request(), "a newline in a field")
        XCTAssertNil(CredentialFields(protocolName: "https", host: "h", path: "a\r\nhost=evil").request(), "a CR LF in a field")
        XCTAssertEqual(CredentialFields(protocolName: "https", host: "h:8443", path: "doc.git").request(),
                       "protocol=https\nhost=h:8443\npath=doc.git\n\n")
    }

    func testGivenAHelperThatHangsOrLeavesADaemonBehindThenItIsStoppedAtItsTimeLimitOrNotWaitedFor() throws {
        let env = dir.environment()
        let started = ContinuousClock.now
        let hung = try CredentialHelper("!sleep 20;").run("get", request: "protocol=https\n\n", environment: env, timeLimit: .milliseconds(300))
        XCTAssertTrue(hung.timedOut)
        XCTAssertFalse(hung.succeeded)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(10))
        // Like `git credential-cache`, whose daemon keeps the helper's standard error: the answer is read at its exit.
        let daemon = "!f() { sleep 4 >/dev/null & read -r line; echo \"got $line\" >&2; echo password=s3cret; }; f"
        let quick = ContinuousClock.now
        let answered = try CredentialHelper(daemon).run("get", request: "protocol=https\nhost=h\n\n", environment: env, timeLimit: .seconds(20))
        XCTAssertTrue(answered.succeeded, "\(answered)")
        XCTAssertLessThan(ContinuousClock.now - quick, .seconds(3), "the daemon holding standard error was not waited for")
        XCTAssertEqual(CredentialAnswer(answered.output)?.password, "s3cret")
        XCTAssertEqual(answered.quotedErrors, "\"got protocol=https\"")
    }
}
