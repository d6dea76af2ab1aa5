import FolioCore
@testable import FolioPlugins
import FolioCLITestSupport
import FolioConfinement
import FolioPluginWire
import Foundation
import XCTest

/// Declared permissions: a plugin that needs a TCP port or a path to read declares it in its manifest; `plugins
/// install` shows it and asks (`--grant` for scripts), the lock records the grant, an upgrade asking for more asks
/// again, `plugins info` lists it, and the host grants exactly that and nothing else.
final class PluginPermissionsTests: XCTestCase {
    private var temp: TemporaryDirectory!
    private var env: [String: String] = [:]
    private var installed: URL { temp.path("home/.local/share/folio/plugins") }

    override func setUpWithError() throws {
        temp = TemporaryDirectory("folio-permissions")
        env = temp.environment()
        for folder in ["src", "home/.ssh"] {
            try FileManager.default.createDirectory(at: temp.path(folder), withIntermediateDirectories: true)
            chmod(temp.path(folder).path, 0o755)
        }
    }

    override func tearDown() { temp = nil }

    private func folio(_ arguments: String..., stdin: String = "", interactive: Bool = false) -> RunResult {
        runFolio(arguments, environment: env, cwd: temp.url, stdin: Data(stdin.utf8), interactive: interactive)
    }

    /// Builds `source` into `folder` as `name` with a manifest beside it (generated from the library) declaring
    /// `permissions` (a `permissions` object, or nil for none).
    @discardableResult
    private func build(_ source: String, named name: String, folder: String = "src", permissions: [String: Any]?) throws -> URL {
        let url = temp.path(folder)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        chmod(url.path, 0o755)
        let library = try PluginFixtures.compilePlugin(source, named: name, in: url)
        let generated = folio("plugins", "manifest", library.path)
        XCTAssertEqual(generated.status, 0, generated.stderr)
        var manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(generated.stdout.utf8)) as? [String: Any])
        if let permissions { manifest["permissions"] = permissions }
        try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys]).write(to: ManifestLocator.besideManifest(for: library))
        return library
    }

    private func mini(version: String, permissions: [String: Any]?, folder: String = "src") throws -> URL {
        try build(PluginCSource.mini(id: "org.test.mini", editor: "mini", version: version), named: "libmini.so", folder: folder, permissions: permissions)
    }

    private var installer: PluginInstaller { PluginInstaller(folder: installed) }
    private func check(_ library: URL) -> PluginProbeReport { PluginFixtures.check(library, environment: env) }

    // MARK: The declaration

    func testGivenDeclarationsWhenValidatedThenOnlyPortsAndAbsoluteOrHomePathsWithinTheLimitsPass() {
        XCTAssertNil(PluginPermissions(network: [5432, 443], read: ["/usr/share/dict", "~/.config/example"]).problem)
        let refused: [(PluginPermissions, String)] = [
            (PluginPermissions(network: [0]), "0 is not a TCP port"),
            (PluginPermissions(network: [65536]), "65536 is not a TCP port"),
            (PluginPermissions(network: [80, 80]), "names a port twice"),
            (PluginPermissions(network: Array(1...17)), "more than 16 ports"),
            (PluginPermissions(read: ["relative/path"]), "is neither absolute nor in the home folder"),
            (PluginPermissions(read: ["~user/x"]), "is neither absolute nor in the home folder"),
            (PluginPermissions(read: ["/usr/../etc/shadow"]), "has a '.' or '..' component"),
            (PluginPermissions(read: ["~/../x"]), "has a '.' or '..' component"),
            (PluginPermissions(read: ["/tmp/a\nread /etc"]), "holds a control character"),
            (PluginPermissions(read: ["/" + String(repeating: "a", count: 1024)]), "longer than 1024 bytes"),
            (PluginPermissions(read: ["/a", "/a"]), "names a path twice"),
        ]
        for (permissions, problem) in refused {
            XCTAssertTrue(permissions.problem?.contains(problem) == true, "\(permissions): \(permissions.problem ?? "accepted")")
        }
    }

    func testGivenAManifestDeclaringSomethingElseOrAnInvalidPortWhenLoadedThenItIsRefusedNamingThePermission() throws {
        let library = try mini(version: "1.0.0", permissions: nil)
        let url = ManifestLocator.besideManifest(for: library)
        var manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        for (permissions, problem) in [(["write": ["/tmp"]] as [String: Any], "write"), (["network": [0]], "0 is not a TCP port"),
                                       (["network": ["5432"]], "network")] {
            manifest["permissions"] = permissions
            try JSONSerialization.data(withJSONObject: manifest).write(to: url)
            XCTAssertThrowsError(try PluginManifest.load(from: url)) { error in
                XCTAssertTrue("\(error)".contains(problem), "\(error)")
            }
            let install = folio("plugins", "install", library.path, "--grant")
            XCTAssertEqual(install.status, 1, install.stdout)
            XCTAssertTrue(install.stderr.contains(problem), install.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: installed.appendingPathComponent("org.test.mini").path))
        }
    }

    func testGivenAGrantWhenSentToTheHostThenItReadsBackAndMalformedGrantsAreRefused() {
        let grant = PluginPermissions(network: [5432], read: ["/usr/share/dict", "~/.config/x"]).grant(home: "/home/ann")
        XCTAssertEqual(grant, PluginGrant(connectPorts: [5432], readablePaths: ["/usr/share/dict", "/home/ann/.config/x"]))
        XCTAssertEqual(PluginGrant(decoding: grant.encoded), grant)
        XCTAssertEqual(PluginPermissions(read: ["~/.x"]).grant(home: nil), PluginGrant(), "a home path without a home grants nothing")
        for bad in ["network 0\n", "network 70000\n", "read relative\n", "write /tmp\n", "network 80 \n",
                    String(repeating: "network 1\n", count: 33)] {
            XCTAssertNil(PluginGrant(decoding: Array(bad.utf8)), bad)
        }
        XCTAssertNil(PluginGrant(decoding: [0x72, 0x65, 0x61, 0x64, 0x20, 0x2F, 0xFF]), "invalid UTF-8")
    }

    // MARK: Install, upgrade and the lock

    func testGivenAPluginAskingForAPortWhenInstalledWithoutConsentThenNothingIsInstalledAndTheLockIsUnchanged() throws {
        let library = try mini(version: "1.0.0", permissions: ["network": [5432]])
        XCTAssertThrowsError(try installer.install(from: library, check: check)) { error in
            XCTAssertEqual("\(error)", "org.test.mini 1.0.0 asks for: connect to TCP port 5432; not granted, nothing installed")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: installed.appendingPathComponent("org.test.mini").path))
        XCTAssertNil(try installer.lock().entry("org.test.mini"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: installed.path).filter { $0.hasPrefix(".staging") || $0.hasPrefix(".install-") && $0 != ".install.lock" }, [],
                       "no staging folder left")
    }

    func testGivenConsentWhenInstalledThenTheLockRecordsTheGrantAndAnUpgradeAsksOnlyForWhatItAdds() throws {
        var asked: [PluginPermissionRequest] = []
        let consent: PluginPermissionConsent = { asked.append($0); return true }
        try installer.install(from: try mini(version: "1.0.0", permissions: ["network": [5432]]), consent: consent, check: check)
        XCTAssertEqual(asked.map(\.asked), [PluginPermissions(network: [5432])])
        XCTAssertNil(asked.first?.previouslyGranted)
        XCTAssertEqual(try installer.lock().entry("org.test.mini")?.granted, PluginPermissions(network: [5432]))

        try installer.install(from: try mini(version: "1.0.1", permissions: ["network": [5432]], folder: "v101"), consent: consent, check: check)
        XCTAssertEqual(asked.count, 1, "an upgrade asking for what was granted asks nothing")

        let more = try mini(version: "1.0.2", permissions: ["network": [5432], "read": ["/usr/share/dict"]], folder: "v102")
        XCTAssertThrowsError(try installer.install(from: more, check: check)) { error in
            XCTAssertEqual("\(error)", "org.test.mini 1.0.2 asks for more than it was granted before: read /usr/share/dict; not granted, nothing installed")
        }
        XCTAssertEqual(try installer.lock().entry("org.test.mini")?.version, "1.0.1", "the refused upgrade left the installed version")
        try installer.install(from: more, consent: consent, check: check)
        XCTAssertEqual(asked.last?.asked, PluginPermissions(read: ["/usr/share/dict"]))
        XCTAssertEqual(asked.last?.previouslyGranted, PluginPermissions(network: [5432]))
        XCTAssertEqual(try installer.lock().entry("org.test.mini")?.granted, PluginPermissions(network: [5432], read: ["/usr/share/dict"]))

        try installer.install(from: try mini(version: "1.0.3", permissions: nil, folder: "v103"), check: check)
        XCTAssertNil(try installer.lock().entry("org.test.mini")?.granted, "a version declaring nothing is granted nothing")
    }

    func testGivenALockWhoseGrantIsInvalidWhenLoadedThenItIsDamagedNamingTheEntry() throws {
        try installer.install(from: try mini(version: "1.0.0", permissions: ["network": [5432]]), consent: { _ in true }, check: check)
        let lockURL = installed.appendingPathComponent(PluginLock.fileName)
        let text = try String(contentsOf: lockURL, encoding: .utf8).replacingOccurrences(of: "5432", with: "99999")
        try Data(text.utf8).write(to: lockURL)
        XCTAssertThrowsError(try installer.lock()) { error in XCTAssertTrue("\(error)".contains("99999 is not a TCP port"), "\(error)") }
    }

    // MARK: Through the command line

    func testGivenNoTerminalWhenInstallingAPluginThatAsksThenItIsRefusedInOneLineWithTheFlagAsHint() throws {
        let library = try mini(version: "1.0.0", permissions: ["network": [5432], "read": ["~/.config/mini"]])
        let refused = folio("plugins", "install", library.path)
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stdout, "org.test.mini 1.0.0 asks to:\n  connect to TCP port 5432\n  read ~/.config/mini\n")
        XCTAssertEqual(refused.stderr, "folio plugins: org.test.mini 1.0.0 asks for: connect to TCP port 5432; read ~/.config/mini; not granted, nothing installed"
                       + "; to grant it, answer yes on a terminal or run again with --grant\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: installed.appendingPathComponent("org.test.mini").path))

        let no = folio("plugins", "install", library.path, stdin: "n\n", interactive: true)
        XCTAssertEqual(no.status, 1, no.stdout)
        XCTAssertTrue(no.stdout.hasSuffix("Grant it? [y/N]: "), no.stdout)

        let yes = folio("plugins", "install", library.path, stdin: "y\n", interactive: true)
        XCTAssertEqual(yes.status, 0, yes.stderr)
        XCTAssertTrue(yes.stdout.contains("Grant it? [y/N]: Installed org.test.mini 1.0.0: "), yes.stdout)
        XCTAssertTrue(yes.stdout.hasSuffix("Granted: connect to TCP port 5432; read ~/.config/mini\n"), yes.stdout)

        let info = folio("plugins", "info", "org.test.mini")
        XCTAssertTrue(info.stdout.contains("declares: connect to TCP port 5432; read ~/.config/mini\ngranted:  connect to TCP port 5432; read ~/.config/mini\n"), info.stdout)
        XCTAssertTrue(info.stdout.contains("in force: "), info.stdout)
        // The path does not exist, so the host leaves it out and says so.
        XCTAssertTrue(info.stdout.contains("read \(temp.path("home").path)/.config/mini (no such file)"), info.stdout)
    }

    func testGivenTheGrantFlagWhenInstallingWithJSONThenTheRequestGoesToStderrAndTheGrantIsInTheAnswer() throws {
        let library = try mini(version: "1.0.0", permissions: ["network": [5432]])
        let result = folio("plugins", "install", library.path, "--grant", "--json")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "org.test.mini 1.0.0 asks to:\n  connect to TCP port 5432\n")
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((json["granted"] as? [String: Any])?["network"] as? [Int], [5432])
    }

    func testGivenABundledPluginWhenDescribedThenItDeclaresNoPermissions() {
        let info = folio("plugins", "info", "org.folio.plugins.checklist")
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertTrue(info.stdout.contains("declares: no permissions\n"), info.stdout)
    }

    // MARK: What the host grants

    /// The probe plugin installed with a grant of `port` and the private key's path.
    private func installProbe(grantingPort port: UInt16) throws {
        let key = try temp.write("home/.ssh/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\nfake\n-----END OPENSSH PRIVATE KEY-----\n")
        let library = try build(ConfinementProbePlugin.source, named: "libprobe.so", folder: "probe-src",
                                permissions: ["network": [Int(port)], "read": [key.path]])
        let install = folio("plugins", "install", library.path, "--grant")
        XCTAssertEqual(install.status, 0, install.stderr)
    }

    /// A probe document naming the targets, the listener on `port` among them; returns what `folio edit` reported.
    private func probe(port: UInt16, name: String) throws -> String {
        XCTAssertEqual(folio("new", name, "--type", "org.test.probe").status, 0)
        XCTAssertEqual(folio("new", "victim-\(name)", "--type", "org.test.probe").status, 0)
        let targets = ["key=\(temp.path("home/.ssh/id_rsa").path)", "home=\(temp.path("home").path)", "port=\(port)",
                       "touch=\(temp.path("touched").path)", "config=\(temp.path("victim-\(name)/.git/config").path)"]
        let document = try DocumentStore(environment: env).open(at: temp.path(name))
        _ = try document.write(Data((targets.joined(separator: "\n") + "\n").utf8), to: document.metadata.primaryFile, message: "targets")
        return folio("edit", name, "probe").stderr
    }

    func testGivenAPluginGrantedAPortAndAFileWhenItProbesThenItReachesOnlyThoseAndEverythingElseIsStillRefused() throws {
        guard Confinement.offered.landlockABI >= 4 else {
            throw XCTSkip("this kernel's Landlock (ABI \(Confinement.offered.landlockABI)) cannot limit connections to ports, so Folio withholds them")
        }
        let granted = try TCPListener(), other = try TCPListener()
        try installProbe(grantingPort: granted.port)

        let reached = try probe(port: granted.port, name: "granted")
        XCTAssertTrue(reached.contains("read=ok write=EPERM connect=ok fork=EPERM exec=EPERM config=EPERM"), reached)
        XCTAssertTrue(granted.acceptedOne(), "the granted port saw no connection")

        let refused = try probe(port: other.port, name: "other")
        XCTAssertTrue(refused.contains("read=ok write=EPERM connect=EACCES fork=EPERM exec=EPERM config=EPERM"), refused)
        XCTAssertFalse(other.acceptedOne(), "a port not granted was reached")
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("home/pwned").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("touched").path))
    }
}

/// A non-blocking TCP listener on 127.0.0.1 at a port the kernel picks, closed when released.
private final class TCPListener {
    let fd: Int32
    let port: UInt16

    init() throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = fd
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard fd >= 0, bound else { throw POSIXError(.EADDRNOTAVAIL) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(fd) }

    /// Whether a connection is waiting (taken and closed).
    func acceptedOne() -> Bool {
        let accepted = accept(fd, nil, nil)
        if accepted >= 0 { close(accepted) }
        return accepted >= 0
    }
}
