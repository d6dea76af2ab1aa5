import FolioPluginKit

/// The Story editor: acts and scenes of a Markdown story, with word counts.
struct StoryEditor: FolioEditor {
    let spec = EditorSpec(
        id: "story", name: "Story", contentTypes: ["org.folio.story"],
        declaredTypes: [TypeSpec("org.folio.story", conformsTo: ["net.daringfireball.markdown"], description: "A story in acts and scenes")],
        priority: .default,
        commands: [
            CommandSpec("add-act", title: "Add act", shortcut: "A", usage: "add-act TITLE"),
            CommandSpec("add-scene", title: "Add scene", shortcut: "a", usage: "add-scene ACT TITLE", needsSelection: true),
            CommandSpec("rename-scene", title: "Rename scene", shortcut: "r", usage: "rename-scene ACT SCENE TITLE", needsSelection: true),
            CommandSpec("move-scene", title: "Move scene", shortcut: "m", usage: "move-scene ACT SCENE TO_ACT TO_POS", needsSelection: true),
            CommandSpec("set-text", title: "Set scene text", shortcut: "e", usage: "set-text ACT SCENE TEXT", needsSelection: true),
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
            let title = try oneLine(arguments.text(0, "TITLE"))
            let label = "Act \(Story.roman(story.acts.count + 1))"
            story.acts.append(.init(header: "## \(label): \(title)", body: [""], scenes: []))
            story.separateHeadings()
            return (story, "added \(label): '\(title)'")
        case "add-scene":
            try arguments.expect(2)
            let act = try arguments.item(0, "ACT", count: story.acts.count)
            let title = try oneLine(arguments.text(1, "TITLE"))
            story.acts[act].scenes.append(.init(header: "### \(title)", body: [""]))
            story.separateHeadings()
            return (story, "added scene '\(title)' to act \(act + 1)")
        case "rename-scene":
            try arguments.expect(3)
            let (act, scene) = try locate(arguments, story)
            let title = try oneLine(arguments.text(2, "TITLE"))
            let old = Story.headingText(story.acts[act].scenes[scene].header)
            story.acts[act].scenes[scene].header = "### \(title)"
            return (story, "renamed scene '\(old)' to '\(title)'")
        case "move-scene":
            try arguments.expect(4)
            let (act, scene) = try locate(arguments, story)
            let target = try arguments.item(2, "TO_ACT", count: story.acts.count)
            let moving = story.acts[act].scenes.remove(at: scene)
            let position = try arguments.int(3, "TO_POS", in: 1...(story.acts[target].scenes.count + 1))
            story.acts[target].scenes.insert(moving, at: position - 1)
            story.separateHeadings()
            return (story, "moved scene '\(Story.headingText(moving.header))' to act \(target + 1), position \(position)")
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
        default:
            throw EditorFailure(.unknownCommand, "unknown command '\(command)'")
        }
    }

    private func locate(_ arguments: CommandArguments, _ story: Story) throws -> (Int, Int) {
        let act = try arguments.item(0, "ACT", count: story.acts.count)
        let scene = try arguments.item(1, "SCENE", count: story.acts[act].scenes.count)
        return (act, scene)
    }

    private func oneLine(_ text: String) throws -> String {
        let trimmed = String(text.trimmingSpaces)
        guard !trimmed.isEmpty else { throw EditorFailure.invalidArgument("TITLE must not be empty") }
        guard !trimmed.contains(where: \.isNewline) else { throw EditorFailure.invalidArgument("TITLE must be one line") }
        return trimmed
    }

    func render(_ story: Story, width: Int, height: Int, selection: Selection) -> [String] {
        var lines: [String] = []
        var total = ViewText.wordCount(story.head.filter { Story.level(of: $0) != 1 }.joined(separator: "\n"))
        var actLines: [String] = []
        for (a, act) in story.acts.enumerated() {
            var actWords = ViewText.wordCount(act.body.joined(separator: "\n"))
            var sceneLines: [String] = []
            for (s, scene) in act.scenes.enumerated() {
                let words = ViewText.wordCount(scene.body.joined(separator: "\n"))
                actWords += words
                sceneLines.append(row("    \(a + 1).\(s + 1) \(Story.headingText(scene.header))", "\(words) words", width))
            }
            total += actWords
            actLines.append(row("\(a + 1) \(Story.headingText(act.header))", "\(actWords) words", width))
            actLines += sceneLines
        }
        lines.append(row(story.title.isEmpty ? "Untitled story" : story.title, "\(total) words", width))
        lines += actLines.isEmpty ? ["  (no acts: add-act TITLE)"] : actLines
        let marked = lines.enumerated().map { index, line in index > 0 && index == selection.cursor ? ">" + line.dropFirst() : line }
        return ViewText.window(marked, width: width, height: height, focus: selection.cursor > 0 ? selection.cursor : nil, scroll: selection.scroll)
    }

    /// `left` and `right` on one line, `right` flush to the edge when there is room.
    private func row(_ left: String, _ right: String, _ width: Int) -> String {
        let gap = width - ViewText.width(of: left) - ViewText.width(of: right)
        return gap >= 2 ? left + String(repeating: " ", count: gap) + right : left + "  " + right
    }
}

@_cdecl("folio_plugin_entry")
public func folioPluginEntry() -> UnsafeRawPointer? {
    FolioPluginExport.descriptor {
        FolioPlugin(id: "org.folio.plugins.story", name: "Story", version: "1.0.0", editors: [StoryEditor()])
    }
}
