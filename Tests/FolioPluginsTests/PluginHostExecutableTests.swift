@testable import FolioCore
@testable import FolioPlugins
import FolioTestSupport
import Foundation
import XCTest

/// The plugin host is its own small executable, found beside `folio` or in an installed `libexec/folio/`; it
/// describes what it loaded and Folio checks that against the manifest; a fresh or standby host waits after a crash.
final class PluginHostExecutableTests: XCTestCase {
    private var temp: TemporaryDirectory!
    private var env: [String: String] = [:]

    override func setUpWithError() throws {
        temp = TemporaryDirectory("folio-host-executable")
        env = temp.environment(["FOLIO_PLUGIN_PATH": temp.path("plugins").path])
        try MisbehavingPlugin.build(in: temp.path("plugins"))
    }

    override func tearDown() { temp = nil }

    private var builtHost: URL { PluginFixtures.buildFolder.appendingPathComponent(PluginIsolation.hostName) }

    /// `bin/folio` (an empty stand-in) and, when `libexec`, the real host under `libexec/folio/`.
    private func installed(libexec: Bool) throws -> URL {
        let bin = temp.path("prefix/bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let folio = bin.appendingPathComponent("folio")
        try Data().write(to: folio)
        chmod(folio.path, 0o755)
        if libexec {
            let folder = temp.path("prefix/libexec/folio")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: builtHost, to: folder.appendingPathComponent(PluginIsolation.hostName))
        }
        return folio
    }

    private func host(executable: URL? = PluginFixtures.folioExecutable, standby: Bool = false) -> EditorRegistry {
        var isolation = PluginIsolation(limits: PluginLimits(settings: .init(callSeconds: 20, renderSeconds: 20)),
                                        executable: executable, stateFolder: temp.path("state"), environment: env)
        isolation.standby = standby
        return EditorRegistry(searchPath: PluginSearchPath(folders: [.init(temp.path("plugins"), bundled: false)]), isolation: isolation)
    }

    func testGivenFolioInstalledWithTheHostInLibexecWhenAnEditorRunsThenTheHostIsFoundThereAndWorks() throws {
        let folio = try installed(libexec: true)
        let host = host(executable: folio)
        XCTAssertEqual(try host.isolation.hostExecutable().path, temp.path("prefix/libexec/folio/folio-plugin-host").standardizedFileURL.path)
        let document = try host.backend("tally").openDocument(Data("41".utf8))
        let (changed, description) = try document.apply("inc", arguments: [], selection: ViewSelection())
        XCTAssertEqual(String(decoding: try changed.bytes(), as: UTF8.self), "42\n")
        XCTAssertEqual(description, "counted 42")
    }

    func testGivenNoHostExecutableWhenAnEditorRunsThenOneLineSaysWhereItLooked() throws {
        let folio = try installed(libexec: false)
        XCTAssertThrowsError(try host(executable: folio).backend("tally").openDocument(Data("1".utf8))) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("editor 'tally' could not be started"), text)
            XCTAssertTrue(text.contains("cannot find folio-plugin-host"), text)
            XCTAssertTrue(text.contains(self.temp.path("prefix/bin").path), text)
            XCTAssertFalse(text.contains("\n"))
        }
    }

    func testGivenAManifestThatDisagreesWithTheLibraryWhenLoadedInTheHostThenItIsRefusedInOneLine() throws {
        let manifest = temp.path("plugins/libtally.folio-plugin.json")
        let edited = String(decoding: try Data(contentsOf: manifest), as: UTF8.self).replacingOccurrences(of: #""id": "spin""#, with: #""id": "twirl""#)
        try Data(edited.utf8).write(to: manifest)
        XCTAssertThrowsError(try host().backend("tally").openDocument(Data("1".utf8))) { error in
            XCTAssertEqual("\(error)", "\(self.temp.path("plugins/libtally.so").path): plugin refused: editor 'tally' has other commands than its manifest lists (manifest \(manifest.path))")
        }
    }

    func testGivenACrashWhenTheHostDiesThenAFreshHostIsStartedAtOnceAndTheNextCallUsesIt() throws {
        let host = host()
        let document = try host.backend("tally").openDocument(Data("1".utf8))
        let plugin = host.isolatedPlugin(try XCTUnwrap(host.plugin("test.tally")))
        XCTAssertNil(plugin.standbyPID, "no standby unless asked for")
        XCTAssertThrowsError(try document.apply("crash", arguments: [], selection: ViewSelection()))
        let fresh = try XCTUnwrap(plugin.standbyPID, "started when the crash was reported")
        XCTAssertEqual(try document.view(RenderRequest(width: 40, height: 5)).count, 1)
        XCTAssertEqual(plugin.hostPID, fresh)
    }

    func testGivenAStandbyHostWhenTheHostCrashesThenTheLoadedStandbyTakesOverAndAnotherIsStarted() throws {
        let host = host(standby: true)
        let document = try host.backend("tally").openDocument(Data("1".utf8))
        let plugin = host.isolatedPlugin(try XCTUnwrap(host.plugin("test.tally")))
        let first = try XCTUnwrap(plugin.hostPID)
        let standby = try XCTUnwrap(plugin.standbyPID, "kept once the first host is up")
        XCTAssertNotEqual(first, standby)
        XCTAssertThrowsError(try document.apply("crash", arguments: [], selection: ViewSelection())) { error in
            XCTAssertEqual("\(error)", "editor 'tally' crashed (SIGSEGV) in 'crash'; nothing was changed")
        }
        XCTAssertEqual(try document.view(RenderRequest(width: 40, height: 5)).count, 1)
        XCTAssertEqual(plugin.hostPID, standby)
        let next = try XCTUnwrap(plugin.standbyPID)
        XCTAssertNotEqual(next, standby)
        XCTAssertEqual(kill(first, 0), -1, "the crashed host was reaped")
    }
}
