import FolioTestSupport
import Foundation
import XCTest

/// Building plugins the way a plugin author does, against this checkout: the build tree's pkg-config file, the
/// guide's code blocks, and a SwiftPM build of an out-of-tree package.
enum PluginSDK {
    /// The guide whose examples the tests build.
    static let guide = PluginFixtures.root.appendingPathComponent("docs/PLUGINS.md")

    /// The code blocks of a Markdown text that name a file (```LANG file=PATH), as (path, contents), in order.
    static func fileBlocks(in markdown: String) -> [(path: String, text: String)] {
        var blocks: [(path: String, text: String)] = []
        var current: (path: String, lines: [Substring])?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if var open = current {
                if line == "```" {
                    blocks.append((open.path, open.lines.joined(separator: "\n") + "\n"))
                    current = nil
                } else {
                    open.lines.append(line)
                    current = open
                }
            } else if line.hasPrefix("```"), let range = line.range(of: " file=") {
                current = (String(line[range.upperBound...]), [])
            }
        }
        return blocks
    }

    /// Writes the guide's example files whose path passes `include` into `folder`; returns their paths.
    @discardableResult
    static func writeGuideExamples(to folder: URL, where include: (String) -> Bool) throws -> [String] {
        let blocks = fileBlocks(in: try String(contentsOf: guide, encoding: .utf8)).filter { include($0.path) }
        for block in blocks {
            let url = folder.appendingPathComponent(block.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(block.text.utf8).write(to: url)
        }
        return blocks.map(\.path)
    }

    /// A folder holding `folio-plugin.pc` for this build tree (what `scripts/install` installs, pointing at the headers
    /// in `Sources/FolioPluginABI/include` and `Sources/FolioPluginText/include`): put it on `PKG_CONFIG_PATH`.
    static func buildTreePkgConfig(in folder: URL) throws -> URL {
        let pkgconfig = folder.appendingPathComponent("pkgconfig")
        try FileManager.default.createDirectory(at: pkgconfig, withIntermediateDirectories: true)
        try Data("""
        includedir=\(PluginFixtures.headerFolder.path)
        textdir=\(PluginFixtures.root.appendingPathComponent("Sources/FolioPluginText/include").path)

        Name: folio-plugin
        Description: The C ABI of Folio editor plugins and its text helpers (build tree)
        Version: 1.0
        Cflags: -I${includedir} -I${textdir}
        Libs: -lutf8proc

        """.utf8).write(to: pkgconfig.appendingPathComponent("folio-plugin.pc"))
        return pkgconfig
    }

    /// Runs `command` with `sh -c` in `folder`; fails the test with its output unless it exits 0.
    static func shell(_ command: String, in folder: URL, environment: [String: String], file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try runProgram("/bin/sh", ["-c", command], cwd: folder, environment: environment)
        XCTAssertEqual(result.status, 0, "\(command):\n\(result.stdout)\n\(result.stderr)", file: file, line: line)
        if result.status != 0 { throw CompileFailure(name: command, stderr: result.stderr) }
    }

    /// Makes a build folder fit for the plugin search path (not writable by group or others).
    static func tighten(_ folder: URL) {
        chmod(folder.path, 0o755)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasSuffix(".so") { chmod(folder.appendingPathComponent(name).path, 0o755) }
    }
}
