import FolioCore
@testable import FolioPlugins
import FolioCLITestSupport
import Foundation
import XCTest

/// One description per editor: a library's manifest is generated from its descriptor in a plugin host process, and
/// discovery caches it until the library changes.
final class PluginManifestGenerationTests: XCTestCase {
    /// A plugin with one editor "counter" whose version and command are chosen per build.
    static func source(version: String, command: String) -> String {
        """
        #include "folio_plugin.h"
        static folio_status op_open(const folio_editor *e, const uint8_t *b, size_t n, folio_document **out, folio_buffer *err) {
            (void)e; (void)b; (void)n; (void)out; return folio_fail(err, FOLIO_STATUS_UNSUPPORTED, "no");
        }
        static folio_status op_apply(const folio_editor *e, const folio_document *d, const char *c, const char *a, const folio_selection *s,
                                     folio_document **out, folio_buffer *desc, folio_buffer *err) {
            (void)e; (void)d; (void)c; (void)a; (void)s; (void)out; (void)desc; return folio_fail(err, FOLIO_STATUS_UNSUPPORTED, "no");
        }
        static folio_status op_serialize(const folio_editor *e, const folio_document *d, folio_buffer *out, folio_buffer *err) {
            (void)e; (void)d; (void)out; return folio_fail(err, FOLIO_STATUS_UNSUPPORTED, "no");
        }
        static folio_status op_render(const folio_editor *e, const folio_document *d, uint32_t w, uint32_t h, const folio_selection *s,
                                      folio_buffer *out, folio_buffer *err) {
            (void)e; (void)d; (void)w; (void)h; (void)s; (void)out; return folio_fail(err, FOLIO_STATUS_UNSUPPORTED, "no");
        }
        static void op_release(const folio_editor *e, folio_document *d) { (void)e; (void)d; }
        static const folio_command_info command = { sizeof(folio_command_info), FOLIO_COMMAND_NEEDS_SELECTION, "\(command)", "Do it", "x", "\(command) N" };
        static const folio_command_info *const commands[] = { &command };
        static const char *const types[] = { "org.test.counter" };
        static const folio_editor editor = {
            .struct_size = sizeof(folio_editor), .priority = FOLIO_PRIORITY_OPTION, .id = "counter", .name = "Counter",
            .content_types = types, .content_type_count = 1, .commands = commands, .command_count = 1,
            .open = op_open, .apply = op_apply, .serialize = op_serialize, .render = op_render, .release = op_release,
        };
        \(PluginCSource.descriptor(id: "test.counter", name: "Counter", version: version))
        """
    }

    private func environment(_ home: URL) -> [String: String] {
        ["HOME": home.path, "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
         "XDG_STATE_HOME": home.appendingPathComponent("state").path, "XDG_DATA_HOME": home.appendingPathComponent("data").path,
         "XDG_CONFIG_HOME": home.appendingPathComponent("config").path, "PATH": "/usr/bin:/bin"]
    }

    /// A host over `folder` with the disk cache of `home` (an isolation made for an environment).
    private func host(_ folder: URL, home: URL) -> EditorRegistry {
        let env = environment(home)
        return EditorRegistry(searchPath: PluginSearchPath(folders: [.init(folder, bundled: false)]), isolation: .standard(environment: env))
    }

    func testGivenALibraryWithoutAManifestWhenGeneratedThenTheManifestSaysWhatItsDescriptorSays() throws {
        let folder = try PluginFixtures.temporaryFolder(self)
        let library = try PluginFixtures.compilePlugin(Self.source(version: "1.2.3", command: "bump"), named: "libcounter.so", in: folder)
        let manifest = try PluginManifest.generate(forLibrary: library, isolation: PluginIsolation())
        XCTAssertEqual(manifest, PluginManifest(
            id: "test.counter", name: "Counter", version: "1.2.3", abi: 1, abiMinor: Int(PluginABI.minor), library: "libcounter.so",
            editors: [EditorManifest(id: "counter", name: "Counter", contentTypes: ["org.test.counter"], priority: .option,
                                     commands: [EditorCommand(id: "bump", title: "Do it", shortcut: "x", needsSelection: true, usage: "bump N")])]))
    }

    func testGivenABundledPluginWhenGeneratedThenItsExtensionsAndDeclaredTypesAreInTheManifest() throws {
        let library = PluginFixtures.buildFolder.appendingPathComponent("libFolioChecklist.so")
        let manifest = try PluginManifest.generate(forLibrary: library, isolation: PluginIsolation())
        XCTAssertEqual(manifest.editors.first?.extensions, ["folio.semantic-diff/1", "folio.semantic-merge/1", "folio.items/1", "folio.argument-values/1"])
        XCTAssertEqual(manifest.editors.first?.declaredTypes.map(\.identifier), ["org.folio.checklist"])
        XCTAssertEqual(manifest.editors.first?.commands.first, EditorCommand(id: "add", title: "Add item", shortcut: "a", usage: "add TITLE"))
    }

    func testGivenALibraryWithoutAManifestWhenDiscoveredThenItIsListedWithItsGeneratedManifestCached() throws {
        let home = try PluginFixtures.temporaryFolder(self), folder = try PluginFixtures.temporaryFolder(self)
        _ = try PluginFixtures.compilePlugin(Self.source(version: "1.0.0", command: "bump"), named: "libcounter.so", in: folder)
        let discovered = host(folder, home: home)
        XCTAssertEqual(discovered.refusals, [])
        XCTAssertEqual(discovered.plugins.map(\.manifest.id), ["test.counter"])
        let cached = try XCTUnwrap(discovered.plugins.first?.manifestURL)
        XCTAssertTrue(cached.path.hasPrefix(home.appendingPathComponent("cache/folio/plugin-manifests/").path), cached.path)
        XCTAssertNotNil(try JSONNode.parse(try Data(contentsOf: cached)))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("libcounter.folio-plugin.json").path),
                       "nothing is written beside the library")
    }

    func testGivenACachedManifestWhenTheLibraryIsRebuiltThenItsManifestIsGeneratedAgain() throws {
        let home = try PluginFixtures.temporaryFolder(self), folder = try PluginFixtures.temporaryFolder(self)
        _ = try PluginFixtures.compilePlugin(Self.source(version: "1.0.0", command: "bump"), named: "libcounter.so", in: folder)
        XCTAssertEqual(host(folder, home: home).editors.first?.editor.commands.map(\.id), ["bump"])
        _ = try PluginFixtures.compilePlugin(Self.source(version: "2.0.0", command: "reset"), named: "libcounter.so", in: folder)
        let rebuilt = host(folder, home: home)
        XCTAssertEqual(rebuilt.plugins.first?.manifest.version, "2.0.0")
        XCTAssertEqual(rebuilt.editors.first?.editor.commands.map(\.id), ["reset"])
        // The plugin host checks what it loaded (the descriptor's id, ABI, version 2.0.0, editors) against that manifest.
        XCTAssertNoThrow(try rebuilt.warmUp(try XCTUnwrap(rebuilt.editors.first?.editor.id)), "the rebuilt library agrees with its manifest")
    }

    func testGivenACorruptCacheFileWhenDiscoveredThenTheManifestIsGeneratedAndTheFileRewritten() throws {
        let home = try PluginFixtures.temporaryFolder(self), folder = try PluginFixtures.temporaryFolder(self)
        _ = try PluginFixtures.compilePlugin(Self.source(version: "1.0.0", command: "bump"), named: "libcounter.so", in: folder)
        let cached = try XCTUnwrap(host(folder, home: home).plugins.first?.manifestURL)
        // Rebuilt (so the in-memory entry no longer matches) and the cache file garbled.
        _ = try PluginFixtures.compilePlugin(Self.source(version: "1.0.1", command: "bump"), named: "libcounter.so", in: folder)
        try Data("{\"key\": ".utf8).write(to: cached)
        let again = host(folder, home: home)
        XCTAssertEqual(again.refusals, [])
        XCTAssertEqual(again.plugins.first?.manifest.version, "1.0.1")
        XCTAssertNotNil(try JSONNode.parse(try Data(contentsOf: cached)))
    }

    func testGivenALibraryThatCrashesWhenDescribedThenDiscoveryRefusesItAndListsTheOthers() throws {
        let home = try PluginFixtures.temporaryFolder(self), folder = try PluginFixtures.temporaryFolder(self)
        _ = try PluginFixtures.compilePlugin(Self.source(version: "1.0.0", command: "bump"), named: "libcounter.so", in: folder)
        let crash = try PluginFixtures.compilePlugin(PluginRefusalTests.pluginSource(id: "test.crash", entryBody: "volatile int *p = 0; *p = 1; return 0;"),
                                                     named: "libcrash.so", in: folder)
        let discovered = host(folder, home: home)
        XCTAssertEqual(discovered.plugins.map(\.manifest.id), ["test.counter"])
        XCTAssertEqual(discovered.refusals.map(\.description), ["\(crash.path): plugin refused: loading it crashed the plugin host (SIGSEGV)"])
        XCTAssertThrowsError(try PluginManifest.generate(forLibrary: crash, isolation: PluginIsolation())) { error in
            XCTAssertEqual("\(error)", "\(crash.path): plugin refused: loading it crashed the plugin host (SIGSEGV)")
        }
    }

    func testGivenATextFileNamedLikeALibraryWhenGeneratedThenItIsRefusedWithoutStartingAHost() throws {
        let folder = try PluginFixtures.temporaryFolder(self)
        let fake = folder.appendingPathComponent("libfake.so")
        try Data("not a library".utf8).write(to: fake)
        XCTAssertThrowsError(try PluginManifest.generate(forLibrary: fake, isolation: PluginIsolation(executable: URL(fileURLWithPath: "/nonexistent")))) { error in
            XCTAssertEqual("\(error)", "\(fake.path): plugin refused: not a shared object (no ELF header)")
        }
    }

    func testGivenALibraryThatHangsWhileLoadingWhenDiscoveredTwiceThenItIsProbedOnceAndRefusedBothTimes() throws {
        let home = try PluginFixtures.temporaryFolder(self), folder = try PluginFixtures.temporaryFolder(self)
        let marker = folder.appendingPathComponent("probes")
        // The entry notes each call in `marker`, then spins.
        let hang = try PluginFixtures.compilePlugin("#include <stdio.h>\n" + PluginRefusalTests.pluginSource(id: "test.hang", entryBody: """
            FILE *f = fopen("\(marker.path)", "a"); if (f) { fputs("x", f); fclose(f); } for (;;) {} return 0;
            """), named: "libhang.so", in: folder)
        var isolation = PluginIsolation.standard(environment: environment(home))
        isolation.limits.call = .milliseconds(500)
        let search = PluginSearchPath(folders: [.init(folder, bundled: false)])
        let expected = "\(hang.path): plugin refused: it did not finish loading within 0.5 s (tried again in 5 minutes or when the file changes)"
        XCTAssertEqual(EditorRegistry(searchPath: search, isolation: isolation).refusals.map(\.description), [expected])
        XCTAssertEqual(EditorRegistry(searchPath: search, isolation: isolation).refusals.map(\.description), [expected])
        XCTAssertEqual(try String(contentsOf: marker, encoding: .utf8), "x", "the second discovery used the cached refusal")
    }

    func testGivenALibraryThatCrashesWhenTwoFolioProcessesListPluginsThenOnlyTheFirstProbesItAndBothRefuseIt() throws {
        let folio = PluginFixtures.folioExecutable
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: folio.path), "needs the folio executable (swift build)")
        let home = try PluginFixtures.temporaryFolder(self), folder = try PluginFixtures.temporaryFolder(self)
        let marker = folder.appendingPathComponent("probes")
        let crash = try PluginFixtures.compilePlugin("#include <stdio.h>\n" + PluginRefusalTests.pluginSource(id: "test.crash", entryBody: """
            FILE *f = fopen("\(marker.path)", "a"); if (f) { fputs("x", f); fclose(f); } volatile int *p = 0; *p = 1; return 0;
            """), named: "libcrash.so", in: folder)
        var env = environment(home)
        env["FOLIO_PLUGIN_PATH"] = folder.path
        for _ in 0..<2 {
            let listed = try runProgram(folio.path, ["plugins", "list"], environment: env)
            XCTAssertEqual(listed.status, 0)
            XCTAssertTrue(listed.stderr.contains("\(crash.path): plugin refused: loading it crashed the plugin host (SIGSEGV)"), listed.stderr)
        }
        XCTAssertEqual(try String(contentsOf: marker, encoding: .utf8), "x", "the second process read the cached refusal")
    }
}

/// `folio plugins manifest FILE.so`: the generated manifest as a file Folio reads back (what install scripts ship).
final class PluginManifestCommandTests: XCTestCase {
    func testGivenABundledLibraryWhenItsManifestIsPrintedThenFolioReadsItBackAsTheGeneratedManifest() throws {
        let temp = TemporaryDirectory("folio-manifest-command")
        let library = PluginFixtures.buildFolder.appendingPathComponent("libFolioShapes.so")
        let printed = runFolio(["plugins", "manifest", library.path], environment: temp.environment(), cwd: temp.url)
        XCTAssertEqual(printed.status, 0, printed.stderr)
        let file = temp.path("libFolioShapes.folio-plugin.json")
        try Data(printed.stdout.utf8).write(to: file)
        XCTAssertEqual(try PluginManifest.load(from: file), try PluginManifest.generate(forLibrary: library, isolation: PluginIsolation()))
    }

    func testGivenAFileThatIsNoLibraryWhenItsManifestIsAskedThenOneLineNamesItAndNothingIsPrinted() throws {
        let temp = TemporaryDirectory("folio-manifest-command")
        let fake = try temp.write("libfake.so", "text")
        let printed = runFolio(["plugins", "manifest", fake.path], environment: temp.environment(), cwd: temp.url)
        XCTAssertNotEqual(printed.status, 0)
        XCTAssertEqual(printed.stdout, "")
        XCTAssertTrue(printed.stderr.contains("\(fake.path): plugin refused: not a shared object (no ELF header)"), printed.stderr)
        XCTAssertEqual(printed.stderr.split(separator: "\n").count, 1, printed.stderr)
    }
}
