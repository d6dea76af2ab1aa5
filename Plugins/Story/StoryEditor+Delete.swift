import FolioPluginKit

/// Deleting scenes and acts, and renaming acts.
extension StoryEditor {
    func applyRemoval(_ command: String, arguments: CommandArguments, to story: Story) throws -> (Story, String) {
        var story = story
        switch command {
        case "delete-scene":
            // SCENE may be a range ("2-4", from `folio edit`): the scenes go as one change.
            try arguments.expect(2)
            let act = try arguments.item(0, "ACT", count: story.acts.count)
            let range = try arguments.items(1, "SCENE", count: story.acts[act].scenes.count)
            let names = story.acts[act].scenes[range].map { "'\(Story.headingText($0.header))'" }
            story.acts[act].scenes.removeSubrange(range)
            story.separateHeadings()
            if range.count == 1 { return (story, "deleted scene \(act + 1).\(range.lowerBound + 1) \(names[0])") }
            return (story, "deleted scenes \(act + 1).\(range.lowerBound + 1)–\(act + 1).\(range.upperBound + 1) (\(names.joined(separator: ", ")))")
        case "rename-act":
            try arguments.expect(2)
            let act = try arguments.item(0, "ACT", count: story.acts.count)
            let title = try Self.oneLine(Story.droppingActLabel(arguments.text(1, "TITLE")))
            let old = story.actName(act)
            story.acts[act].header = "## " + Story.actLabelPrefix(old) + title
            return (story, "renamed act \(act + 1) '\(old)' to '\(story.actName(act))'")
        case "delete-act":
            try arguments.expect(1)
            let act = try arguments.item(0, "ACT", count: story.acts.count)
            guard story.acts.count > 1 else {
                throw EditorFailure.invalidArgument("act 1 is the only act: a story keeps at least one (rename-act renames it)")
            }
            let removed = story.acts.remove(at: act)
            story.renumberActLabels(from: act)
            story.separateHeadings()
            let scenes = removed.scenes.count == 1 ? "its 1 scene" : "its \(removed.scenes.count) scenes"
            return (story, "deleted act \(act + 1) '\(Story.headingText(removed.header))' and \(scenes)")
        default:
            throw EditorFailure(.unknownCommand, "unknown command '\(command)'")
        }
    }
}

extension Story {
    /// The act label before the title as written ("Act II: " of "Act II: Storm"), empty when the heading has none.
    static func actLabelPrefix(_ name: String) -> String {
        let title = droppingActLabel(name)
        guard title != name, name.hasSuffix(title) else { return "" }
        return String(name.dropLast(title.count))
    }

    /// Each act labelled with a number as add-act writes it ("Act III: …") labelled with its place (a merge that
    /// combines acts added or deleted on two sides renumbers them, as a deletion does); other headings kept as they are.
    mutating func labelActsByPlace() {
        for a in acts.indices {
            let name = actName(a)
            let prefix = Story.actLabelPrefix(name)
            guard prefix.hasPrefix("Act "), prefix.hasSuffix(": "),
                  prefix.dropFirst(4).dropLast(2).allSatisfy({ "IVXLCDM".contains($0) }) else { continue }
            acts[a].header = "## Act \(Story.roman(a + 1)): " + name.dropFirst(prefix.count)
        }
    }

    /// After an act was removed at `index`, each later act labelled with its old number ("Act III: …", as add-act
    /// writes it) is labelled with its new one; headings written otherwise are kept as they are.
    mutating func renumberActLabels(from index: Int) {
        for a in acts.indices where a >= index {
            let name = actName(a)
            let old = "Act \(Story.roman(a + 2))"
            let prefix = Story.actLabelPrefix(name)
            guard prefix.hasPrefix(old + ":") || prefix.hasPrefix(old + " ") else { continue }
            acts[a].header = "## Act \(Story.roman(a + 1))" + name.dropFirst(old.count)
        }
    }
}
