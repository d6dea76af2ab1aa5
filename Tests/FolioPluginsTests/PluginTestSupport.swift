import FolioCore
@testable import FolioPlugins
import FolioTestSupport
import Foundation
import XCTest

/// Paths and helpers shared by the plugin tests.
enum PluginFixtures {
    /// The package root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The ABI header the broken plugins are compiled against.
    static let headerFolder = root.appendingPathComponent("Sources/FolioPluginABI/include")
    /// The build products folder holding the bundled plugins (`.build/debug`).
    static var buildFolder: URL {
        let candidates = [root.appendingPathComponent(".build/debug"), root.appendingPathComponent(".build/x86_64-unknown-linux-gnu/debug"),
                          root.appendingPathComponent(".build/aarch64-unknown-linux-gnu/debug")]
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("libFolioChecklist.so").path) } ?? candidates[0]
    }
    /// The `folio` executable, when built.
    static var folioExecutable: URL { buildFolder.appendingPathComponent("folio") }

    /// `plugins check` of `library` in the plugin host built beside `folio`, started with `environment`.
    static func check(_ library: URL, environment: [String: String] = [:]) -> PluginProbeReport {
        EditorRegistry.check(library: library, isolation: PluginIsolation(executable: folioExecutable, environment: environment))
    }

    /// A host over the bundled plugins only.
    static func bundledHost() -> EditorRegistry {
        EditorRegistry(searchPath: PluginSearchPath(folders: [.init(buildFolder, bundled: true)]))
    }

    /// A fresh temporary folder (mode 0755), removed at the end of the test.
    static func temporaryFolder(_ test: XCTestCase) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("folio-plugins-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// Compiles C `source` into `folder/name` as a shared object against the plugin header.
    static func compilePlugin(_ source: String, named name: String, in folder: URL) throws -> URL {
        let sourceURL = folder.appendingPathComponent(name + ".c")
        try Data(source.utf8).write(to: sourceURL)
        let output = folder.appendingPathComponent(name)
        let result = try runProgram("cc", ["-shared", "-fPIC", "-I", headerFolder.path, "-o", output.path, sourceURL.path])
        guard result.status == 0 else { throw CompileFailure(name: name, stderr: result.stderr) }
        chmod(output.path, 0o755)
        return output
    }

    /// Writes a manifest beside a library.
    static func writeManifest(_ manifest: PluginManifest, beside library: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let url = library.deletingLastPathComponent().appendingPathComponent(library.deletingPathExtension().lastPathComponent + ".folio-plugin.json")
        try encoder.encode(manifest).write(to: url)
        chmod(url.path, 0o644)
    }
}

/// `cc` refused a test plugin's source.
struct CompileFailure: Error, CustomStringConvertible {
    let name: String
    let stderr: String
    var description: String { "cc failed for \(name): \(stderr)" }
}
