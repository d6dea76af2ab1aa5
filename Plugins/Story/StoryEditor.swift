import FolioPluginKit

/// The Story editor: acts and scenes of a Markdown story, with word counts.
struct StoryEditor: FolioEditor {
    let spec = EditorSpec(
        id: "story", name: "Story", contentTypes: ["org.folio.story"],
        declaredTypes: [TypeSpec("org.folio.story", conformsTo: ["net.daringfireball.markdown"], description: "A story in acts and scenes")],
        priority: .default,
        commands: [
            CommandSpec("add-act", title: "Add act", shortcut: "A", usage: "add-act TITLE"),
            CommandSpec("add-scene", title: "Add scene", shortcut: "a", usage: "add-scene ACT:int+ TITLE", needsSelection: true),
            CommandSpec("rename-scene", title: "Rename scene", shortcut: "r", usage: "rename-scene ACT:int+ SCENE:int+ TITLE", needsSelection: true),
            CommandSpec("move-scene", title: "Move scene", shortcut: "m", usage: "move-scene ACT:int+ SCENE:range TO_ACT:int+ TO_POS:int+", needsSelection: true),
            CommandSpec("set-text", title: "Set scene text", shortcut: "e", usage: "set-text ACT:int+ SCENE:int+ TEXT", needsSelection: true),
            CommandSpec("delete-scene", title: "Delete scene", shortcut: "d", usage: "delete-scene ACT:int+ SCENE:range", needsSelection: true),
            CommandSpec("rename-act", title: "Rename act", shortcut: "R", usage: "rename-act ACT:int+ TITLE", needsSelection: true),
            CommandSpec("delete-act", title: "Delete act", shortcut: "D", usage: "delete-act ACT:int+", needsSelection: true),
        ])

    func open(_ bytes: [UInt8]) throws -> Story {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw EditorFailure.invalidDocument("the story is not UTF-8 text") }
        return Story(markdown: text)
    }

    func serialize(_ story: Story) throws -> [UInt8] { Array(story.markdown.utf8) }

    func apply(_ command: String, arguments: CommandArguments, to story: Story, selection: Selection) throws -> (Story, String) {
        var story = story
        switch command {
        case "add-act":
            try arguments.expect(1)
            // "Act II: Storm" typed in full is taken as the title "Storm": the label is never written twice.
            let title = try Self.oneLine(Story.droppingActLabel(arguments.text(0, "TITLE")))
            let label = "Act \(Story.roman(story.acts.count + 1))"
            story.acts.append(.init(header: "## \(label): \(title)", body: [""], scenes: [], tag: .fresh()))
            story.separateHeadings()
            return (story, "added \(label): '\(title)'")
        case "add-scene":
            try arguments.expect(2)
            let act = try arguments.item(0, "ACT", count: story.acts.count)
            let title = try Self.oneLine(arguments.text(1, "TITLE"))
            story.acts[act].scenes.append(.init(header: "### \(title)", body: [""], tag: .fresh()))
            story.separateHeadings()
            return (story, "added scene '\(title)' to act \(act + 1)")
        case "rename-scene":
            try arguments.expect(3)
            let (act, scene) = try locate(arguments, story)
            let title = try Self.oneLine(arguments.text(2, "TITLE"))
            let old = Story.headingText(story.acts[act].scenes[scene].header)
            story.acts[act].scenes[scene].header = "### \(title)"
            return (story, "renamed scene '\(old)' to '\(title)'")
        case "move-scene":
            // SCENE may be a range ("2-3"): the scenes move together, in order, TO_POS counted once they are out.
            try arguments.expect(4)
            let act = try arguments.item(0, "ACT", count: story.acts.count)
            let range = try arguments.items(1, "SCENE", count: story.acts[act].scenes.count)
            let target = try arguments.item(2, "TO_ACT", count: story.acts.count)
            let moving = Array(story.acts[act].scenes[range])
            story.acts[act].scenes.removeSubrange(range)
            let position = try arguments.int(3, "TO_POS", in: 1...(story.acts[target].scenes.count + 1))
            story.acts[target].scenes.insert(contentsOf: moving, at: position - 1)
            story.separateHeadings()
            let names = moving.map { "'\(Story.headingText($0.header))'" }
            return (story, "moved scene\(names.count == 1 ? "" : "s") \(names.joined(separator: ", ")) to act \(target + 1), position \(position)")
        case "set-text":
            try arguments.expect(3)
            let (act, scene) = try locate(arguments, story)
            let text = try arguments.text(2, "TEXT")
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            while lines.last?.trimmingSpaces.isEmpty == true { lines.removeLast() }
            if let heading = lines.first(where: { Story.level(of: $0) >= 1 && Story.level(of: $0) <= 3 }) {
                throw EditorFailure.invalidArgument("TEXT must not contain headings ('\(heading)'): they would change the acts and scenes")
            }
            story.acts[act].scenes[scene].body = [""] + lines + [""]
            story.separateHeadings()
            let name = Story.headingText(story.acts[act].scenes[scene].header)
            return (story, "set the text of scene '\(name)' (\(ViewText.wordCount(text)) words)")
        case "delete-scene", "rename-act", "delete-act":
            return try applyRemoval(command, arguments: arguments, to: story)
        default:
            throw EditorFailure(.unknownCommand, "unknown command '\(command)'")
        }
    }

    private func locate(_ arguments: CommandArguments, _ story: Story) throws -> (Int, Int) {
        let act = try arguments.item(0, "ACT", count: story.acts.count)
        let scene = try arguments.item(1, "SCENE", count: story.acts[act].scenes.count)
        return (act, scene)
    }

    static func oneLine(_ text: String) throws -> String {
        let trimmed = String(text.trimmingSpaces)
        guard !trimmed.isEmpty else { throw EditorFailure.invalidArgument("TITLE must not be empty") }
        guard !trimmed.contains(where: \.isNewline) else { throw EditorFailure.invalidArgument("TITLE must be one line") }
        return trimmed
    }

    /// The outline — every act and scene on a numbered row, so the cursor moves over them and the highlighted row
    /// is the one commands act on — then the text of the scene (or act) under the cursor.
    func render(_ story: Story, width: Int, height: Int, selection: Selection) -> [String] {
        var total = ViewText.wordCount(story.head.filter { Story.level(of: $0) != 1 }.joined(separator: "\n"))
        var rows: [(label: String, words: Int, body: [String])] = []
        for (a, act) in story.acts.enumerated() {
            let actRow = rows.count
            var actWords = ViewText.wordCount(act.body.joined(separator: "\n"))
            rows.append(("\(a + 1) \(Story.headingText(act.header))", 0, act.body))
            for (s, scene) in act.scenes.enumerated() {
                let words = ViewText.wordCount(scene.body.joined(separator: "\n"))
                actWords += words
                rows.append(("  \(a + 1).\(s + 1) \(Story.headingText(scene.header))", words, scene.body))
            }
            rows[actRow].words = actWords
            total += actWords
        }
        let header = row(story.title.isEmpty ? "Untitled story" : story.title, "\(total) words", width)
        guard !rows.isEmpty else { return ViewText.window([header, "  (no acts: add-act TITLE)"], width: width, height: height) }
        // Each row shows its position (act "2", scene "2.3"): the host reads the items and suggests ACT and SCENE from it.
        let outline = rows.enumerated().map { index, item -> String in
            row((selection.cursor == index + 1 ? ">" : " ") + item.label, "\(item.words) words", width)
        }
        let room = max(0, height - 1)
        let focus = selection.cursor > 0 && selection.cursor <= rows.count ? selection.cursor - 1 : nil
        // The text under the cursor gets what the outline leaves, the outline at least half the rows.
        let text = focus.map { Self.wrapped(Self.text(rows[$0].body), width: width - 2, atMost: room) } ?? []
        let outlineRows = text.isEmpty ? room : min(outline.count, max(room / 2, room - text.count - 1))
        var lines = [ViewText.fit(header, width: width)]
        lines += ViewText.window(outline, width: width, height: outlineRows, focus: focus, scroll: selection.scroll)
        if let focus, room - outlineRows >= 2 {
            let name = String(rows[focus].label.trimmingSpaces)
            lines.append(ViewText.rule("── " + name + " ", width: width))
            // A bar before the text: a line of it starting with a number never reads as an outline row.
            lines += text.prefix(room - outlineRows - 1).map { ViewText.fit("│ " + $0, width: width) }
        }
        return Array(lines.prefix(height))
    }

    /// A scene's or act's text as shown under the outline: without the blank lines around it, "(no text)" when empty.
    private static func text(_ body: [String]) -> [String] {
        var lines = body[...]
        while lines.first?.trimmingSpaces.isEmpty == true { lines = lines.dropFirst() }
        while lines.last?.trimmingSpaces.isEmpty == true { lines = lines.dropLast() }
        return lines.isEmpty ? ["(no text: e sets it)"] : Array(lines)
    }

    /// `lines` wrapped at `width` cells (at least 1), so a paragraph reads in full where there is room; only the first
    /// `limit` wrapped lines are made (a long scene costs no more than the screen shows).
    private static func wrapped(_ lines: [String], width: Int, atMost limit: Int) -> [String] {
        var out: [String] = []
        for line in lines where out.count < limit { out += ViewText.wrap(line, width: max(1, width)) }
        return Array(out.prefix(limit))
    }

    /// `left` and `right` on one line, `right` flush to the edge when there is room.
    private func row(_ left: String, _ right: String, _ width: Int) -> String {
        let gap = width - ViewText.width(of: left) - ViewText.width(of: right)
        return gap >= 2 ? left + String(repeating: " ", count: gap) + right : left + "  " + right
    }
}

extension Story {
    /// `title` without an act label the user typed ("Act II: Storm", "act 2 - Storm" → "Storm").
    static func droppingActLabel(_ title: String) -> String {
        let words = title.trimmingSpaces.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard words.count >= 2, words[0].lowercased() == "act" else { return title }
        var number = Substring(words[1])
        var rest = words.count > 2 ? Substring(words[2]) : ""
        if number.hasSuffix(":") { number = number.dropLast() }
        else if rest.hasPrefix(":") || rest.hasPrefix("-") || rest.hasPrefix("–") { rest = rest.dropFirst() }
        else { return title }
        let isNumber = !number.isEmpty && (number.allSatisfy(\.isNumber) || number.uppercased().allSatisfy { "IVXLCDM".contains($0) })
        let remaining = rest.drop { $0 == " " }
        return isNumber && !remaining.isEmpty ? String(remaining) : title
    }
}

@_cdecl("folio_plugin_entry")
public func folioPluginEntry() -> UnsafeRawPointer? {
    FolioPluginExport.descriptor {
        FolioPlugin(id: "org.folio.plugins.story", name: "Story", version: "1.0.0", editors: [StoryEditor()])
    }
}
