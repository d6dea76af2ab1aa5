@testable import FolioCore
@testable import FolioPlugins
import FolioCLITestSupport
import FolioConfinement
import Foundation
import XCTest

/// Every plugin host is confined once its plugin is loaded: the "probe" plugin's attempts to read a private key,
/// write into the home folder, connect to a listener on loopback, fork and exec a shell and append to another
/// document's `.git/config` are each refused, nothing happens, and what Folio reports names what the plugin tried.
/// Its environment holds none of Folio's secrets. Driven through `folio` in-process, as a user runs it.
final class PluginConfinementTests: XCTestCase {
    private var temp: TemporaryDirectory!
    private var env: [String: String] = [:]
    private var listener: Int32 = -1
    private var port: UInt16 = 0
    private static let token = "folio-token-\(UUID().uuidString)"

    override func setUpWithError() throws {
        temp = TemporaryDirectory("folio-confinement")
        env = temp.environment(["FOLIO_PLUGIN_PATH": temp.path("plugins").path, "FOLIO_GIT_TOKEN": Self.token,
                                "SSH_AUTH_SOCK": temp.path("agent.sock").path, "NETRC": temp.path("netrc").path])
        _ = try temp.write("home/.ssh/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\nfake\n-----END OPENSSH PRIVATE KEY-----\n")
        try ConfinementProbePlugin.build(in: temp.path("plugins"))
        (listener, port) = try Self.listen()
    }

    override func tearDown() {
        if listener >= 0 { close(listener) }
        temp = nil
    }

    /// A TCP listener on 127.0.0.1 (a port the kernel picks), non-blocking.
    private static func listen() throws -> (Int32, UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && Glibc.listen(fd, 8) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard fd >= 0, bound else { throw POSIXError(.EADDRNOTAVAIL) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    @discardableResult
    private func folio(_ arguments: String...) -> RunResult {
        runFolio(arguments, environment: env, cwd: temp.url)
    }

    /// The probe document naming the targets; `renderProbes` makes its render try them too. Returns the victim
    /// document's config as it was.
    private func makeProbe(renderProbes: Bool = false) throws -> Data {
        XCTAssertEqual(folio("new", "victim", "--type", "org.test.probe").status, 0)
        let created = folio("new", "probe", "--type", "org.test.probe")
        XCTAssertEqual(created.status, 0, created.stderr)
        let targets = ["key=\(temp.path("home/.ssh/id_rsa").path)", "home=\(temp.path("home").path)", "port=\(port)",
                       "touch=\(temp.path("touched").path)", "config=\(temp.path("victim/.git/config").path)"]
            + (renderProbes ? ["render=probe"] : [])
        let document = try DocumentStore(environment: env).open(at: temp.path("probe"))
        _ = try document.write(Data((targets.joined(separator: "\n") + "\n").utf8), to: document.metadata.primaryFile, message: "targets")
        return try Data(contentsOf: temp.path("victim/.git/config"))
    }

    /// Nothing the probe tried happened: no file written into the home folder, no file touched by a shell, the other
    /// document's config as it was, and the listener never saw a connection.
    private func assertNothingHappened(victimConfig: Data, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("home/pwned").path), "a file was written into HOME", file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("touched").path), "a shell ran", file: file, line: line)
        XCTAssertEqual(try Data(contentsOf: temp.path("victim/.git/config")), victimConfig, "another document's config changed", file: file, line: line)
        let accepted = accept(listener, nil, nil)
        let acceptErrno = errno
        if accepted >= 0 { close(accepted) }
        XCTAssertTrue(accepted < 0 && (acceptErrno == EAGAIN || acceptErrno == EWOULDBLOCK), "the listener accepted a connection", file: file, line: line)
    }

    private static let everyAttemptRefused = "read=EPERM write=EPERM connect=EPERM fork=EPERM exec=EPERM config=EPERM"
    private static let named = "the plugin tried to read a file (openat), write a file (openat), open a network connection (socket), "
        + "start a process (clone) and run a program (execve), which it has not declared"

    func testGivenAPluginWhoseApplyTriesFiveEscapesWhenRunThenEachIsRefusedAndTheFailureNamesWhatItTried() throws {
        let victimConfig = try makeProbe()
        let result = folio("edit", "probe", "probe")
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains(Self.everyAttemptRefused), result.stderr)
        XCTAssertTrue(result.stderr.contains(Self.named), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        try assertNothingHappened(victimConfig: victimConfig)
    }

    func testGivenAPluginThatCrashesAfterItsRefusedAttemptsWhenRunThenTheCrashMessageNamesWhatItTried() throws {
        let victimConfig = try makeProbe()
        let result = folio("edit", "probe", "probe-crash")
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("editor 'probe' crashed (SIGSEGV) in 'probe-crash'; \(Self.named); nothing was changed"), result.stderr)
        try assertNothingHappened(victimConfig: victimConfig)
    }

    func testGivenAPluginWhoseRenderTriesFiveEscapesWhenViewedThenEachIsRefusedAndTheFailureNamesWhatItTried() throws {
        let victimConfig = try makeProbe(renderProbes: true)
        let result = folio("view", "probe")
        let shown = result.stdout + result.stderr
        XCTAssertTrue(shown.contains(Self.everyAttemptRefused), shown)
        XCTAssertTrue(shown.contains(Self.named), shown)
        try assertNothingHappened(victimConfig: victimConfig)
    }

    func testGivenATokenAndAnAgentInFoliosEnvironmentWhenAPluginRendersThenItsEnvironmentHasNeither() throws {
        _ = try makeProbe()
        let result = folio("view", "probe")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("token=(none) home=(none) agent=(none) lang=C.UTF-8"), result.stdout)
        XCTAssertFalse(result.stdout.contains(Self.token), result.stdout)
    }

    func testGivenFoliosEnvironmentWhenAHostEnvironmentIsMadeThenOnlyTheAllowListIsKept() {
        let folio = ["FOLIO_GIT_TOKEN": "t", "GITHUB_TOKEN": "t", "SSH_AUTH_SOCK": "/s", "NETRC": "/n", "GIT_ASKPASS": "/a", "HOME": "/h",
                     "PATH": "/bin", "DB_PASSWORD": "p", "LANG": "C.UTF-8", "LC_ALL": "C", "LC_CTYPE": "C.UTF-8", "TZ": "UTC", "LC_evil": "x"]
        XCTAssertEqual(PluginIsolation.hostEnvironment(from: folio), ["LANG": "C.UTF-8", "LC_ALL": "C", "LC_CTYPE": "C.UTF-8", "TZ": "UTC"])
    }

    func testGivenThisKernelWhenFolioListsPluginsThenItSaysWhichConfinementIsInForce() {
        let listed = folio("plugins", "list")
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let line = listed.stdout.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(line.hasPrefix("plugin confinement: "), listed.stdout)
        XCTAssertTrue(line.contains("seccomp, no-new-privs, own session"), line)
        let abi = Confinement.offered.landlockABI
        XCTAssertTrue(line.contains(abi > 0 ? "landlock ABI \(abi) (files" : "no landlock"), line)
    }
}
