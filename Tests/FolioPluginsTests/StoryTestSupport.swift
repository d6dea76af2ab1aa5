@testable import FolioPlugins
import Foundation
import XCTest

/// What the tests of the Story editor read from its Markdown: the Folio comments (`<!-- folio {…} -->`) that end
/// each act and scene heading and hold its id.
enum StoryTags {
    /// `markdown` without the Folio comments at the end of its headings: the story as a reader sees it.
    static func stripped(_ markdown: String) -> String {
        markdown.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.hasPrefix("#"), let range = line.range(of: " <!-- folio {", options: .backwards) else { return String(line) }
            let cr = line.hasSuffix("\r") ? "\r" : ""
            return String(line[..<range.lowerBound]) + cr
        }.joined(separator: "\n")
    }

    /// The id of each act and scene heading in document order ("" for a heading without one).
    static func ids(_ markdown: String) -> [String] {
        markdown.split(separator: "\n").filter { $0.hasPrefix("## ") || $0.hasPrefix("### ") }.map { line in
            guard let start = line.range(of: "{\"id\":\"")?.upperBound, let end = line[start...].firstIndex(of: "\"") else { return "" }
            return String(line[start..<end])
        }
    }

    /// The id of the heading `heading` ("### The Call"), nil when there is no such heading or it has no id.
    static func id(of heading: String, in markdown: String) -> String? {
        let lines = markdown.split(separator: "\n").filter { $0.hasPrefix("## ") || $0.hasPrefix("### ") }
        guard let index = lines.firstIndex(where: { $0 == heading || $0.hasPrefix(heading + " <!-- folio") }) else { return nil }
        let id = ids(markdown)[index]
        return id.isEmpty ? nil : id
    }

    /// The scene headings' titles in document order, as a reader sees them.
    static func sceneTitles(_ markdown: String) -> [String] {
        stripped(markdown).split(separator: "\n").filter { $0.hasPrefix("### ") }.map { String($0.dropFirst(4)) }
    }
}

extension HostedEditor {
    /// The bundled Story editor in a plugin host of its own (a process no other test shares).
    static func storyInOwnHost() throws -> HostedEditor {
        let registry = PluginFixtures.bundledHost()
        let entry = try XCTUnwrap(registry.editors.first { $0.editor.id == "story" })
        return HostedEditor(backend: try registry.backend("story"), manifest: entry.editor)
    }

    /// The text of `markdown` after `commands` (each a command and its arguments) were applied in turn.
    func edited(_ markdown: String, _ commands: [[String]]) throws -> String {
        var document = try open(Data(markdown.utf8))
        for command in commands { document = try document.applying(command[0], arguments: Array(command.dropFirst())).document }
        return try document.text
    }
}
