import FolioPluginKit

/// A story in Markdown: `# Title`, `## Act I: Name`, `### Scene name` and text.
/// Every line is kept as read, so Markdown written by others comes back unchanged except where edited, and each act
/// and scene heading carries its id (`ItemTag`, a comment at its end).
struct Story: Equatable {
    struct Scene: Equatable {
        /// The heading line without its Folio comment.
        var header: String
        var body: [String]
        var tag = ItemTag()
    }
    struct Act: Equatable {
        /// The heading line without its Folio comment.
        var header: String
        var body: [String]
        var scenes: [Scene]
        var tag = ItemTag()
    }
    /// Lines before the first act: the title and any preamble (without the line of the story's own fields).
    var head: [String]
    var acts: [Act]
    var endsWithNewline: Bool
    /// The story's own fields a newer plugin wrote, kept as read.
    var headTag: HeadTag?

    init(markdown text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        endsWithNewline = text.isEmpty || text.hasSuffix("\n")
        if text.isEmpty { lines = [] } else if endsWithNewline { lines.removeLast() }
        head = []
        acts = []
        var fence: Substring?
        for line in lines {
            let trimmed = line.drop { $0 == " " }
            if let open = fence {
                if trimmed.hasPrefix(open) { fence = nil }
                append(line)
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fence = trimmed.prefix(3)
                append(line)
            } else if Self.level(of: line) == 2 {
                acts.append(Act(header: line, body: [], scenes: []))
            } else if Self.level(of: line) == 3, !acts.isEmpty {
                acts[acts.count - 1].scenes.append(Scene(header: line, body: []))
            } else {
                append(line)
            }
        }
        readTags()
    }

    private mutating func append(_ line: String) {
        guard !acts.isEmpty else { head.append(line); return }
        let a = acts.count - 1
        if acts[a].scenes.isEmpty { acts[a].body.append(line) } else { acts[a].scenes[acts[a].scenes.count - 1].body.append(line) }
    }

    /// The ATX heading level of `line` (0 when it is not a heading). Only unindented headings count.
    static func level(of line: String) -> Int {
        var count = 0
        for character in line {
            if character == "#" { count += 1; continue }
            return (character == " " || character == "\t") && count <= 6 ? count : 0
        }
        return count > 0 && count <= 6 ? count : 0
    }

    /// The heading text without its `#`s and surrounding spaces (and trailing `#`s, per CommonMark).
    static func headingText(_ line: String) -> String {
        var text = Substring(line.drop { $0 == "#" })
        text = text.drop { $0 == " " || $0 == "\t" }
        while text.last == " " || text.last == "\t" || text.last == "\r" { text = text.dropLast() }
        if text.last == "#" {
            let stripped = text.reversed().drop { $0 == "#" }
            if stripped.first == " " || stripped.isEmpty { text = Substring(String(stripped.reversed())); while text.last == " " { text = text.dropLast() } }
        }
        return String(text)
    }

    var markdown: String {
        var lines = headLines
        for act in acts {
            lines.append(act.tag.appended(to: act.header))
            lines += act.body
            for scene in act.scenes {
                lines.append(scene.tag.appended(to: scene.header))
                lines += scene.body
            }
        }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + (endsWithNewline ? "\n" : "")
    }

    var title: String {
        head.first { Self.level(of: $0) == 1 }.map(Self.headingText) ?? ""
    }

    static func roman(_ number: Int) -> String {
        guard number > 0, number < 4000 else { return String(number) }
        let table: [(Int, String)] = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                                      (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
        var rest = number, out = ""
        for (value, letters) in table { while rest >= value { out += letters; rest -= value } }
        return out
    }

    /// Makes sure a container followed by a heading ends with a blank line (only ever adds blank lines).
    mutating func separateHeadings() {
        func ensureBlank(_ lines: inout [String], hasHeading: Bool) {
            if hasHeading, let last = lines.last, !last.trimmingSpaces.isEmpty { lines.append("") }
        }
        ensureBlank(&head, hasHeading: !acts.isEmpty)
        for a in acts.indices {
            let nextHeading = a + 1 < acts.count
            ensureBlank(&acts[a].body, hasHeading: !acts[a].scenes.isEmpty || nextHeading)
            for s in acts[a].scenes.indices {
                ensureBlank(&acts[a].scenes[s].body, hasHeading: s + 1 < acts[a].scenes.count || nextHeading)
            }
        }
    }
}

extension String {
    var trimmingSpaces: Substring {
        var slice = self[...]
        while let first = slice.first, first == " " || first == "\t" || first == "\r" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" || last == "\r" { slice = slice.dropLast() }
        return slice
    }
}
