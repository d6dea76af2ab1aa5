import FolioCLITestSupport
import FolioPlugins
import FolioPluginRuntime
import FolioSwiftToolchain
import Foundation
import XCTest

/// A Swift plugin records the Swift toolchain it was built with (FolioSwiftToolchain's `folio_swift` ELF section,
/// linked through FolioPluginKit), and Folio refuses one from another toolchain before running any of its code.
final class SwiftToolchainTests: XCTestCase {
    /// The bundled Swift plugin this test run built.
    private var checklist: URL { productsDirectory.appendingPathComponent("libFolioChecklist.so") }

    /// "6.3.1" from `swift --version`'s "Swift version 6.3.1 (…)".
    private func toolchainVersion() throws -> String {
        let output = try runProgram("swift", ["--version"])
        let text = output.stdout + output.stderr
        let range = try XCTUnwrap(text.range(of: #"Swift version [0-9]+(\.[0-9]+)*"#, options: .regularExpression), text)
        var version = String(text[range].dropFirst("Swift version ".count))
        while version.split(separator: ".").count < 3 { version += ".0" }
        return version
    }

    /// A copy of the Checklist plugin in its own folder, its record's magic and version bytes replaced.
    private func checklistCopy(in temp: TemporaryDirectory, record: [UInt8]? = nil, magic: [UInt8] = [70, 83, 86, 1]) throws -> URL {
        let folder = temp.path("plugin")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var bytes = [UInt8](try Data(contentsOf: checklist))
        let current = try XCTUnwrap(PluginELF.read(checklist.path)?.swiftRecord, "the built plugin has no record")
        let starts = (0...(bytes.count - 8)).filter { bytes[$0..<($0 + 8)].elementsEqual(current.prefix(8)) }
        XCTAssertEqual(starts.count, 1, "the record appears once in the file")
        for start in starts { bytes.replaceSubrange(start..<(start + 8), with: magic + (record ?? Array(current[4..<8]))) }
        let copy = folder.appendingPathComponent("libFolioChecklist.so")
        try Data(bytes).write(to: copy)
        chmod(copy.path, 0o755)
        return copy
    }

    func testGivenTheToolchainRunningTheTestsWhenABuiltPluginsRecordIsReadThenItNamesTheVersionSwiftPrints() throws {
        // Given the toolchain's own version; When the record compiled into this process and into a built plugin is read
        let expected = try toolchainVersion()
        let elf = try XCTUnwrap(PluginELF.read(checklist.path))
        // Then both name it (the ladder in SwiftToolchain+Record.swift covers this compiler)
        XCTAssertEqual(SwiftToolchain.version, expected)
        XCTAssertEqual(elf.swiftRecord.flatMap(SwiftToolchain.version(record:)), expected)
        XCTAssertTrue(elf.hasSwiftCode)
        XCTAssertTrue(elf.needed.contains("libswiftCore.so"), "\(elf.needed)")
        // And `plugins check` names it
        let temp = TemporaryDirectory("folio-toolchain-check")
        let checked = runFolio(["plugins", "check", checklist.path], environment: temp.environment(), cwd: temp.url)
        XCTAssertTrue(checked.stdout.contains(", Swift \(expected)\n"), checked.stdout)
        // And the manifest generated for it records it, while a C plugin's records none
        let manifest = try PluginManifest.generate(forLibrary: checklist, isolation: .standard(environment: temp.environment()))
        XCTAssertEqual(manifest.swift, expected)
        let written = String(decoding: try manifest.encodedForFile(), as: UTF8.self)
        XCTAssertTrue(written.contains("\"swift\" : \"\(expected)\""), written)
        let shapes = try PluginManifest.generate(forLibrary: productsDirectory.appendingPathComponent("libFolioShapes.so"),
                                                 isolation: .standard(environment: temp.environment()))
        XCTAssertNil(shapes.swift)
    }

    func testGivenASwiftPluginFromAnotherToolchainWhenInstalledThenItIsRefusedInOneLineNamingBothVersions() throws {
        // Given the Checklist plugin claiming Swift 6.2.0
        let temp = TemporaryDirectory("folio-toolchain")
        let copy = try checklistCopy(in: temp, record: [6, 2, 0, 0])
        let folio = try XCTUnwrap(SwiftToolchain.version)
        // When it is installed
        let result = runFolio(["plugins", "install", copy.path], environment: temp.environment(), cwd: temp.url)
        // Then it is refused with one line naming the file and both versions, and nothing is installed
        XCTAssertNotEqual(result.status, 0)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains(copy.path), result.stderr)
        XCTAssertTrue(result.stderr.contains("built with Swift 6.2.0, but this Folio was built with Swift \(folio)"), result.stderr)
        let listed = runFolio(["plugins", "list"], environment: temp.environment(), cwd: temp.url)
        XCTAssertFalse(listed.stdout.contains(temp.url.path), listed.stdout)
    }

    func testGivenASwiftPluginWithoutAToolchainRecordWhenCheckedThenItIsRefusedNamingFoliosVersion() throws {
        // Given the Checklist plugin with its record's magic spoiled (as if built without FolioPluginKit's record)
        let temp = TemporaryDirectory("folio-toolchain-none")
        let copy = try checklistCopy(in: temp, magic: [0x58, 0x58, 0x58, 1])
        // When it is checked
        let result = runFolio(["plugins", "check", copy.path], environment: temp.environment(), cwd: temp.url)
        // Then it is refused: Folio cannot tell which toolchain built it
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue((result.stdout + result.stderr).contains("a Swift plugin without a Swift toolchain record"), result.stdout + result.stderr)
    }

    func testGivenASwiftPluginNeedingARuntimeLibraryFolioDoesNotShipWhenLoadedInAPluginHostThenTheRefusalNamesIt() throws {
        // Given the Checklist plugin naming a Swift library its runtime folder does not have (libswiftSynchronization.so
        // renamed: the plugin needs it for FolioPluginKit's Mutex; it names no Foundation or Dispatch library any more)
        let temp = TemporaryDirectory("folio-toolchain-needed")
        let copy = try checklistCopy(in: temp)
        var bytes = [UInt8](try Data(contentsOf: copy))
        let name = Array("libswiftSynchronization.so\0".utf8), renamed = Array("libswiftSynchronizatioX.so\0".utf8)
        var patched = 0
        for start in 0...(bytes.count - name.count) where bytes[start..<(start + name.count)].elementsEqual(name) {
            bytes.replaceSubrange(start..<(start + name.count), with: renamed)
            patched += 1
        }
        XCTAssertGreaterThan(patched, 0)
        try Data(bytes).write(to: copy)
        XCTAssertTrue(PluginELF.read(copy.path)?.needed.contains("libswiftSynchronizatioX.so") ?? false)
        // When a plugin host loads it (generating its manifest)
        let result = runFolio(["plugins", "manifest", copy.path], environment: temp.environment(), cwd: temp.url)
        // Then it is refused in one line naming the library and the runtime folder it is missing from
        XCTAssertNotEqual(result.status, 0)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("it needs libswiftSynchronizatioX.so, which Folio's Swift runtime ("), result.stderr)
    }
    func testGivenASwiftPluginThatImportsFoundationWhenLoadedInAPluginHostThenTheRefusalSaysSo() throws {
        // Given the Checklist plugin naming libFoundationEssentials.so, as one that imports Foundation does (the name
        // put in place of libswiftSynchronization.so, which has the same length)
        let temp = TemporaryDirectory("folio-toolchain-foundation")
        let copy = try checklistCopy(in: temp)
        var bytes = [UInt8](try Data(contentsOf: copy))
        let name = Array("libswiftSynchronization.so\0".utf8), renamed = Array("libFoundationEssentials.so\0".utf8)
        for start in 0...(bytes.count - name.count) where bytes[start..<(start + name.count)].elementsEqual(name) {
            bytes.replaceSubrange(start..<(start + name.count), with: renamed)
        }
        try Data(bytes).write(to: copy)
        XCTAssertTrue(PluginELF.read(copy.path)?.needed.contains("libFoundationEssentials.so") ?? false)
        // When it is checked
        let result = runFolio(["plugins", "check", copy.path], environment: temp.environment(), cwd: temp.url)
        // Then the one line says it imports Foundation, which plugins cannot use
        XCTAssertNotEqual(result.status, 0)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("it imports Foundation (it needs libFoundationEssentials.so), which Folio's Swift runtime does not include"), result.stderr)
    }
}
