import FolioPluginKit

/// The story editor's semantic diff and merge: changes named by act and scene.
extension StoryEditor {
    var extensions: Set<String> { [FolioExtension.semanticDiff, FolioExtension.semanticMerge, FolioExtension.items, FolioExtension.argumentValues] }

    func semanticDiff(from old: Story, to new: Story) throws -> [String] {
        StoryDiff.describe(from: old, to: new)
    }

    func semanticMerge(base: Story, ours: Story, theirs: Story) throws -> MergeOutcome<Story> {
        StoryMerge.merge(base: base, ours: ours, theirs: theirs)
    }
}

/// A scene as the diff and merge see it: where it is, its title and its text.
struct SceneRecord: Equatable {
    var act: Int
    var position: Int
    var title: String
    var scene: Story.Scene
}

/// Scenes are matched by title (the k-th "Dusk" in one version with the k-th "Dusk" in the other), across acts.
struct SceneKey: Hashable {
    let title: String
    let occurrence: Int
}

extension Story {
    /// Every scene in story order, with its key.
    var sceneRecords: [(key: SceneKey, record: SceneRecord)] {
        var seen: [String: Int] = [:]
        var result: [(SceneKey, SceneRecord)] = []
        for (a, act) in acts.enumerated() {
            for (s, scene) in act.scenes.enumerated() {
                let title = Story.headingText(scene.header)
                let occurrence = seen[title, default: 0]
                seen[title] = occurrence + 1
                result.append((SceneKey(title: title, occurrence: occurrence), SceneRecord(act: a, position: s, title: title, scene: scene)))
            }
        }
        return result
    }

    /// The act's name as its heading shows it ("Act I: Departure").
    func actName(_ index: Int) -> String { acts.indices.contains(index) ? Story.headingText(acts[index].header) : "?" }

    /// A scene's text without blank lines at either end (the blank lines around headings are layout, not text).
    static func text(_ scene: Scene) -> [String] {
        var lines = scene.body[...]
        while let first = lines.first, first.trimmingSpaces.isEmpty { lines = lines.dropFirst() }
        while let last = lines.last, last.trimmingSpaces.isEmpty { lines = lines.dropLast() }
        return Array(lines)
    }

    static func words(_ lines: [String]) -> Int { lines.reduce(0) { $0 + $1.split(whereSeparator: { $0 == " " || $0 == "\t" }).count } }
}

/// Describes the change between two stories: the title, acts, and scenes added, removed, renamed, moved or rewritten.
enum StoryDiff {
    static func describe(from old: Story, to new: Story) -> [String] {
        var lines: [String] = []
        if old.title != new.title {
            lines.append(old.title.isEmpty ? "titled the story '\(new.title)'" : new.title.isEmpty ? "removed the story's title '\(old.title)'"
                         : "retitled the story from '\(old.title)' to '\(new.title)'")
        }
        else if old.head != new.head { lines.append("changed the text before the first act") }
        lines += acts(from: old, to: new)
        lines += scenes(from: old, to: new)
        return lines
    }

    /// Acts are matched by position: a heading that differs is a rename, extra acts are added or removed.
    static func acts(from old: Story, to new: Story) -> [String] {
        var lines: [String] = []
        for index in 0..<max(old.acts.count, new.acts.count) {
            switch (old.acts.indices.contains(index), new.acts.indices.contains(index)) {
            case (true, true):
                if old.acts[index].header != new.acts[index].header { lines.append("renamed act \(index + 1) from '\(old.actName(index))' to '\(new.actName(index))'") }
                if Story.text(.init(header: "", body: old.acts[index].body)) != Story.text(.init(header: "", body: new.acts[index].body)) {
                    lines.append("changed the text of act '\(new.actName(index))'")
                }
            case (true, false): lines.append("removed act '\(old.actName(index))' (\(old.acts[index].scenes.count) scenes)")
            case (false, true): lines.append("added act '\(new.actName(index))'")
            case (false, false): break
            }
        }
        return lines
    }

    static func scenes(from old: Story, to new: Story) -> [String] {
        let before = old.sceneRecords, after = new.sceneRecords
        var newIndex: [SceneKey: Int] = [:]
        for (index, entry) in after.enumerated() { newIndex[entry.key] = index }
        var oldToNew: [Int?] = before.map { newIndex[$0.key] }
        let matchedNew = Set(oldToNew.compactMap { $0 })
        // Scenes that kept their order are the longest increasing run of new positions; the others moved.
        let stay = Set(ItemMatcher.longestIncreasingSubsequence(oldToNew.compactMap { $0 }))
        // An unmatched old scene and an unmatched new one in the same act and position are one scene renamed.
        struct Slot: Hashable { let act: Int; let position: Int }
        var unmatchedOld: [Slot: Int] = [:]
        for o in before.indices where oldToNew[o] == nil { unmatchedOld[Slot(act: before[o].record.act, position: before[o].record.position)] = o }
        var renamed: [Int: Int] = [:]  // new index → old index
        for n in after.indices where !matchedNew.contains(n) {
            if let o = unmatchedOld.removeValue(forKey: Slot(act: after[n].record.act, position: after[n].record.position)) {
                renamed[n] = o
                oldToNew[o] = n
            }
        }
        var lines: [String] = []
        for (o, match) in oldToNew.enumerated() where match == nil {
            lines.append("removed scene '\(before[o].record.title)' from act \(before[o].record.act + 1)")
        }
        for (n, entry) in after.enumerated() {
            let record = entry.record
            if let o = renamed[n] {
                lines.append("renamed scene '\(before[o].record.title)' to '\(record.title)'")
                if Story.text(before[o].record.scene) != Story.text(record.scene) { lines.append(textChange(before[o].record, record)) }
            } else if !matchedNew.contains(n) {
                lines.append("added scene '\(record.title)' to act \(record.act + 1)")
            }
        }
        for (o, match) in oldToNew.enumerated() {
            guard let n = match, renamed[n] == nil else { continue }
            let was = before[o].record, now = after[n].record
            if !stay.contains(n) || was.act != now.act {
                lines.append("moved scene '\(now.title)' to act \(now.act + 1), position \(now.position + 1)")
            }
            if Story.text(was.scene) != Story.text(now.scene) { lines.append(textChange(was, now)) }
        }
        return lines
    }

    static func textChange(_ was: SceneRecord, _ now: SceneRecord) -> String {
        let before = Story.words(Story.text(was.scene)), after = Story.words(Story.text(now.scene))
        let delta = after - before
        return "changed the text of scene '\(now.title)' (\(after) words, \(delta >= 0 ? "+" : "−")\(abs(delta)))"
    }
}
