import FolioCore
@testable import FolioPlugins
import FolioCLITestSupport
import Foundation
import XCTest

/// Purpose-built broken plugins, compiled with `cc` against the real header.
final class PluginRefusalTests: XCTestCase {
    static func pluginSource(id: String, major: String = "FOLIO_PLUGIN_ABI_MAJOR", entry: String = "folio_plugin_entry", entryBody: String? = nil) -> String {
        """
        #include "folio_plugin.h"
        static const folio_plugin_descriptor descriptor = {
            .magic = FOLIO_PLUGIN_MAGIC, .abi_major = \(major), .abi_minor = FOLIO_PLUGIN_ABI_MINOR,
            .struct_size = sizeof(folio_plugin_descriptor), .id = "\(id)", .name = "Test", .version = "1.0.0",
            .editors = 0, .editor_count = 0,
        };
        const folio_plugin_descriptor *\(entry)(void) { \(entryBody ?? "return &descriptor;") }
        """
    }

    static func manifest(id: String, library: String, abi: Int = 1) -> PluginManifest {
        PluginManifest(id: id, name: "Test", version: "1.0.0", abi: abi, library: library, editors: [])
    }

    /// Compiles a plugin with a manifest into `folder`.
    @discardableResult
    private func makePlugin(_ source: String, id: String, library: String, in folder: URL, manifestABI: Int = 1) throws -> URL {
        let url = try PluginFixtures.compilePlugin(source, named: library, in: folder)
        try PluginFixtures.writeManifest(Self.manifest(id: id, library: library, abi: manifestABI), beside: url)
        return url
    }

    private func host(_ folders: URL...) -> EditorRegistry {
        EditorRegistry(searchPath: PluginSearchPath(folders: folders.map { .init($0, bundled: false) }))
    }

    func testGivenAWellFormedPluginWhenDiscoveredAndLoadedThenItIsAccepted() throws {
        let folder = try PluginFixtures.temporaryFolder(self)
        let library = try makePlugin(Self.pluginSource(id: "test.good"), id: "test.good", library: "libgood.so", in: folder)
        let host = host(folder)
        XCTAssertEqual(host.refusals, [])
        XCTAssertEqual(host.plugins.map(\.manifest.id), ["test.good"])
        XCTAssertEqual(PluginFixtures.check(library).id, "test.good")
    }

    func testGivenAPluginBuiltForAnotherABIMajorWhenLoadedThenItIsRefusedNamingBothVersions() throws {
        let folder = try PluginFixtures.temporaryFolder(self)
        let library = try makePlugin(Self.pluginSource(id: "test.abi", major: "2"), id: "test.abi", library: "libabi.so", in: folder)
        let host = host(folder)
        XCTAssertEqual(host.plugins.map(\.manifest.id), ["test.abi"], "its manifest says ABI 1: only loading finds out")
        XCTAssertEqual(PluginFixtures.check(library).refusal, "\(library.path): plugin refused: built for plugin ABI 2.2, this Folio supports plugin ABI 1.2")
    }

    func testGivenAPluginFromANewerMinorWithALargerDescriptorWhenLoadedThenItIsAccepted() throws {
        let folder = try PluginFixtures.temporaryFolder(self)
        let source = """
        #include "folio_plugin.h"
        struct newer { folio_plugin_descriptor v1; void *added_in_1_5; };
        static const struct newer descriptor = {
            { .magic = FOLIO_PLUGIN_MAGIC, .abi_major = FOLIO_PLUGIN_ABI_MAJOR, .abi_minor = 5,
              .struct_size = sizeof(struct newer), .id = "test.newer", .name = "Test", .version = "1.0.0" }, 0 };
        const folio_plugin_descriptor *folio_plugin_entry(void) { return &descriptor.v1; }
        """
        let library = try makePlugin(source, id: "test.newer", library: "libnewer.so", in: folder)
        let report = PluginFixtures.check(library)
        XCTAssertTrue(report.ok, report.refusal ?? "")
        XCTAssertEqual(report.abi, "1.5")
    }

    func testGivenADescriptorSmallerThanABI1WhenLoadedThenItIsRefused() throws {
        let folder = try PluginFixtures.temporaryFolder(self)
        let source = Self.pluginSource(id: "test.small").replacingOccurrences(of: "sizeof(folio_plugin_descriptor)", with: "16")
        let library = try makePlugin(source, id: "test.small", library: "libsmall.so", in: folder)
        XCTAssertEqual(PluginFixtures.check(library).refusal, "\(library.path): plugin refused: the descriptor is 16 bytes, ABI 1.2 needs at least 64")
    }

    func testGivenAManifestForAnotherABIMajorWhenDiscoveredThenItIsRefusedWithoutLoading() throws {
        let folder = try PluginFixtures.temporaryFolder(self)
        let library = try makePlugin(Self.pluginSource(id: "test.abi2"), id: "test.abi2", library: "libabi2.so", in: folder, manifestABI: 3)
        let host = host(folder)
        XCTAssertEqual(host.plugins, [])
        XCTAssertEqual(host.refusals.map(\.description), ["\(library.path): plugin refused: built for plugin ABI 3, this Folio supports plugin ABI 1.2"])
    }

    func testGivenALibraryWithoutTheEntrySymbolWhenLoadedThenItIsRefused() throws {
        let folder = try PluginFixtures.temporaryFolder(self)
        let library = try makePlugin(Self.pluginSource(id: "test.noentry", entry: "something_else"), id: "test.noentry", library: "libnoentry.so", in: folder)
        XCTAssertEqual(PluginFixtures.check(library).refusal, "\(library.path): plugin refused: missing entry symbol 'folio_plugin_entry'")
    }

    func testGivenAFileThatIsNotAnELFObjectWhenDiscoveredThenItIsRefusedBeforeLoading() throws {
        let folder = try PluginFixtures.temporaryFolder(self)
        let library = folder.appendingPathComponent("libtext.so")
        try Data("#!/bin/sh\necho not a library\n".utf8).write(to: library)
        chmod(library.path, 0o755)
        try PluginFixtures.writeManifest(Self.manifest(id: "test.text", library: "libtext.so"), beside: library)
        let host = host(folder)
        XCTAssertEqual(host.refusals.map(\.description), ["\(library.path): plugin refused: not a shared object (no ELF header)"])
        XCTAssertEqual(PluginFixtures.check(library).refusal, "\(library.path): plugin refused: not a shared object (no ELF header)")
    }

    func testGivenTwoPluginsWithTheSameIdWhenDiscoveredThenTheSecondIsRefusedNamingBothFiles() throws {
        let first = try PluginFixtures.temporaryFolder(self), second = try PluginFixtures.temporaryFolder(self)
        let a = try makePlugin(Self.pluginSource(id: "test.same"), id: "test.same", library: "libsame.so", in: first)
        let b = try makePlugin(Self.pluginSource(id: "test.same"), id: "test.same", library: "libsame2.so", in: second)
        let host = host(first, second)
        XCTAssertEqual(host.plugins.map(\.library), [a])
        XCTAssertEqual(host.refusals.map(\.description), ["\(b.path): plugin refused: duplicate plugin id 'test.same', already provided by \(a.path)"])
    }

    func testGivenAWorldWritablePluginFileWhenDiscoveredThenItIsRefused() throws {
        let folder = try PluginFixtures.temporaryFolder(self)
        let library = try makePlugin(Self.pluginSource(id: "test.writable"), id: "test.writable", library: "libwritable.so", in: folder)
        chmod(library.path, 0o757)
        let host = host(folder)
        XCTAssertEqual(host.plugins, [])
        XCTAssertEqual(host.refusals.map(\.description), ["\(library.path): plugin refused: the file \(library.path) is writable by others (mode 757)"])
    }

    func testGivenAGroupWritablePluginFolderWhenDiscoveredThenItIsRefused() throws {
        let folder = try PluginFixtures.temporaryFolder(self)
        let library = try makePlugin(Self.pluginSource(id: "test.folder"), id: "test.folder", library: "libfolder.so", in: folder)
        chmod(folder.path, 0o775)
        XCTAssertEqual(host(folder).refusals.map(\.description), ["\(library.path): plugin refused: the folder \(folder.path) is writable by group (mode 775)"])
    }

    func testGivenALibraryWhoseManifestDisagreesWhenLoadedThenItIsRefusedNamingTheManifest() throws {
        let folder = try PluginFixtures.temporaryFolder(self)
        let library = try PluginFixtures.compilePlugin(Self.pluginSource(id: "test.real"), named: "libliar.so", in: folder)
        try PluginFixtures.writeManifest(Self.manifest(id: "test.claimed", library: "libliar.so"), beside: library)
        let refusal = PluginFixtures.check(library).refusal ?? "accepted"
        XCTAssertTrue(refusal.hasPrefix("\(library.path): plugin refused: the library's id is 'test.real' but its manifest says 'test.claimed'"), refusal)
    }

    func testGivenAPluginThatCrashesWhileLoadingWhenCheckedThenTheChildDiesAndTheCallerReportsIt() throws {
        let folio = PluginFixtures.folioExecutable
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: folio.path), "needs the folio executable (swift build)")
        let folder = try PluginFixtures.temporaryFolder(self)
        let library = try makePlugin(Self.pluginSource(id: "test.crash", entryBody: "volatile int *p = 0; *p = 1; return 0;"),
                                     id: "test.crash", library: "libcrash.so", in: folder)
        let report = PluginFixtures.check(library)
        XCTAssertFalse(report.ok)
        XCTAssertEqual(report.refusal, "\(library.path): plugin refused: loading it crashed the process (signal 11, SIGSEGV)")
    }

    func testGivenAPluginWhenCheckedThenItIsLoadedInAPluginHostNotInFolio() throws {
        // Given a plugin whose loading prints the name of the program it was loaded into
        let folder = try PluginFixtures.temporaryFolder(self)
        let source = Self.pluginSource(id: "test.where") + """

            #include <stdio.h>
            #include <unistd.h>
            __attribute__((constructor)) static void where(void) {
                char path[4096]; ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
                if (n > 0) { path[n] = 0; const char *slash = strrchr(path, '/'); printf("%s", slash ? slash + 1 : path); }
            }
            """
        let library = try makePlugin("#include <string.h>\n" + source, id: "test.where", library: "libwhere.so", in: folder)
        // When it is checked
        let report = PluginFixtures.check(library)
        // Then it passed, and it was loaded by the plugin host, not by a folio process
        XCTAssertTrue(report.ok, report.refusal ?? "")
        XCTAssertEqual(report.printed, "folio-plugin-host")
    }

    func testGivenAPluginCallingAMissingFunctionWhenCheckedThenItIsRefusedNamingTheSymbol() throws {
        // Given a plugin whose entry function calls a function no library defines
        let folder = try PluginFixtures.temporaryFolder(self)
        let source = Self.pluginSource(id: "test.unbound", entryBody: "folio_no_such_function(); return &descriptor;")
        let library = try makePlugin("void folio_no_such_function(void);\n" + source,
                                     id: "test.unbound", library: "libunbound.so", in: folder)
        // When it is checked (the host binds every symbol at load for a check, though it binds lazily to run plugins)
        let report = PluginFixtures.check(library)
        // Then it is refused before any of its code runs, naming the missing symbol
        XCTAssertFalse(report.ok)
        let refusal = try XCTUnwrap(report.refusal)
        XCTAssertTrue(refusal.hasPrefix("\(library.path): plugin refused: cannot load: "), refusal)
        XCTAssertTrue(refusal.contains("undefined symbol: folio_no_such_function"), refusal)
    }

    func testGivenABundledPluginWhenCheckedInAChildProcessThenItsEditorsAreReported() throws {
        let folio = PluginFixtures.folioExecutable
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: folio.path), "needs the folio executable (swift build)")
        let library = PluginFixtures.buildFolder.appendingPathComponent("libFolioShapes.so")
        let report = PluginFixtures.check(library)
        XCTAssertTrue(report.ok, report.refusal ?? "")
        XCTAssertEqual(report.id, "org.folio.plugins.shapes")
        XCTAssertEqual(report.editors.map(\.id), ["shapes"])
        XCTAssertEqual(report.editors.first?.commands.map(\.id), ["add", "move", "resize", "delete", "color"])
    }
}

/// `folio plugins check` from the command line (it spawns the built `folio` for the child).
final class PluginCheckCommandTests: XCTestCase {
    func testGivenACrashingPluginWhenCheckedFromTheCommandLineThenOneLineIsPrintedAndTheCLISurvives() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: PluginFixtures.folioExecutable.path), "needs the folio executable")
        let folder = try PluginFixtures.temporaryFolder(self)
        let library = try PluginFixtures.compilePlugin(PluginRefusalTests.pluginSource(id: "test.crash2", entryBody: "__builtin_trap();"),
                                                       named: "libcrash2.so", in: folder)
        let temp = TemporaryDirectory("folio-check")
        let result = runFolio(["plugins", "check", library.path], environment: temp.environment(), cwd: temp.url)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "\(library.path): plugin refused: loading it crashed the process (signal 4, SIGILL)\n")
        let notELF = runFolio(["plugins", "check", "/etc/hostname"], environment: temp.environment(), cwd: temp.url)
        XCTAssertEqual(notELF.status, 1)
        XCTAssertEqual(notELF.stderr, "/etc/hostname: plugin refused: not a shared object (no ELF header)\n")
        let good = runFolio(["plugins", "check", PluginFixtures.buildFolder.appendingPathComponent("libFolioChecklist.so").path],
                            environment: temp.environment(), cwd: temp.url)
        XCTAssertEqual(good.status, 0, good.stderr)
        XCTAssertTrue(good.stdout.contains("editor checklist for org.folio.checklist (default): add, rename, toggle, delete, move, check-all, uncheck-all"), good.stdout)
    }
}
