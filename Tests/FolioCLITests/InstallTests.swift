import Foundation
import XCTest
import FolioCLITestSupport

/// `scripts/install` lays Folio out under a prefix, and the installed `folio` works from there alone: with the source
/// tree and the Swift toolchain hidden (a private mount namespace with empty tmpfs over both) and the prefix moved.
final class InstallTests: XCTestCase {
    var temp: TemporaryDirectory!

    override func setUpWithError() throws {
        temp = TemporaryDirectory("folio-install")
        guard (try? runProgram("patchelf", ["--version"]))?.status == 0 else {
            throw XCTSkip("patchelf is not installed (scripts/setup installs it): install tests skipped")
        }
    }

    override func tearDown() { temp = nil }

    /// Runs scripts/install on the products this test run built (no release build in a unit test).
    @discardableResult
    func install(prefix: String, destdir: String? = nil) throws -> RunResult {
        var environment = ProcessInfo.processInfo.environment
        environment["DESTDIR"] = destdir
        let result = try runProgram(repositoryRoot.appendingPathComponent("scripts/install").path,
                                    ["--prefix", prefix, "--products", productsDirectory.path], cwd: temp.url, environment: environment)
        XCTAssertEqual(result.status, 0, "scripts/install failed: \(result.stderr)")
        return result
    }

    func testGivenAPrefixWhenInstalledThenEveryPieceIsInItsStandardPlace() throws {
        let prefix = temp.path("prefix")
        try install(prefix: prefix.path)
        for file in ["bin/folio", "libexec/folio/folio-plugin-host", "lib/folio/plugins/libFolioChecklist.so",
                     "lib/folio/plugins/libFolioChecklist.folio-plugin.json", "lib/folio/plugins/libFolioShapes.so",
                     "lib/folio/swift/libswiftCore.so", "lib/folio/swift/libswiftSwiftOnoneSupport.so", "share/folio/templates/catalog.json",
                     "include/folio/folio_plugin.h", "include/folio/folio_text.h", "share/folio/sdk/swift/Package.swift",
                     "share/folio/sdk/swift/Sources/FolioPluginKit/FolioEditor.swift", "share/folio/sdk/swift/Sources/FolioSwiftToolchain/SwiftToolchain.swift",
                     "lib/pkgconfig/folio-plugin.pc", "share/man/man1/folio.1", "share/doc/folio/PLUGINS.md", "share/bash-completion/completions/folio",
                     "share/zsh/site-functions/_folio", "share/fish/vendor_completions.d/folio.fish",
                     "lib/systemd/user/folio-sync.service"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "missing \(file)")
        }
        var environment = ProcessInfo.processInfo.environment
        environment["PKG_CONFIG_PATH"] = prefix.appendingPathComponent("lib/pkgconfig").path
        let cflags = try runProgram("pkg-config", ["--cflags", "folio-plugin"], environment: environment)
        XCTAssertEqual(cflags.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "-I\(prefix.path)/lib/pkgconfig/../../include/folio")
        let libs = try runProgram("pkg-config", ["--libs", "folio-plugin"], environment: environment)
        XCTAssertEqual(libs.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "-lutf8proc", "folio_text.h's widths come from utf8proc")
        let version = try runProgram("pkg-config", ["--modversion", "folio-plugin"], environment: environment)
        XCTAssertEqual(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "1.2", "the plugin ABI version")
        let compiled = try runProgram("cc", ["-fsyntax-only", "-I\(prefix.path)/include/folio", "-x", "c", "-"],
                                      stdin: Data("#include <folio_plugin.h>\nint main(void) { return FOLIO_PLUGIN_ABI_MAJOR - 1; }\n".utf8))
        XCTAssertEqual(compiled.status, 0, compiled.stderr)
        let man = try runProgram("groff", ["-man", "-Tutf8", "-ww", "-z", prefix.appendingPathComponent("share/man/man1/folio.1").path])
        XCTAssertEqual(man.status, 0)
        XCTAssertEqual(man.stderr, "", "the man page has roff warnings")
    }

    func testGivenDestdirWhenInstalledThenFilesLandBelowItAndNameThePrefix() throws {
        let stage = temp.path("stage")
        try install(prefix: "/opt/folio-test", destdir: stage.path)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: stage.path + "/opt/folio-test/bin/folio"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/opt/folio-test"), "nothing is written outside DESTDIR")
        let pc = try String(contentsOfFile: stage.path + "/opt/folio-test/lib/pkgconfig/folio-plugin.pc", encoding: .utf8)
        XCTAssertTrue(pc.contains("prefix=${pcfiledir}/../..\n"), pc)  // relocatable: found from the file's own place
        // The systemd user unit runs the installed folio's watch (the prefix, never the DESTDIR) and restarts it on failure
        let unit = try String(contentsOfFile: stage.path + "/opt/folio-test/lib/systemd/user/folio-sync.service", encoding: .utf8)
        XCTAssertTrue(unit.contains("\nExecStart=/opt/folio-test/bin/folio sync --watch\n"), unit)
        XCTAssertTrue(unit.contains("\nRestart=on-failure\n"), unit)
        XCTAssertFalse(unit.contains(stage.path), unit)
    }

    func testGivenAnInstallMovedElsewhereWhenTheSourceTreeAndToolchainAreHiddenThenTemplatesPluginsNewAndEditWork() throws {
        try install(prefix: temp.path("prefix").path)
        let moved = temp.path("moved")
        try FileManager.default.moveItem(at: temp.path("prefix"), to: moved)
        let runtime = try toolchainRuntime()
        let work = temp.path("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let script = """
        set -eu
        mount -t tmpfs -o size=1m tmpfs '\(repositoryRoot.path)'
        mount -t tmpfs -o size=1m tmpfs '\(runtime)'
        if [ -e '\(repositoryRoot.path)/Package.swift' ]; then echo "source tree still visible"; exit 97; fi
        if [ -e '\(runtime)/libswiftCore.so' ]; then echo "Swift runtime still visible"; exit 98; fi
        cd '\(work.path)'
        folio='\(moved.path)/bin/folio'
        echo '== templates'; "$folio" templates list
        echo '== plugins'; "$folio" plugins list
        echo '== new'; "$folio" new Groceries --template checklist/groceries --defaults
        echo '== edit'; "$folio" edit Groceries toggle 1
        echo '== view'; "$folio" view Groceries --width 40 --height 4
        echo '== cflags'; PKG_CONFIG_PATH='\(moved.path)/lib/pkgconfig' pkg-config --cflags folio-plugin
        echo '== plugin/c'; "$folio" new Lines --template plugin/c --set name=Lines --defaults >/dev/null
        PKG_CONFIG_PATH='\(moved.path)/lib/pkgconfig' make -s -C Lines
        """
        let result = try runInMountNamespace(script, cwd: work)
        XCTAssertEqual(result.status, 0, "stdout:\n\(result.stdout)\nstderr:\n\(result.stderr)")
        let sections = Self.sections(result.stdout)
        XCTAssertTrue(sections["templates"]?.contains("checklist/groceries") ?? false, result.stdout)
        XCTAssertTrue(sections["plugins"]?.contains("org.folio.plugins.checklist") ?? false, result.stdout)
        XCTAssertTrue(sections["plugins"]?.contains("\(moved.path)/lib/folio/plugins/libFolioChecklist.so") ?? false, result.stdout)
        XCTAssertTrue(sections["new"]?.contains("Created") ?? false, result.stdout)
        XCTAssertTrue(sections["edit"]?.contains("checked 'Milk'") ?? false, result.stdout)
        XCTAssertTrue(sections["view"]?.contains("[x] Milk") ?? false, result.stdout)
        // The moved tree's folio-plugin.pc points at the moved header, and the plugin/c template builds against it
        XCTAssertTrue(sections["cflags"]?.contains("-I\(moved.path)/lib/pkgconfig/../../include/folio") ?? false, result.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: work.appendingPathComponent("Lines/build/libLines.so").path), result.stdout + result.stderr)
        XCTAssertFalse(result.stderr.contains("refused"), result.stderr)
    }

    /// The toolchain's runtime folder, where the built plugin host finds it (and a plugin built here, by its RUNPATH):
    /// hidden in the tests, the installed Swift runtime must come from lib/folio/swift instead.
    func toolchainRuntime() throws -> String {
        let ldd = try runProgram("ldd", [productsDirectory.appendingPathComponent("folio-plugin-host").path]).stdout
        return try XCTUnwrap(ldd.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 3, fields[0].hasPrefix("libswiftCore.so") else { return nil }
            return URL(fileURLWithPath: String(fields[2])).resolvingSymlinksInPath().deletingLastPathComponent().path
        }.first, "the plugin host loads no libswiftCore.so:\n\(ldd)")
    }

    /// Runs `script` with `sh -c` in a private mount namespace (as root there when not root here); nil when this
    /// machine gives none (the caller skips).
    func runInMountNamespace(_ script: String, cwd: URL) throws -> RunResult {
        var arguments = ["--mount", "--propagation", "private"]
        if getuid() != 0 { arguments.insert("--map-root-user", at: 0) }
        let result = try runProgram("unshare", arguments + ["sh", "-c", script], cwd: cwd, environment: temp.environment())
        if result.status != 0 && result.stdout.isEmpty && result.stderr.contains("unshare") {
            throw XCTSkip("no private mount namespace here (\(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))): skipped")
        }
        return result
    }

    /// SLOW (about 40 s: `swift build` of FolioPluginKit and the project). A plugin/swift project made by the installed
    /// (and moved) folio, outside the source tree, builds against the installed SDK found from the folio on PATH; with
    /// the source tree and the toolchain's runtime hidden, its debug build validates, installs and edits a document on
    /// Folio's shipped runtime (its RUNPATH still names the toolchain: nothing is rewritten).
    func testGivenTheInstalledSwiftSDKWhenAPluginSwiftProjectIsBuiltElsewhereThenItValidatesInstallsAndEditsWithTheToolchainHidden() throws {
        // Given an installed Folio, moved, on PATH
        try install(prefix: temp.path("prefix").path)
        let moved = temp.path("moved")
        try FileManager.default.moveItem(at: temp.path("prefix"), to: moved)
        let work = temp.path("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        var environment = temp.environment()
        environment["PATH"] = moved.appendingPathComponent("bin").path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let folio = moved.appendingPathComponent("bin/folio").path
        // When a plugin/swift project is made there and built with swift build (the toolchain visible for the build)
        let created = try runProgram(folio, ["new", "MyEditor", "--template", "plugin/swift", "--set", "name=Notes", "--defaults"],
                                     cwd: work, environment: environment)
        XCTAssertEqual(created.status, 0, created.stderr)
        let project = work.appendingPathComponent("MyEditor")
        let built = try runProgram("swift", ["build"], cwd: project, environment: environment)
        XCTAssertEqual(built.status, 0, built.stdout + built.stderr)
        XCTAssertFalse((built.stdout + built.stderr).contains("warning:"), "the SDK builds without warnings: \(built.stdout + built.stderr)")
        let manifest = try String(contentsOf: project.appendingPathComponent(".build/workspace-state.json"), encoding: .utf8)
        XCTAssertTrue(manifest.contains(moved.appendingPathComponent("share/folio/sdk/swift").path), "built against the installed SDK: \(manifest)")
        let library = project.appendingPathComponent(".build/debug/libNotes.so")
        chmod(library.deletingLastPathComponent().resolvingSymlinksInPath().path, 0o755)
        // Then with the source tree and the toolchain's runtime hidden, it validates, installs and edits a document
        let runtime = try toolchainRuntime()
        let result = try runInMountNamespace("""
        set -eu
        mount -t tmpfs -o size=1m tmpfs '\(repositoryRoot.path)'
        mount -t tmpfs -o size=1m tmpfs '\(runtime)'
        if [ -e '\(runtime)/libswiftCore.so' ]; then echo "Swift runtime still visible"; exit 98; fi
        cd '\(work.path)'
        folio='\(folio)'
        echo '== validate'; "$folio" plugins validate '\(library.path)' --call-deadline 30000 --render-deadline 30000 | tail -1
        echo '== install'; "$folio" plugins install '\(library.path)'
        echo '== new'; "$folio" new Jobs --type org.example.notes
        echo '== edit'; "$folio" edit Jobs add "Buy 宽 milk"
        echo '== view'; "$folio" view Jobs --width 30 --height 3
        """, cwd: work)
        XCTAssertEqual(result.status, 0, "stdout:\n\(result.stdout)\nstderr:\n\(result.stderr)")
        let sections = Self.sections(result.stdout)
        XCTAssertTrue(sections["validate"]?.contains(" 0 failed") ?? false, result.stdout)
        XCTAssertTrue(sections["install"]?.contains("Installed org.example.plugins.notes") ?? false, result.stdout)
        XCTAssertTrue(sections["edit"]?.contains("added 'Buy 宽 milk'") ?? false, result.stdout)
        XCTAssertEqual(sections["view"]?.trimmingCharacters(in: .newlines), "Notes (1 lines)\n  1 Buy 宽 milk", result.stdout)
        XCTAssertFalse(result.stderr.contains("refused"), result.stderr)
    }

    /// Output split at `== NAME` lines.
    static func sections(_ output: String) -> [String: String] {
        var result: [String: String] = [:]
        var current = ""
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("== ") { current = String(line.dropFirst(3)); continue }
            result[current, default: ""] += line + "\n"
        }
        return result
    }
}
