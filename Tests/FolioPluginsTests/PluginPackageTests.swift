import FolioCore
@testable import FolioPlugins
import FolioCLITestSupport
import FolioTemplates
import Foundation
import XCTest

/// Plugin packages (`plugins pack`, `install`, `info`, `remove`), hostile packages, and the development loop
/// (`plugins link`/`unlink`, duplicate ids and disabled editors reported where the plugin is used), with the "lines"
/// C plugin compiled by `cc`.
final class PluginPackageTests: XCTestCase {
    private var temp: TemporaryDirectory!
    private var env: [String: String] = [:]
    private var installed: URL { temp.path("home/.local/share/folio/plugins") }
    private var installer: PluginInstaller { PluginInstaller(folder: installed) }

    override func setUpWithError() throws {
        temp = TemporaryDirectory("folio-package")
        env = temp.environment()
    }

    override func tearDown() { temp = nil }

    private func folio(_ arguments: String...) -> RunResult { runFolio(arguments, environment: env, cwd: temp.url) }

    private func check(_ library: URL) -> PluginProbeReport {
        PluginFixtures.check(library, environment: env)
    }

    /// The "lines" plugin built into `folder/build/libLines.so`, reporting `version`.
    @discardableResult
    private func buildLines(in folder: String, version: String = "1.0.0") throws -> URL {
        let build = temp.path(folder + "/build")
        try FileManager.default.createDirectory(at: build, withIntermediateDirectories: true)
        for url in [temp.path(folder), build] { chmod(url.path, 0o755) }
        let source = LinesPlugin.source().replacingOccurrences(of: ".version = \"1.0.0\"", with: ".version = \"\(version)\"")
        return try PluginFixtures.compilePlugin(source, named: "libLines.so", in: build)
    }

    /// A plugin project: the built library, a starter template, a sample, a README and a licence.
    private func makeProject(_ folder: String = "project") throws -> URL {
        try buildLines(in: folder)
        let project = temp.path(folder)
        let files: [String: String] = [
            "templates/lines/starter/template.json": """
                {"id": "lines/starter", "name": "Lines to start from", "summary": "Two lines.", "version": "1.0.0",
                 "minFolioVersion": "0.1.0", "contentType": "org.test.lines", "primaryFile": "lines.txt", "variables": []}
                """,
            "templates/lines/starter/files/lines.txt": "first\nsecond\n",
            "samples/welcome": "welcome\n",
            "README.md": "# Lines\n",
            "LICENSE": "Public domain\n",
        ]
        for (path, text) in files {
            let url = project.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return project
    }

    /// The visible and hidden names in the installed folder.
    private func installedNames() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: installed.path)) ?? []).sorted()
    }

    // MARK: A package, end to end

    func testGivenAPackedCPluginWithATemplateAndASampleWhenInstalledThenItsTemplateMakesADocumentItEditsAndRemoveTakesEverything() throws {
        // Given a built project packed with `plugins pack`
        _ = try makeProject()
        let packed = folio("plugins", "pack", "project", "-o", "lines.tar")
        XCTAssertEqual(packed.status, 0, packed.stderr)
        // When it is installed
        let install = folio("plugins", "install", "lines.tar")
        XCTAssertEqual(install.status, 0, install.stderr)
        // Then its folder holds everything the package brought, and info says so
        let folder = installed.appendingPathComponent("org.test.lines")
        for path in ["libLines.so", "libLines.folio-plugin.json", "folio-package.json", "README.md", "LICENSE",
                     "templates/lines/starter/template.json", "samples/welcome"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path), path)
        }
        let info = folio("plugins", "info", "org.test.lines")
        XCTAssertTrue(info.stdout.contains("templates: lines/starter (template source plugin:org.test.lines)"), info.stdout)
        XCTAssertTrue(info.stdout.contains("samples:  welcome"), info.stdout)
        XCTAssertTrue(info.stdout.contains("licence:  \(folder.appendingPathComponent("LICENSE").path)"), info.stdout)
        // Its template is listed with the plugin as its source, makes a document, and the plugin edits it
        let listed = folio("templates", "list")
        XCTAssertTrue(listed.stdout.contains("plugin:org.test.lines"), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("lines/starter"), listed.stdout)
        XCTAssertEqual(folio("new", "doc", "--template", "lines/starter", "--defaults").status, 0)
        let edited = folio("edit", "doc", "add", "third")
        XCTAssertEqual(edited.status, 0, edited.stderr)
        XCTAssertEqual(folio("show", "doc").stdout, "first\nsecond\nthird\n")
        // The sample is what `plugins validate` calls the commands on when no --document is given
        let validated = folio("plugins", "validate", folder.appendingPathComponent("libLines.so").path)
        XCTAssertTrue(validated.stdout.contains("calls/lines/sample-1-welcome"), validated.stdout)
        // The sample is offered by `folio new --type` and starts a document
        XCTAssertTrue(folio("new", "blank", "--type", "org.test.lines").stderr.contains("samples for org.test.lines: welcome"))
        XCTAssertEqual(folio("new", "fromsample", "--type", "org.test.lines", "--sample", "welcome").status, 0)
        XCTAssertEqual(folio("show", "fromsample").stdout, "welcome\n")
        // When removed, everything it brought is gone: its folder, its lock entry and its template source
        let removed = folio("plugins", "remove", "org.test.lines")
        XCTAssertEqual(removed.stdout, "Removed org.test.lines 1.0.0 and what it brought: 1 library, 1 template, 1 sample, README, licence\n", removed.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path))
        XCTAssertEqual(installedNames(), [".install.lock", "plugins.lock.json"])
        XCTAssertFalse(folio("templates", "list").stdout.contains("lines/starter"))
        XCTAssertEqual(try installer.lock().plugins, [])
    }

    func testGivenAProjectFromThePluginCTemplateWhenBuiltPackedAndInstalledThenItsStarterTemplateIsOfferedAndMakesADocument() throws {
        // Given a project made from plugin/c and built with its Makefile
        env["PKG_CONFIG_PATH"] = try PluginSDK.buildTreePkgConfig(in: temp.url).path
        XCTAssertEqual(folio("new", "MyEditor", "--template", "plugin/c", "--set", "name=Notes", "--defaults").status, 0)
        try PluginSDK.shell("make", in: temp.path("MyEditor"), environment: env)
        // When it is packed with no further work, and the package installed
        let packed = folio("plugins", "pack", "MyEditor")
        XCTAssertEqual(packed.status, 0, packed.stderr)
        let package = temp.path("org.example.plugins.notes-0.1.0.folio-package.tar")
        XCTAssertEqual(packed.stdout.split(separator: "\n").first.map(String.init), "Packed org.example.plugins.notes 0.1.0: \(package.path)")
        let install = folio("plugins", "install", package.path)
        XCTAssertEqual(install.status, 0, install.stderr)
        // Then its starter template is listed under the plugin, makes a document the plugin edits, and its sample is there
        let listed = folio("templates", "list")
        XCTAssertTrue(listed.stdout.contains("plugin:org.example.plugins.notes"), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("notes/starter"), listed.stdout)
        XCTAssertEqual(folio("new", "doc", "--template", "notes/starter", "--defaults").status, 0)
        XCTAssertEqual(folio("edit", "doc", "add", "Third line").status, 0)
        XCTAssertEqual(folio("show", "doc").stdout, "First line\nSecond line\nThird line\n")
        XCTAssertEqual(folio("new", "welcome", "--type", "org.example.notes", "--sample", "welcome").status, 0)
        XCTAssertTrue(folio("show", "welcome").stdout.hasPrefix("Welcome to Notes\n"))
    }

    /// SLOW (about half a minute): builds FolioPluginKit and the project with `swift build`.
    func testGivenAProjectFromThePluginSwiftTemplateWhenBuiltPackedAndInstalledThenItsStarterTemplateIsOffered() throws {
        // Given a project made from plugin/swift and built with `swift build` (its debug library in .build/debug)
        env["FOLIO_SDK"] = PluginFixtures.root.path  // a checkout of Folio instead of an installed SDK (InstallTests builds against that)
        XCTAssertEqual(folio("new", "MyEditor", "--template", "plugin/swift", "--set", "name=Notes", "--defaults").status, 0)
        try PluginSDK.shell("swift build", in: temp.path("MyEditor"), environment: env)
        PluginSDK.tighten(temp.path("MyEditor/.build/debug").resolvingSymlinksInPath())
        // When it is packed with no further work (the library found in .build/debug), and installed
        let packed = folio("plugins", "pack", "MyEditor", "-o", "notes.tar")
        XCTAssertEqual(packed.status, 0, packed.stderr)
        let install = folio("plugins", "install", "notes.tar")
        XCTAssertEqual(install.status, 0, install.stderr)
        // Then its starter template is offered under the plugin and makes a document the plugin edits
        let listed = folio("templates", "list")
        XCTAssertTrue(listed.stdout.contains("plugin:org.example.plugins.notes"), listed.stdout)
        XCTAssertEqual(folio("new", "doc", "--template", "notes/starter", "--defaults").status, 0)
        XCTAssertEqual(folio("edit", "doc", "add", "Third line").status, 0)
        XCTAssertEqual(folio("show", "doc").stdout, "First line\nSecond line\nThird line\n")
    }

    func testGivenAnInstallOrUpgradeKilledBeforeItsLockEntryWhenTemplatesAreListedThenThePackagesTemplatesAreNotOffered() throws {
        // Given a package installed and recorded, whose templates are offered
        _ = try makeProject()
        XCTAssertEqual(folio("plugins", "pack", "project", "-o", "lines.tar").status, 0)
        XCTAssertEqual(folio("plugins", "install", "lines.tar").status, 0)
        XCTAssertEqual(TemplateSource.pluginSources(environment: env).map(\.name), ["plugin:org.test.lines"])
        // An upgrade killed after its swap, before its lock write: the lock records another version than the folder's
        var lock = try installer.lock()
        lock.plugins[0].version = "0.9.0"
        try lock.write(in: installed)
        XCTAssertEqual(TemplateSource.pluginSources(environment: env), [])
        // An install killed after its rename, before its lock write: the folder is not recorded at all
        try PluginLock().write(in: installed)
        // When the template sources are listed
        let sources = TemplateSource.pluginSources(environment: env)
        // Then the half-installed package offers nothing
        XCTAssertEqual(sources, [])
    }

    // MARK: Hostile packages

    /// One raw ustar header (written here, independently of the code under test).
    private func header(_ name: [UInt8], size: Int, type: UInt8 = UInt8(ascii: "0")) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 512)
        for (i, b) in name.prefix(100).enumerated() { block[i] = b }
        func octal(_ value: Int, _ offset: Int, _ width: Int) {
            let digits = Array(String(value, radix: 8).utf8)
            let padded = [UInt8](repeating: UInt8(ascii: "0"), count: width - 1 - digits.count) + digits
            for (i, b) in padded.enumerated() { block[offset + i] = b }
        }
        octal(0o644, 100, 8); octal(0, 108, 8); octal(0, 116, 8); octal(size, 124, 12); octal(0, 136, 12)
        block[156] = type
        for (i, b) in Array("ustar\u{0}00".utf8).enumerated() { block[257 + i] = b }
        for i in 148..<156 { block[i] = 32 }
        let sum = block.reduce(0) { $0 + Int($1) }
        let digits = Array(String(sum, radix: 8).utf8)
        for (i, b) in ([UInt8](repeating: UInt8(ascii: "0"), count: 6 - digits.count) + digits + [0, 32]).enumerated() { block[148 + i] = b }
        return block
    }

    private func entry(_ name: String, _ data: [UInt8], type: UInt8 = UInt8(ascii: "0")) -> [UInt8] {
        entry(Array(name.utf8), data, type: type)
    }

    private func entry(_ name: [UInt8], _ data: [UInt8], type: UInt8 = UInt8(ascii: "0"), declaredSize: Int? = nil) -> [UInt8] {
        header(name, size: declaredSize ?? data.count, type: type) + data + [UInt8](repeating: 0, count: (512 - data.count % 512) % 512)
    }

    private let manifest = Array(#"{"format": 1, "id": "org.test.lines", "version": "1.0.0", "library": "libLines.so"}"#.utf8)
    private let end = [UInt8](repeating: 0, count: 1024)

    /// Installs `bytes` as `name`; returns the one-line error, after checking that nothing was installed.
    private func refusal(_ name: String, _ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let package = temp.path(name)
        try Data(bytes).write(to: package)
        do {
            try installer.install(from: package, check: check)
            XCTFail("\(name) was installed", file: file, line: line)
            return ""
        } catch {
            let text = "\(error)"
            XCTAssertFalse(text.contains("\n"), text, file: file, line: line)
            XCTAssertTrue(text.hasPrefix("\(package.path): plugin package refused: "), text, file: file, line: line)
            XCTAssertEqual(installedNames().filter { !$0.hasPrefix(".install.lock") && $0 != PluginLock.fileName }, [],
                           "nothing installed, no staging left", file: file, line: line)
            XCTAssertEqual(try installer.lock().plugins, [], file: file, line: line)
            return text
        }
    }

    func testGivenHostilePackagesWhenInstalledThenEachIsRefusedInOneLineNamingThePackageAndTheProblemAndNothingIsInstalled() throws {
        let library = Array(try Data(contentsOf: try buildLines(in: "lib")))
        let good = entry("folio-package.json", manifest) + entry("libLines.so", library)
        // A path out of the package
        XCTAssertTrue(try refusal("dotdot.tar", good + entry("samples/../../escape", Array("x".utf8)) + end).contains("'samples/../../escape' has a '..' component"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: installed.deletingLastPathComponent().appendingPathComponent("escape").path))
        // An absolute path
        XCTAssertTrue(try refusal("absolute.tar", good + entry("/tmp/escape-\(UUID().uuidString)", Array("x".utf8)) + end).contains("is an absolute path"))
        // A symbolic link (name field only; the target would be in the link field)
        XCTAssertTrue(try refusal("symlink.tar", good + entry("samples/link", [], type: UInt8(ascii: "2")) + end).contains("'samples/link' is a symbolic link"))
        // A device
        XCTAssertTrue(try refusal("device.tar", good + entry("samples/dev", [], type: UInt8(ascii: "3")) + end).contains("is a device"))
        // An entry whose header claims 4 GiB
        XCTAssertTrue(try refusal("oversized.tar", good + entry(Array("samples/huge".utf8), [], declaredSize: 1 << 32) + end).contains("'samples/huge' is 4294967296 bytes, over the limit"))
        // Cut in the middle of the library
        XCTAssertTrue(try refusal("truncated.tar", Array((entry("folio-package.json", manifest) + entry("libLines.so", library)).prefix(4000))).contains("truncated"))
        // A manifest that is not JSON, and one with an unknown key
        XCTAssertTrue(try refusal("garbage.tar", entry("folio-package.json", Array("{not json".utf8)) + entry("libLines.so", library) + end).contains("folio-package.json: "))
        let extra = Array(#"{"format": 1, "id": "org.test.lines", "version": "1.0.0", "library": "libLines.so", "run": "sh"}"#.utf8)
        XCTAssertTrue(try refusal("unknownkey.tar", entry("folio-package.json", extra) + entry("libLines.so", library) + end).contains("unknown key 'run'"))
        // A name that is not UTF-8
        XCTAssertTrue(try refusal("utf8.tar", good + entry([0x73, 0x61, 0x6D, 0x70, 0x6C, 0x65, 0x73, 0x2F, 0xFF, 0xFE], Array("x".utf8)) + end).contains("not valid UTF-8"))
        // A manifest whose id is not the library's
        let other = Array(#"{"format": 1, "id": "org.test.other", "version": "1.0.0", "library": "libLines.so"}"#.utf8)
        XCTAssertTrue(try refusal("otherid.tar", entry("folio-package.json", other) + entry("libLines.so", library) + end).contains("says id 'org.test.other', its library is 'org.test.lines'"))
        // A package claiming the name of Folio's own links file
        let own = Array(#"{"format": 1, "id": "plugins.links.json", "version": "1.0.0", "library": "libLines.so"}"#.utf8)
        XCTAssertTrue(try refusal("ownname.tar", entry("folio-package.json", own) + entry("libLines.so", library) + end)
            .contains("id 'plugins.links.json' is refused: names starting with 'plugins.' are Folio's own files"))
    }

    func testGivenAPackageFolderHoldingASymbolicLinkWhenInstalledThenItIsRefusedAndNothingIsInstalled() throws {
        // Given a package folder (the installed layout) with a link to a file outside it
        let folder = temp.path("pkg")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("samples"), withIntermediateDirectories: true)
        try Data(manifest).write(to: folder.appendingPathComponent("folio-package.json"))
        try FileManager.default.copyItem(at: try buildLines(in: "lib"), to: folder.appendingPathComponent("libLines.so"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("samples/passwd").path, withDestinationPath: "/etc/passwd")
        // When it is installed / Then it is refused naming the link
        XCTAssertThrowsError(try installer.install(from: folder, check: check)) { error in
            XCTAssertEqual("\(error)", "\(folder.path): plugin package refused: 'samples/passwd' is a symbolic link, not a file or folder")
        }
        XCTAssertEqual(try installer.lock().plugins, [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: installed.appendingPathComponent("org.test.lines").path))
    }

    // MARK: What pack reads, and what it says

    func testGivenFolioPackPathsLeavingTheProjectWhenPackedThenEachIsRefusedInOneLineAndNoPackageIsWritten() throws {
        // Given a project, and a secret folder beside it
        let project = try makeProject()
        let secret = temp.path("home/.ssh")
        try FileManager.default.createDirectory(at: secret, withIntermediateDirectories: true)
        try Data("PRIVATE KEY".utf8).write(to: secret.appendingPathComponent("id_rsa"))
        try FileManager.default.createSymbolicLink(atPath: project.path + "/keys", withDestinationPath: secret.path)
        let cases: [(String, String)] = [
            (#"{"samples": "../home/.ssh"}"#, "'samples' is '../home/.ssh', which leaves the project ('..')"),
            (#"{"samples": "\#(secret.path)"}"#, "'samples' is the absolute path"),
            (#"{"samples": "keys"}"#, "'samples' ('keys') leads out of the project through a link"),
            (#"{"readme": "../README.md"}"#, "'readme' is '../README.md', which leaves the project"),
            (#"{"library": "keys/../build/libLines.so"}"#, "which leaves the project"),
        ]
        for (description, problem) in cases {
            try Data(description.utf8).write(to: project.appendingPathComponent("folio-pack.json"))
            // When it is packed
            let packed = folio("plugins", "pack", "project", "-o", "out.tar")
            // Then one line names folio-pack.json and the problem, exit 1, and nothing was written
            XCTAssertEqual(packed.status, 1, "\(description): \(packed.stdout)")
            XCTAssertEqual(packed.stderr.split(separator: "\n").count, 1, packed.stderr)
            XCTAssertTrue(packed.stderr.contains("folio-pack.json") && packed.stderr.contains(problem), "\(description): \(packed.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("out.tar").path), description)
        }
        // And the samples folder itself as a link out is refused without any folio-pack.json
        try FileManager.default.removeItem(at: project.appendingPathComponent("folio-pack.json"))
        try FileManager.default.removeItem(at: project.appendingPathComponent("samples"))
        try FileManager.default.createSymbolicLink(atPath: project.path + "/samples", withDestinationPath: secret.path)
        let linked = folio("plugins", "pack", "project", "-o", "out.tar")
        XCTAssertEqual(linked.status, 1, linked.stdout)
        XCTAssertTrue(linked.stderr.contains("leads out of the project through a link"), linked.stderr)
    }

    func testGivenAProjectWhenPackedThenEveryPackedFileIsListedAndAMissingLicenceAndADebugBuildAreWarnedAbout() throws {
        // Given a project with a licence and a release-style build
        _ = try makeProject()
        let packed = folio("plugins", "pack", "project", "-o", "lines.tar")
        // Then every file in the package is listed, and there is nothing to warn about
        XCTAssertEqual(packed.status, 0, packed.stderr)
        let listed = packed.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }.map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(listed, ["folio-package.json", "libLines.so", "libLines.folio-plugin.json", "README.md", "LICENSE",
                                "templates/lines/starter/files/lines.txt", "templates/lines/starter/template.json", "samples/welcome"])
        XCTAssertEqual(packed.stderr, "")
        // Given the licence removed and the library moved to SwiftPM's debug folder
        let project = temp.path("project")
        try FileManager.default.removeItem(at: project.appendingPathComponent("LICENSE"))
        try FileManager.default.createDirectory(at: project.appendingPathComponent(".build/debug"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: project.appendingPathComponent("build/libLines.so"), to: project.appendingPathComponent(".build/debug/libLines.so"))
        // When packed, then it still packs, warning once for each
        let warned = folio("plugins", "pack", "project", "-o", "lines2.tar")
        XCTAssertEqual(warned.status, 0, warned.stderr)
        let warnings = warned.stderr.split(separator: "\n")
        XCTAssertEqual(warnings.count, 2, warned.stderr)
        XCTAssertTrue(warnings.contains { $0.contains("warning:") && $0.contains("is a debug build") }, warned.stderr)
        XCTAssertTrue(warnings.contains { $0.contains("warning:") && $0.contains("no licence") }, warned.stderr)
        XCTAssertFalse(warned.stdout.contains("LICENSE"), warned.stdout)
    }

    // MARK: The development loop

    func testGivenAnInstalledPluginWhenABuildOfTheSameIDIsLinkedThenTheLinkedBuildIsUsedUntilUnlinked() throws {
        // Given version 1 installed and version 2 built in a project
        try installer.install(from: try buildLines(in: "released"), check: check)
        let dev = try buildLines(in: "dev", version: "2.0.0")
        // When the project is linked
        let link = try installer.link(project: temp.path("dev"), check: check)
        XCTAssertEqual(link.id, "org.test.lines")
        // Then the linked build is used, the installed copy is shadowed (not refused), and a document of its type is told so
        var host = EditorRegistry(searchPath: .standard(environment: env, executableFolder: nil))
        XCTAssertEqual(host.plugins.map(\.manifest.version), ["2.0.0"])
        XCTAssertEqual(host.plugins.first?.library.path, dev.path)
        XCTAssertEqual(host.refusals, [])
        XCTAssertEqual(host.usageNotices(for: ContentType("org.test.lines")),
                       [.linked(id: "org.test.lines", library: dev, shadowed: installed.appendingPathComponent("org.test.lines/libLines.so"))])
        // and the command line shows the link and the shadowed copy
        let shadowed = installed.appendingPathComponent("org.test.lines/libLines.so").path
        XCTAssertTrue(folio("plugins", "list").stdout.contains("\(shadowed): shadowed by the linked build \(dev.path) (folio plugins unlink org.test.lines)"))
        // and so does its JSON listing
        struct Listing: Decodable { struct Shadowed: Decodable, Equatable { let id, library, linkedBuild: String }; let shadowed: [Shadowed] }
        let listed = try JSONDecoder().decode(Listing.self, from: Data(folio("plugins", "list", "--json").stdout.utf8))
        XCTAssertEqual(listed.shadowed, [Listing.Shadowed(id: "org.test.lines", library: shadowed, linkedBuild: dev.path)])
        XCTAssertTrue(folio("plugins", "info", "org.test.lines").stdout.contains("linked:   from \(temp.path("dev").path)"))
        // When unlinked, the installed copy is used again
        XCTAssertEqual(try installer.unlink(id: "org.test.lines")?.library, dev.path)
        host = EditorRegistry(searchPath: .standard(environment: env, executableFolder: nil))
        XCTAssertEqual(host.plugins.map(\.manifest.version), ["1.0.0"])
        XCTAssertEqual(host.usageNotices(for: ContentType("org.test.lines")), [])
    }

    func testGivenAnInstalledPluginAndACopyOnFolioPluginPathWhenADocumentIsEditedThenTheRefusedDuplicateIsReportedOnStderr() throws {
        // Given version 1 installed and version 2 on FOLIO_PLUGIN_PATH
        try installer.install(from: try buildLines(in: "released"), check: check)
        let dev = try buildLines(in: "dev", version: "2.0.0")
        XCTAssertEqual(folio("new", "doc", "--type", "org.test.lines").status, 0)
        env["FOLIO_PLUGIN_PATH"] = dev.deletingLastPathComponent().path
        // When a document of its type is edited and viewed
        let edited = folio("edit", "doc", "add", "one")
        let viewed = folio("view", "doc")
        // Then each says which copy was refused and which is used
        XCTAssertEqual(edited.status, 0, edited.stderr)
        let expected = "\(dev.path): plugin refused: duplicate plugin id 'org.test.lines', already provided by \(installed.path)/org.test.lines/libLines.so (which is used)"
        XCTAssertTrue(edited.stderr.contains("folio edit: " + expected), edited.stderr)
        XCTAssertTrue(viewed.stderr.contains("folio view: " + expected), viewed.stderr)
    }

    func testGivenTheOnlyPluginForATypeWhenDisabledThenDisableAndEveryViewSayTheTypeHasNoEditorAndHowToEnableIt() throws {
        // Given the only plugin that edits org.test.lines, and a document of that type
        try installer.install(from: try buildLines(in: "released"), check: check)
        XCTAssertEqual(folio("new", "doc", "--type", "org.test.lines").status, 0)
        // When it is disabled
        let disabled = folio("plugins", "disable", "org.test.lines")
        // Then disable says the type is left without an editor, and viewing a document says why, with the way back
        XCTAssertTrue(disabled.stdout.contains("org.test.lines documents now have no editor: they show as text until: folio plugins enable org.test.lines"), disabled.stdout)
        let viewed = folio("view", "doc")
        XCTAssertTrue(viewed.stderr.contains("folio view: no editor for org.test.lines: the plugin org.test.lines that edits it is disabled; not loaded; enable with: folio plugins enable org.test.lines"), viewed.stderr)
    }
}
