import FolioCore
@testable import FolioPlugins
import FolioCLITestSupport
import Foundation
import Synchronization
import XCTest

/// `folio plugins install/remove/disable/enable` and the lock file, through the library and the command line, with
/// small C plugins compiled by `cc`.
final class PluginInstallTests: XCTestCase {
    private var temp: TemporaryDirectory!
    private var env: [String: String] = [:]
    private var installed: URL { temp.path("home/.local/share/folio/plugins") }

    override func setUpWithError() throws {
        temp = TemporaryDirectory("folio-install")
        env = temp.environment()
        try FileManager.default.createDirectory(at: temp.path("src"), withIntermediateDirectories: true)
        chmod(temp.path("src").path, 0o755)
    }

    override func tearDown() { temp = nil }

    /// A well-behaved one-editor plugin; `version` and `id` vary the build.
    static func source(id: String = "org.test.mini", editor: String = "mini", version: String = "1.0.0") -> String {
        PluginCSource.mini(id: id, editor: editor, version: version)
    }

    private func build(_ name: String = "libmini.so", folder: String = "src", _ source: String = PluginInstallTests.source()) throws -> URL {
        let url = temp.path(folder)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        chmod(url.path, 0o755)
        return try PluginFixtures.compilePlugin(source, named: name, in: url)
    }

    private var installer: PluginInstaller { PluginInstaller(folder: installed) }

    private func check(_ library: URL) -> PluginProbeReport {
        PluginFixtures.check(library, environment: env)
    }

    /// The plugins found in the installed folder alone.
    private func host() -> EditorRegistry {
        EditorRegistry(searchPath: PluginSearchPath(folders: [.init(installed, bundled: false)]))
    }

    private func visibleNames(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    // MARK: Install

    func testGivenALibraryWithoutAManifestWhenInstalledThenItIsCopiedWithAManifestFromItsDescriptionAndLockedWithItsHash() throws {
        let library = try build()
        let result = try installer.install(from: library, check: check)

        XCTAssertEqual(result.library.path, installed.appendingPathComponent("org.test.mini/libmini.so").path)
        XCTAssertEqual(visibleNames(installed.appendingPathComponent("org.test.mini")), ["libmini.folio-plugin.json", "libmini.so"])
        XCTAssertEqual(try Data(contentsOf: result.library), try Data(contentsOf: library))
        let manifest = try PluginManifest.load(from: installed.appendingPathComponent("org.test.mini/libmini.folio-plugin.json"))
        XCTAssertEqual([manifest.id, manifest.version, manifest.library], ["org.test.mini", "1.0.0", "libmini.so"])
        XCTAssertEqual(manifest.editors.map(\.id), ["mini"])
        let lock = try PluginLock.load(in: installed)
        XCTAssertEqual(lock.plugins.map(\.id), ["org.test.mini"])
        XCTAssertEqual(lock.entry("org.test.mini")?.version, "1.0.0")
        XCTAssertEqual(lock.entry("org.test.mini")?.sha256, SHA256.hex(try Data(contentsOf: library)))
        let sum = try runProgram("sha256sum", [library.path])
        XCTAssertEqual(lock.entry("org.test.mini")?.sha256, sum.stdout.split(separator: " ").first.map(String.init), "the same digest as sha256sum")
        let host = host()
        XCTAssertEqual(host.plugins.map(\.manifest.id), ["org.test.mini"])
        XCTAssertEqual(host.refusals, [])
        XCTAssertEqual(host.state(of: try XCTUnwrap(host.plugins.first)), .enabled)
        XCTAssertFalse(visibleNames(installed).contains { $0.hasPrefix(PluginInstaller.stagingPrefix) }, "no staging folder is left")
    }

    func testGivenAnInstalledPluginWhenANewerBuildIsInstalledThenItReplacesTheOldOneAndTheLockRecordsTheNewHash() throws {
        try installer.install(from: try build(), check: check)
        let newer = try build(folder: "v2", Self.source(version: "1.1.0"))
        let result = try installer.install(from: newer.deletingLastPathComponent(), check: check)  // a folder holding one .so

        XCTAssertEqual(result.replaced, "1.0.0")
        XCTAssertEqual(try Data(contentsOf: result.library), try Data(contentsOf: newer))
        XCTAssertEqual(try PluginLock.load(in: installed).plugins.map(\.version), ["1.1.0"])
        XCTAssertEqual(try PluginLock.load(in: installed).entry("org.test.mini")?.sha256, SHA256.hex(try Data(contentsOf: newer)))
        XCTAssertEqual(host().plugins.map(\.manifest.version), ["1.1.0"])
        XCTAssertEqual(visibleNames(installed), [".install.lock", "org.test.mini", "plugins.lock.json"], "the old version's folder is gone")
    }

    func testGivenALibraryThatPluginsCheckRefusesWhenInstalledThenTheRefusalIsReportedAndNothingIsLeft() throws {
        try installer.install(from: try build(), check: check)
        let lockBefore = try Data(contentsOf: installed.appendingPathComponent(PluginLock.fileName))
        let notAPlugin = try build("libnot.so", folder: "bad", "int nothing_here(void) { return 1; }")

        XCTAssertThrowsError(try installer.install(from: notAPlugin, check: check)) { error in
            XCTAssertEqual("\(error)", "\(notAPlugin.path): plugin refused: missing entry symbol 'folio_plugin_entry'")
        }
        XCTAssertEqual(visibleNames(installed), [".install.lock", "org.test.mini", "plugins.lock.json"])
        XCTAssertEqual(try Data(contentsOf: installed.appendingPathComponent(PluginLock.fileName)), lockBefore)
    }

    func testGivenAManifestBesideTheLibraryThatDisagreesWithItWhenInstalledThenItIsRefusedAsPluginsCheckRefusesIt() throws {
        let library = try build()
        try PluginFixtures.writeManifest(PluginManifest(id: "org.test.mini", name: "Mini", version: "9.9.9", abi: 1, library: "libmini.so", editors: []),
                                         beside: library)
        XCTAssertThrowsError(try installer.install(from: library, check: check)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(library.path): plugin refused: the library's version is 1.0.0 but its manifest says 9.9.9"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: installed.appendingPathComponent("org.test.mini").path))
    }

    func testGivenAFolderWithTwoLibrariesOrAFileThatIsNoLibraryWhenInstalledThenTheOneLineSaysWhy() throws {
        _ = try build("liba.so", folder: "two")
        _ = try build("libb.so", folder: "two")
        XCTAssertThrowsError(try installer.install(from: temp.path("two"), check: check)) { error in
            XCTAssertEqual("\(error)", "\(temp.path("two").path): the folder holds several libraries (liba.so, libb.so); name one")
        }
        let text = try temp.write("notes.txt", "hello")
        XCTAssertThrowsError(try installer.install(from: text, check: check)) { error in
            XCTAssertEqual("\(error)", "\(text.path): not a plugin library (.so) or a folder holding one")
        }
        let elfless = try temp.write("src/libfake.so", "not an ELF file")
        XCTAssertThrowsError(try installer.install(from: elfless, check: check)) { error in
            XCTAssertTrue("\(error)".contains("not a shared object (no ELF header)"), "\(error)")
        }
        XCTAssertEqual(visibleNames(installed).filter { !$0.hasPrefix(".") && $0 != PluginLock.fileName }, [])
    }

    func testGivenAnotherPluginWithTheSameEditorIDWhenInstalledThenItIsRefusedNamingTheOtherLibrary() throws {
        let first = try build("libfirst.so", folder: "first", Self.source(id: "org.test.first", editor: "shared"))
        try PluginFixtures.writeManifest(PluginManifest(id: "org.test.first", name: "Mini", version: "1.0.0", abi: 1, library: "libfirst.so",
                                                             editors: [EditorManifest(id: "shared", name: "Mini", contentTypes: [ContentType("org.test.shared")])]),
                                         beside: first)
        let second = try build("libsecond.so", folder: "second", Self.source(id: "org.test.second", editor: "shared"))
        let host = EditorRegistry(searchPath: PluginSearchPath(folders: [.init(first.deletingLastPathComponent(), bundled: false)]))
        XCTAssertEqual(host.plugins.count, 1, "\(host.refusals)")
        XCTAssertThrowsError(try installer.install(from: second, others: host, check: check)) { error in
            XCTAssertEqual("\(error)", "\(second.path): another plugin already provides editor id 'shared' (\(first.path))")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: installed.appendingPathComponent("org.test.second").path))
    }

    func testGivenTwoInstallsOfTheSamePluginAtOnceWhenBothFinishThenTheLockAndTheInstalledFileAgree() throws {
        let builds = [try build(folder: "a", Self.source(version: "1.0.0")), try build(folder: "b", Self.source(version: "2.0.0"))]
        let installer = installer, env = env
        let errors = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            do {
                try installer.install(from: builds[index % 2]) { library in
                    PluginFixtures.check(library, environment: env)
                }
            } catch { errors.withLock { $0.append("\(error)") } }
        }
        XCTAssertEqual(errors.withLock { $0 }, [])
        let entry = try XCTUnwrap(try PluginLock.load(in: installed).entry("org.test.mini"))
        let file = installed.appendingPathComponent("org.test.mini/libmini.so")
        XCTAssertEqual(entry.sha256, SHA256.hex(try Data(contentsOf: file)), "the lock describes the file in place")
        XCTAssertEqual(host().plugins.map(\.manifest.version), [entry.version])
        XCTAssertEqual(visibleNames(installed), [".install.lock", "org.test.mini", "plugins.lock.json"])
    }

    // MARK: Changed behind Folio's back, disable, enable, remove

    func testGivenAnInstalledLibraryReplacedBehindFoliosBackWhenListedThenItIsChangedAndNotLoadedUntilAcceptedAfterTheCheck() throws {
        let result = try installer.install(from: try build(), check: check)
        let other = try build("libmini.so", folder: "other", Self.source(version: "1.0.0").replacingOccurrences(of: "\"m\"", with: "\"M\""))
        try FileManager.default.removeItem(at: result.library)
        try FileManager.default.copyItem(at: other, to: result.library)

        let host = host()
        XCTAssertEqual(host.plugins, [], "a changed file is not loaded")
        let inactive = try XCTUnwrap(host.inactive.first)
        guard case let .changed(recorded, actual) = inactive.state else { return XCTFail("\(inactive.state)") }
        XCTAssertEqual(recorded, result.entry.sha256)
        XCTAssertEqual(actual, SHA256.hex(try Data(contentsOf: other)))
        XCTAssertThrowsError(try host.backend("mini"))
        XCTAssertTrue(try XCTUnwrap(inactive.state.explanation).hasPrefix("CHANGED: its library changed since it was installed"))

        try installer.accept(inactive.plugin, report: check(inactive.plugin.library))
        XCTAssertEqual(self.host().plugins.map(\.manifest.id), ["org.test.mini"])
        XCTAssertEqual(try PluginLock.load(in: installed).entry("org.test.mini")?.sha256, SHA256.hex(try Data(contentsOf: other)))
    }

    func testGivenAnInstalledFileThatIsOnlyTouchedWhenListedThenItStaysEnabled() throws {
        let result = try installer.install(from: try build(), check: check)
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, result.library.path, &times, 0), 0)
        XCTAssertEqual(host().plugins.map(\.manifest.id), ["org.test.mini"], "same bytes, new stamp: hashed again and still the same")
    }

    func testGivenAnInstalledPluginWhenDisabledThenItIsListedAsDisabledItsEditorIsNotOfferedAndEnableBringsItBack() throws {
        try installer.install(from: try build(), check: check)
        XCTAssertTrue(try installer.setDisabled("org.test.mini", true))
        XCTAssertFalse(try installer.setDisabled("org.test.mini", true), "already disabled")

        let host = host()
        XCTAssertEqual(host.plugins, [])
        XCTAssertEqual(host.inactive.map(\.state), [.disabled])
        XCTAssertEqual(host.anyPlugin("mini")?.manifest.id, "org.test.mini", "still listed, found by its editor id")
        XCTAssertThrowsError(try host.chooseEditor(for: ContentType("org.test.mini")))
        XCTAssertThrowsError(try host.backend("mini"))

        XCTAssertTrue(try installer.setDisabled("org.test.mini", false))
        XCTAssertEqual(self.host().plugins.map(\.manifest.id), ["org.test.mini"])
        XCTAssertEqual(try self.host().chooseEditor(for: ContentType("org.test.mini")).editor.id, "mini")
    }

    func testGivenAnInstalledPluginWhenRemovedThenItsFolderAndLockEntryAreGoneAndRemovingAgainSaysItIsNotInstalled() throws {
        try installer.install(from: try build(), check: check)
        try installer.setDisabled("org.test.mini", true)
        XCTAssertEqual(try installer.remove(id: "org.test.mini")?.version, "1.0.0")

        XCTAssertEqual(visibleNames(installed), [".install.lock", "plugins.lock.json"])
        XCTAssertEqual(try PluginLock.load(in: installed), PluginLock())
        XCTAssertThrowsError(try installer.remove(id: "org.test.mini")) { error in
            XCTAssertEqual("\(error)", "no installed plugin 'org.test.mini'")
        }
        XCTAssertThrowsError(try installer.remove(id: "../../etc")) { error in
            XCTAssertEqual("\(error)", "no installed plugin '../../etc'")
        }
    }

    func testGivenACorruptLockFileWhenDiscoveringOrInstallingThenItIsNamedWithItsPositionAndNothingIsOverwritten() throws {
        try installer.install(from: try build(), check: check)
        let lockURL = installed.appendingPathComponent(PluginLock.fileName)
        let corrupt = Data(#"{"version": 1, "plugins": [], "disabled": [], "extra": true}"#.utf8)
        try corrupt.write(to: lockURL)

        let host = host()
        XCTAssertEqual(host.plugins, [], "without a readable lock the installed files cannot be checked")
        XCTAssertEqual(host.refusals.map(\.description),
                       ["\(lockURL.path): plugin refused: \(lockURL.path): line 1, column 47: unknown key 'extra'; the plugins installed beside it are not loaded"])
        XCTAssertThrowsError(try installer.install(from: try build(), check: check)) { error in
            XCTAssertEqual("\(error)", "\(lockURL.path): line 1, column 47: unknown key 'extra'")
        }
        XCTAssertEqual(try Data(contentsOf: lockURL), corrupt)
    }

    func testGivenAManifestBesideTheLibraryNamingAnotherFileWhenInstalledThenItIsRefusedAsDiscoveryWouldRefuseIt() throws {
        let library = try build()
        try PluginFixtures.writeManifest(PluginManifest(id: "org.test.mini", name: "Mini", version: "1.0.0", abi: 1, library: "libother.so",
                                                        editors: [EditorManifest(id: "mini", name: "Mini", contentTypes: [ContentType("org.test.mini")])]),
                                         beside: library)
        XCTAssertThrowsError(try installer.install(from: library, check: check)) { error in
            XCTAssertEqual("\(error)", "\(library.path): plugin refused: its manifest \(temp.path("src/libmini.folio-plugin.json").path) names library 'libother.so'")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: installed.appendingPathComponent("org.test.mini").path))
    }

    func testGivenAnInstallKilledBeforeItsRenameOrItsLockEntryWhenListedThenTheStagingIsIgnoredTheUnrecordedFolderIsChangedAndBothAreCleanedUp() throws {
        let result = try installer.install(from: try build(), check: check)
        // Killed after the rename, before the lock: the folder has no entry. Killed before the rename: a staging folder.
        try PluginLock().write(in: installed)
        let staging = installed.appendingPathComponent(PluginInstaller.stagingPrefix + "killed")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: result.library, to: staging.appendingPathComponent("libmini.so"))

        let listed = host()
        XCTAssertEqual(listed.plugins, [])
        XCTAssertEqual(listed.inactive.map(\.state), [.changed(recorded: nil, actual: SHA256.hex(try Data(contentsOf: result.library)))])
        XCTAssertEqual(listed.refusals, [], "the staging folder is not scanned")
        XCTAssertNil(try installer.remove(id: "org.test.mini"), "removed although the lock had no entry")
        try installer.install(from: try build(), check: check)
        XCTAssertEqual(visibleNames(installed), [".install.lock", "org.test.mini", "plugins.lock.json"], "the next install removed the staging folder")
    }

    // MARK: Through the command line

    private func folio(_ arguments: String...) -> RunResult { runFolio(arguments, environment: env, cwd: temp.url) }

    func testGivenTheCommandLineWhenInstallingDisablingEnablingAndRemovingThenEachSaysWhatItDidAndListShowsTheState() throws {
        let library = try build()
        let install = folio("plugins", "install", library.path)
        XCTAssertEqual(install.status, 0, install.stderr)
        XCTAssertEqual(install.stdout, "Installed org.test.mini 1.0.0: \(installed.path)/org.test.mini/libmini.so\n")
        XCTAssertTrue(folio("plugins", "list").stdout.contains("org.test.mini  Mini 1.0.0  enabled  \(installed.path)/org.test.mini/libmini.so\n"))

        XCTAssertEqual(folio("plugins", "disable", "mini").stdout, "Disabled org.test.mini: it is listed but not loaded\n"
                       + "  org.test.mini documents now have no editor: they show as text until: folio plugins enable org.test.mini"
                       + " (to try a build under development instead: folio plugins link DIR)\n")
        let listed = folio("plugins", "list", "--json")
        let json = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any]
        let entry = (json?["plugins"] as? [[String: Any]])?.first { $0["id"] as? String == "org.test.mini" }
        XCTAssertEqual(entry?["state"] as? String, "disabled")

        XCTAssertEqual(folio("plugins", "enable", "org.test.mini").stdout, "Enabled org.test.mini: no longer disabled\n")
        XCTAssertEqual(folio("plugins", "enable", "org.test.mini").stdout, "org.test.mini is enabled (nothing to change)\n")

        // A file changed behind Folio's back is flagged; enable checks it and records it.
        let installedLibrary = installed.appendingPathComponent("org.test.mini/libmini.so")
        let other = try build("libmini.so", folder: "other", Self.source().replacingOccurrences(of: "\"m\"", with: "\"X\""))
        try FileManager.default.removeItem(at: installedLibrary)
        try FileManager.default.copyItem(at: other, to: installedLibrary)
        let changed = folio("plugins", "list")
        XCTAssertTrue(changed.stdout.contains("org.test.mini  Mini 1.0.0  changed  "), changed.stdout)
        XCTAssertTrue(changed.stdout.contains("  CHANGED: its library changed since it was installed"), changed.stdout)
        let enable = folio("plugins", "enable", "org.test.mini")
        XCTAssertEqual(enable.stdout, "Enabled org.test.mini: its changed file passed the check and is recorded\n", enable.stderr)

        XCTAssertEqual(folio("plugins", "remove", "org.test.mini").stdout, "Removed org.test.mini 1.0.0\n")
        let again = folio("plugins", "remove", "org.test.mini")
        XCTAssertEqual(again.status, 1)
        XCTAssertEqual(again.stderr, "folio plugins: no installed plugin 'org.test.mini' (see folio plugins list)\n")
        let bundled = folio("plugins", "remove", "org.folio.plugins.story")
        XCTAssertEqual(bundled.status, 1)
        XCTAssertTrue(bundled.stderr.hasPrefix("folio plugins: org.folio.plugins.story is not in the installed plugins folder (it is at "), bundled.stderr)
        XCTAssertTrue(bundled.stderr.hasSuffix("libFolioStory.so); to stop using it: folio plugins disable org.folio.plugins.story\n"), bundled.stderr)
    }

    func testGivenTheCommandLineWhenInstallingWhatPluginsCheckRefusesThenItExitsOneWithTheRefusal() throws {
        let bad = try build("libbad.so", folder: "bad", PluginRefusalTests.pluginSource(id: "test.abi", major: "2"))
        let result = folio("plugins", "install", bad.path)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "folio plugins: \(bad.path): plugin refused: built for plugin ABI 2.2, this Folio supports plugin ABI 1.2\n")
        XCTAssertEqual(visibleNames(installed).filter { !$0.hasPrefix(".") && $0 != PluginLock.fileName }, [])
    }

    func testGivenAHugeFileThatCannotBeAPluginWhenInstalledThenItIsRefusedFromItsHeaderAndSizeWithoutBeingRead() throws {
        // Given two sparse 3 GiB files named like libraries: one without an ELF header, one with a shared object's header
        let noELF = temp.path("src/libhuge.so"), bigELF = temp.path("src/libbig.so")
        var header = [UInt8](repeating: 0, count: 64)
        header[0...3] = [0x7F, UInt8(ascii: "E"), UInt8(ascii: "L"), UInt8(ascii: "F")]
        header[4] = 2; header[5] = 1; header[16] = 3  // 64-bit, little-endian, ET_DYN
        try Data().write(to: noELF)
        try Data(header).write(to: bigELF)
        for file in [noELF, bigELF] { XCTAssertEqual(truncate(file.path, 3 << 30), 0) }
        // When the built folio installs each with 1 GB of address space (reading either whole cannot fit)
        for (file, reason) in [(noELF, "not a shared object (no ELF header)"), (bigELF, "it is larger than 1024 MiB")] {
            let result = try runProgram("/bin/sh", ["-c", "ulimit -v 1000000; exec \"$0\" plugins install \"$1\"", PluginFixtures.folioExecutable.path, file.path],
                                        cwd: temp.url, environment: env)
            // Then it is refused in one line from what its first bytes and its size say, and nothing was staged or installed
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertEqual(result.stderr, "folio plugins: \(file.path): plugin refused: \(reason)\n")
        }
        XCTAssertEqual(visibleNames(installed).filter { $0.hasPrefix(PluginInstaller.stagingPrefix) || $0 == "org.test.mini" }, [])
    }

    func testGivenAPluginWhoseConstructorPrintsWhenCheckedThenTheCheckPassesAndSaysWhatItPrinted() throws {
        // Given a plugin whose constructor prints two lines to standard output (through C's buffered stdio)
        let chatty = try build("libchatty.so", folder: "chatty", Self.source().replacingOccurrences(of: "struct folio_document { int n; };", with: """
            #include <stdio.h>
            struct folio_document { int n; };
            __attribute__((constructor)) static void hello(void) { printf("hello from the constructor\\n\\tsecond \\"line\\"\\n"); }
            """))
        // When it is checked
        let result = folio("plugins", "check", chatty.path)
        // Then the check still passes (the report has its own channel) and one line says what the plugin printed
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("ok: \(chatty.path): Mini 1.0.0 (org.test.mini)"), result.stdout)
        XCTAssertEqual(result.stderr, "folio plugins: warning: \(chatty.path): the plugin printed to standard output: "
                       + #""hello from the constructor\n\tsecond \"line\"\n" (Folio discards it)"# + "\n")
        let report = check(chatty)
        XCTAssertEqual(report.printed, "hello from the constructor\n\tsecond \"line\"\n")
    }

    func testGivenAPluginThatPrintsAndExitsWhileLoadingWhenCheckedThenTheRefusalQuotesWhatItPrinted() throws {
        // Given a plugin whose constructor writes a lot to standard output and then ends the process with status 0
        let quitter = try build("libquit.so", folder: "quit", Self.source().replacingOccurrences(of: "struct folio_document { int n; };", with: """
            #include <unistd.h>
            struct folio_document { int n; };
            __attribute__((constructor)) static void quit(void) {
                static char text[10000];
                for (int i = 0; i < 10000; i++) text[i] = "bye\\n"[i % 4];
                write(1, text, sizeof text); _exit(0);
            }
            """))
        // When it is checked
        let result = folio("plugins", "check", quitter.path)
        // Then it is refused in one line that quotes the start of what it printed and says how much there was
        XCTAssertEqual(result.status, 1)
        let quoted = String(repeating: #"bye\n"#, count: 50)
        XCTAssertEqual(result.stderr, "\(quitter.path): plugin refused: the check exited with status 0 and no report; "
                       + "the plugin printed to standard output: \"\(quoted)\"… (10000 bytes in all)\n")
        XCTAssertEqual(check(quitter).printed?.utf8.count, PluginProbeOutput.keptBytes, "kept up to the bound")
    }

    func testGivenACorruptLockFileWhenInstallingThenTheErrorSaysHowToRepairAndRepairRebuildsItKeepingDisabledPlugins() throws {
        // Given an installed, disabled plugin, a second plugin folder whose library no longer passes the check, and a
        // lock file that no longer reads
        try installer.install(from: try build(), check: check)
        try installer.setDisabled("org.test.mini", true)
        let other = try build("libother.so", folder: "other", Self.source(id: "org.test.other", editor: "other"))
        try installer.install(from: other, check: check)
        let otherLibrary = installed.appendingPathComponent("org.test.other/libother.so")
        try FileManager.default.removeItem(at: otherLibrary)
        try Data("not a library".utf8).write(to: otherLibrary)
        let lockURL = installed.appendingPathComponent(PluginLock.fileName)
        let corrupt = Data(#"{"version": 1, "plugins": [], "disabled": ["org.test.mini"], "extra": true}"#.utf8)
        try corrupt.write(to: lockURL)

        // When a plugin is installed, disabled or listed from the command line
        // Then each says the lock is damaged and how to repair it
        let hint = "; to set it aside and rebuild it from the installed plugins: folio plugins repair\n"
        for arguments in [["plugins", "install", other.path], ["plugins", "enable", "org.test.mini"]] {
            let result = runFolio(arguments, environment: env, cwd: temp.url)
            XCTAssertEqual(result.status, 1, "\(arguments)")
            XCTAssertEqual(result.stderr, "folio plugins: \(lockURL.path): line 1, column 62: unknown key 'extra'" + hint, "\(arguments)")
        }
        let listed = folio("plugins", "list").stderr
        XCTAssertTrue(listed.contains("the plugins installed beside it are not loaded; to set it aside and rebuild it: folio plugins repair\n"), listed)

        // When it is repaired
        let repaired = folio("plugins", "repair")
        // Then the damaged file is set aside as it was, the plugin that passes the check is recorded with its file's
        // hash and stays disabled, and the one that fails is named and left unrecorded (so not loaded)
        XCTAssertEqual(repaired.status, 0, repaired.stderr)
        let aside = try XCTUnwrap(visibleNames(installed).first { $0.hasPrefix(PluginLock.fileName + ".damaged-") })
        XCTAssertEqual(try Data(contentsOf: installed.appendingPathComponent(aside)), corrupt)
        let lines = repaired.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.first.map(String.init), "Set the damaged \(lockURL.path) aside as \(installed.path)/\(aside); "
                       + "recorded 1 installed plugin (org.test.mini); still disabled: org.test.mini")
        XCTAssertEqual(lines.count, 3, repaired.stdout)
        XCTAssertTrue(lines[1].hasPrefix("  not recorded, so not loaded: \(otherLibrary.path): plugin refused: "), repaired.stdout)
        let lock = try PluginLock.load(in: installed)
        let library = installed.appendingPathComponent("org.test.mini/libmini.so")
        XCTAssertEqual(lock.plugins.map(\.id), ["org.test.mini"])
        XCTAssertEqual(lock.plugins.first?.sha256, SHA256.hex(try Data(contentsOf: library)))
        XCTAssertEqual(lock.disabled, ["org.test.mini"])
        XCTAssertEqual(host().inactive.map(\.state.word), ["disabled"])
        XCTAssertEqual(host().refusals.map(\.file), [otherLibrary.path], "the broken library is refused, not loaded")
        // And a readable lock is left alone
        XCTAssertEqual(folio("plugins", "repair").stdout, "\(lockURL.path) is readable; nothing to repair\n")
    }

    // MARK: Folio's own names

    func testGivenAPluginWhoseIDIsOneOfFoliosOwnFilesWhenInstalledThenItIsRefusedInOneLineAndTheRegistriesStay() throws {
        // Given an installed plugin (so the lock file exists) and Folio's links file beside it
        try installer.install(from: try build(), check: check)
        let lockURL = installed.appendingPathComponent(PluginLock.fileName)
        let linksURL = installed.appendingPathComponent(PluginLinks.fileName)
        try Data(#"{"format": 1, "links": []}"#.utf8).write(to: linksURL)
        let lockBefore = try Data(contentsOf: lockURL)
        for id in [PluginLinks.fileName, PluginLock.fileName, "Plugins.Lock.json", "plugins.registry"] {
            // When a plugin claiming that id is installed through the command line
            let library = try build("libevil.so", folder: "evil-\(id)", Self.source(id: id, editor: "evil"))
            let result = folio("plugins", "install", library.path)
            // Then one line names the id and why, exit 1, and Folio's files are as they were
            XCTAssertEqual(result.status, 1, "\(id): \(result.stdout)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains("plugin id '\(id)' is refused") && result.stderr.contains("Folio's own files"), result.stderr)
            XCTAssertEqual(try Data(contentsOf: lockURL), lockBefore, id)
            XCTAssertEqual(try String(contentsOf: linksURL, encoding: .utf8), #"{"format": 1, "links": []}"#, id)
            var isFolder: ObjCBool = false
            XCTAssertTrue(FileManager.default.fileExists(atPath: linksURL.path, isDirectory: &isFolder) && !isFolder.boolValue, id)
        }
        XCTAssertEqual(try installer.lock().plugins.map(\.id), ["org.test.mini"])
    }

    func testGivenFoliosOwnFilesWhenRemovedAsPluginsThenEachIsNotAnInstalledPluginAndStays() throws {
        // Given an installed plugin, Folio's registries and a stray file in the plugins folder
        try installer.install(from: try build(), check: check)
        try Data(#"{"format": 1, "links": []}"#.utf8).write(to: installed.appendingPathComponent(PluginLinks.fileName))
        try Data("notes".utf8).write(to: installed.appendingPathComponent("notes.txt"))
        for id in [PluginLinks.fileName, PluginLock.fileName, "notes.txt", ".install.lock"] {
            // When it is removed as if it were a plugin
            let result = folio("plugins", "remove", id)
            // Then it is not an installed plugin, and the file is still there
            XCTAssertEqual(result.status, 1, "\(id): \(result.stdout)")
            XCTAssertFalse(result.stdout.contains("Removed"), result.stdout)
            XCTAssertTrue(result.stderr.contains("no installed plugin '\(id)'"), result.stderr)
            XCTAssertTrue(FileManager.default.fileExists(atPath: installed.appendingPathComponent(id).path), id)
        }
        // And the real plugin is still installed and removable
        XCTAssertEqual(folio("plugins", "remove", "org.test.mini").stdout, "Removed org.test.mini 1.0.0\n")
    }
}
