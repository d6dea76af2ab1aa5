import FolioPluginKit

/// `folio.argument-values/1`: what a command's form starts from — the scene's whole text for `set-text` (so ⏎ without
/// changes keeps it, and `$EDITOR` edits it), the current title for `rename-scene` and `rename-act`, and the act and
/// scene of the outline row under the cursor for the position arguments.
extension StoryEditor {
    func argumentValues(for command: String, in story: Story, selection: Selection) throws -> [String?]? {
        guard let (act, scene) = story.outlineRow(selection.cursor) else { return nil }
        let actNumber = String(act + 1)
        switch command {
        case "set-text", "rename-scene":
            guard let scene else { return nil }
            let current = story.acts[act].scenes[scene]
            let value = command == "set-text" ? Story.text(current).joined(separator: "\n") : Story.headingText(current.header)
            return [actNumber, String(scene + 1), value]
        case "rename-act":
            return [actNumber, Story.droppingActLabel(story.actName(act))]
        case "add-scene":
            return [actNumber, nil]
        case "add-act", "move-scene", "delete-scene", "delete-act":
            return nil
        default:
            throw EditorFailure(.unknownCommand, "unknown command '\(command)'")
        }
    }
}

extension Story {
    /// The act and scene (nil on an act's own row) of outline row `row` (from 1, as the view numbers its rows: each
    /// act, then its scenes); nil when there is no such row.
    func outlineRow(_ row: Int) -> (act: Int, scene: Int?)? {
        var index = 1
        for (a, act) in acts.enumerated() {
            if row == index { return (a, nil) }
            if row > index, row <= index + act.scenes.count { return (a, row - index - 1) }
            index += 1 + act.scenes.count
        }
        return nil
    }
}
