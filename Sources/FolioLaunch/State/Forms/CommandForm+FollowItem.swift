import FolioCore

/// An open command form follows its item when another window's change renumbers it, as the cursor does: the item
/// numbers it holds become the item's new ones and it applies to the version now shown, so what the form says and
/// what the screen shows agree (before, the form kept the old numbers and applied them to the old version).
extension EditorPrompt {
    /// This form moved from the item at row `old` (view path `oldPath`) of version `base` to row `new` (path
    /// `newPath`) of version `commit`. Only numbers the form was opened with change: the item argument given by the
    /// cursor, and leading position fields still as they were prefilled. A range or a typed number keeps the form
    /// on its old version (where its numbers mean what the user meant), as does a form opened on another version.
    func following(row old: Int, path oldPath: [Int], toRow new: Int, path newPath: [Int], commit: String) -> EditorPrompt {
        guard base != nil, selection?.hasRange != true, oldPath.count == newPath.count else { return self }
        var prompt = self
        for index in names.indices where EditorCommand.isItemArgument(names[index]) {
            guard values.indices.contains(index), let value = values[index] else { continue }
            guard value == String(old + 1) else { return self }
            prompt.values[index] = String(new + 1)
        }
        // The leading position fields: each still the cursor's number as prefilled, or the form stays as it is.
        let fields = names.indices.prefix(oldPath.count).enumerated().filter { asked.contains($0.element) }
            .prefix { argument($0.element).kind != .text }
        let typedOver = fields.contains { level, index in inputs[index].text != String(oldPath[level]) || inputs[index].text != initial[index] }
        if typedOver { return self }  // the user's numbers, not the cursor's
        for (level, index) in fields {
            let text = String(newPath[level])
            prompt.inputs[index] = inputs[index].isSuggested ? .suggesting(text) : TextField(text)
            prompt.initial[index] = text
        }
        prompt.selection = .items(cursor: new)
        prompt.base = commit
        return prompt
    }
}
