@testable import FolioGit
import FolioTestSupport
import Foundation
import XCTest

/// How Folio reads an ssh address and which `ssh` it runs with which arguments, as git does.
final class SSHLaunchTests: XCTestCase {
    func testGivenSSHURLsAndScpLikeAddressesWhenParsedThenUserHostPortAndPathAreGitsReading() throws {
        XCTAssertEqual(try SSHAddress("ssh://git@example.com:2222/srv/doc.git"),
                       SSHAddress(user: "git", host: "example.com", port: 2222, path: "/srv/doc.git"))
        XCTAssertEqual(try SSHAddress("git+ssh://[::1]:22/x"), SSHAddress(user: nil, host: "::1", port: 22, path: "/x"))
        XCTAssertEqual(try SSHAddress("ssh://host/~ada/doc.git"), SSHAddress(user: nil, host: "host", port: nil, path: "~ada/doc.git"))
        XCTAssertEqual(try SSHAddress("work-alias:team/doc.git"), SSHAddress(user: nil, host: "work-alias", port: nil, path: "team/doc.git"))
        XCTAssertEqual(try SSHAddress("git@github.com:org/doc.git"), SSHAddress(user: "git", host: "github.com", port: nil, path: "org/doc.git"))
        XCTAssertEqual(try SSHAddress("ssh://user:secret@host/x").user, "user")
    }

    func testGivenAnAddressWhosePartWouldBeReadAsAnOptionWhenParsedThenItIsRefused() {
        for url in ["ssh://-oProxyCommand=touch%20x/doc.git", "-oProxyCommand=x:doc.git", "ssh://-l@host/x", "host:-x", "/local/path", "http://host/x"] {
            XCTAssertThrowsError(try SSHAddress(url), url)
        }
    }

    func testGivenAPathWithQuotesWhenMadeIntoTheServersCommandThenItIsQuotedAsGitQuotesIt() throws {
        XCTAssertEqual(try SSHAddress("host:it's here!.git").remoteCommand("git-upload-pack"), #"git-upload-pack 'it'\''s here'\!'.git'"#)
    }

    func testGivenGitsSettingsWhenResolvedThenGITSSHCOMMANDThenCoreSSHCommandThenGITSSHThenSSHOnPathAsGitOrdersThem() throws {
        let dir = try TemporaryDirectory()
        let config = dir.url.appendingPathComponent("gitconfig")
        try Data("[core]\n\tsshCommand = ssh -F /from/config\n".utf8).write(to: config)
        var env = ["PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": config.path,
                   "GIT_SSH_COMMAND": "ssh -F /from/env", "GIT_SSH": "/opt/bin/ssh"]
        XCTAssertEqual(SSHLaunch.resolve(environment: env)?.program, .shell("ssh -F /from/env"))
        env["GIT_SSH_COMMAND"] = nil
        XCTAssertEqual(SSHLaunch.resolve(environment: env)?.program, .shell("ssh -F /from/config"))
        env["GIT_CONFIG_GLOBAL"] = "/dev/null"
        XCTAssertEqual(SSHLaunch.resolve(environment: env)?.program, .program("/opt/bin/ssh"))
        env["GIT_SSH"] = nil
        if SSHLaunch.installedSSH(env) != nil { XCTAssertEqual(SSHLaunch.resolve(environment: env)?.origin, .path) }
        env["PATH"] = "/nonexistent"
        XCTAssertNil(SSHLaunch.resolve(environment: env), "no ssh installed: libssh2")
    }

    func testGivenAnSSHCommandWhenRunForAnAddressThenItGetsGitsArgumentsAfterTheUsersOwnThroughAShell() throws {
        let launch = SSHLaunch(program: .shell("ssh -F '/a b/config'"), origin: .gitSSHCommand, isOpenSSH: true,
                               environment: ["FOLIO_SSH_KEY": "/k/id"])
        let address = try SSHAddress("ssh://ada@host:2222/doc.git")
        let arguments = try launch.arguments(address, extra: SSHLaunch.batchOptions, remote: address.remoteCommand("git-receive-pack"))
        XCTAssertEqual(launch.commandLine(arguments), ["/bin/sh", "-c", "ssh -F '/a b/config' \"$@\"", "ssh -F '/a b/config'",
                                                       "-i", "/k/id", "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes", "-v",
                                                       "-p", "2222", "ada@host", "git-receive-pack '/doc.git'"])
        let simple = SSHLaunch(program: .program("/opt/wrapper"), origin: .gitSSH, isOpenSSH: false, environment: [:])
        XCTAssertEqual(try simple.arguments(SSHAddress("host:doc.git"), extra: SSHLaunch.batchOptions, remote: "x"), ["host", "x"])
        XCTAssertThrowsError(try simple.arguments(address, extra: [], remote: "x"))
    }

    func testGivenSSHsStandardErrorWhenReadThenControlCharactersAreEscapedDebugLinesLeftOutAndTheRefusedKeyFound() {
        var errors = SSHStandardError()
        errors.append(Array("debug1: Server host key: ssh-ed25519 SHA256:abc\r\nfatal: \u{1b}[31mred\u{7}\n".utf8))
        errors.append(Array("@@@@@@@\nHost key verification failed.\r\n".utf8))
        errors.finish()
        XCTAssertEqual(errors.lastLines, ["fatal: \\u{1b}[31mred\\u{7}", "Host key verification failed."])
        XCTAssertEqual(errors.fingerprint, "SHA256:abc")
        XCTAssertEqual(errors.hostKeyRefusal, .unknown)
    }
}
