import FolioPluginKit

/// The story's items (`folio.items/1`) are the outline's rows: acts ("2") and scenes ("2.3"), numbered as the view
/// shows them. They are matched between versions by id (`ItemTag`); versions written before ids are matched as the
/// semantic diff matches them: acts by position, scenes by title (the k-th "Dusk" with the k-th, across acts), an
/// unmatched scene in the same act and position being the same scene renamed. An act's content is its heading, its
/// own text and its fields (its scenes are items of their own).
extension StoryEditor {
    /// Where an outline row is: an act, or a scene of an act.
    enum Row: Equatable {
        case act(Int)
        case scene(Int, Int)
    }

    static func rows(_ story: Story) -> [Row] {
        story.acts.indices.flatMap { a in [Row.act(a)] + story.acts[a].scenes.indices.map { Row.scene(a, $0) } }
    }

    func items(of story: Story) throws -> [ItemInfo] {
        Self.rows(story).map { row in
            switch row {
            case let .act(a):
                let act = story.acts[a]
                let text = Story.text(.init(header: "", body: act.body))
                // The act's title without its "Act III:" label (its place, renumbered when an act before it goes).
                return ItemInfo(key: "\(a + 1)", fingerprint: ItemInfo.fingerprint([Story.actTitle(act.header)] + text + act.tag.fields.map(Self.fieldText)), summary: "act '\(story.actName(a))'")
            case let .scene(a, s):
                let scene = story.acts[a].scenes[s]
                let text = Story.text(scene)
                // Its act is part of it: a scene moved to another act changed, as the merge sees it (two moves to
                // different acts conflict).
                return ItemInfo(key: "\(a + 1).\(s + 1)", fingerprint: ItemInfo.fingerprint([scene.header, "act " + story.acts[a].tag.id] + text + scene.tag.fields.map(Self.fieldText)),
                                summary: "scene '\(Story.headingText(scene.header))' (\(Story.words(text)) words)")
            }
        }
    }

    /// By id when both versions had their ids stored; by today's guess (acts by position, scenes by title) when
    /// neither had any (history written before ids); else by id, then by the guess for the items ids left unmatched.
    func matchItems(from old: Story, to new: Story) throws -> [Int?] {
        if old.idsNoneStored && new.idsNoneStored { return Self.guessedMatch(from: old, to: new) }
        let oldRows = Self.rows(old), newRows = Self.rows(new)
        var oldByID: [String: Int] = [:]
        for (index, row) in oldRows.enumerated() where oldByID[old.tag(row).id] == nil { oldByID[old.tag(row).id] = index }
        var byID: [Int?] = newRows.map { row in
            oldByID[new.tag(row).id].flatMap { Self.sameKind(oldRows[$0], row) ? $0 : nil }
        }
        if old.idsAllStored && new.idsAllStored { return byID }
        var used = Set(byID.compactMap { $0 })
        for (index, guess) in Self.guessedMatch(from: old, to: new).enumerated() where byID[index] == nil {
            if let guess, used.insert(guess).inserted { byID[index] = guess }
        }
        return byID
    }

    static func sameKind(_ a: Row, _ b: Row) -> Bool {
        switch (a, b) {
        case (.act, .act), (.scene, .scene): return true
        default: return false
        }
    }

    /// Today's match for versions without ids: acts by position, scenes as `matchScenes` pairs them.
    static func guessedMatch(from old: Story, to new: Story) -> [Int?] {
        let oldRows = Self.rows(old), newRows = Self.rows(new)
        var oldIndex: [Row: Int] = [:]
        for (index, row) in oldRows.enumerated() { oldIndex[row] = index }
        let sceneMatch = Self.matchScenes(old, new)
        return newRows.map { row in
            switch row {
            case let .act(a): return a < old.acts.count ? oldIndex[.act(a)] : nil
            case let .scene(a, s): return sceneMatch[Row.scene(a, s)].flatMap { oldIndex[$0] }
            }
        }
    }

    /// For each scene of `new` (as a row), the row of the same scene in `old`: by title and occurrence, then an
    /// unmatched pair in the same act and position.
    static func matchScenes(_ old: Story, _ new: Story) -> [Row: Row] {
        let before = old.sceneRecords, after = new.sceneRecords
        var oldByKey: [SceneKey: Int] = [:]
        for (index, entry) in before.enumerated() { oldByKey[entry.key] = index }
        var result: [Row: Row] = [:]
        var matchedOld = Set<Int>()
        var unmatchedNew: [Int] = []
        for (n, entry) in after.enumerated() {
            if let o = oldByKey[entry.key] {
                result[.scene(entry.record.act, entry.record.position)] = .scene(before[o].record.act, before[o].record.position)
                matchedOld.insert(o)
            } else {
                unmatchedNew.append(n)
            }
        }
        var unmatchedOld: [Row: Int] = [:]
        for o in before.indices where !matchedOld.contains(o) { unmatchedOld[.scene(before[o].record.act, before[o].record.position)] = o }
        for n in unmatchedNew {
            let row = Row.scene(after[n].record.act, after[n].record.position)
            if unmatchedOld.removeValue(forKey: row) != nil { result[row] = row }
        }
        return result
    }

    /// A scene or act still in `into` is replaced where it is, keeping its id (an act keeps its scenes); a scene gone
    /// comes back, with its id, into its act (else the act of the same number, else the last act) at its old position
    /// or the end; an act gone comes back at its old number with its heading, text and id.
    func takeItems(_ takes: [ItemTake], from: Story, into: Story) throws -> (Story, String) {
        let fromRows = Self.rows(from), intoRows = Self.rows(into)
        var story = into
        var lines: [String] = []
        var moves: [(scene: String, act: String, position: Int)] = []
        for take in takes {
            guard let target = take.into else { continue }
            switch (fromRows[take.from], intoRows[target]) {
            case let (.act(fa), .act(ia)):
                story.acts[ia].header = from.acts[fa].header
                story.acts[ia].body = from.acts[fa].body
                story.acts[ia].tag.fields = from.acts[fa].tag.fields
                lines.append("put back act '\(from.actName(fa))' as it was")
            case let (.scene(fa, fs), .scene(ia, is_)):
                let id = story.acts[ia].scenes[is_].tag.id
                story.acts[ia].scenes[is_] = from.acts[fa].scenes[fs]
                story.acts[ia].scenes[is_].tag.id = id
                // Its act is part of it: in another act there, it moves to that act when this story has it.
                let act = from.acts[fa].tag.id
                if act != story.acts[ia].tag.id, story.acts.contains(where: { $0.tag.id == act }) { moves.append((id, act, fs)) }
                lines.append("put back scene '\(Story.headingText(from.acts[fa].scenes[fs].header))' as it was")
            default:
                throw EditorFailure.invalidArgument("an act can only replace an act, and a scene a scene")
            }
        }
        for move in moves { story.moveScene(move.scene, toAct: move.act, position: move.position) }
        for take in takes.filter({ $0.into == nil }).sorted(by: { $0.from < $1.from }) {
            switch fromRows[take.from] {
            case let .act(fa):
                let position = min(fa, story.acts.count)
                let tag = Self.keptTag(from.acts[fa].tag, in: story)
                story.acts.insert(.init(header: from.acts[fa].header, body: from.acts[fa].body, scenes: [], tag: tag), at: position)
                lines.append("brought back act '\(from.actName(fa))' as act \(position + 1)")
            case let .scene(fa, fs):
                guard !story.acts.isEmpty else {
                    throw EditorFailure.invalidArgument("the story has no act to put scene '\(Story.headingText(from.acts[fa].scenes[fs].header))' back into")
                }
                let act = story.acts.firstIndex { $0.tag.id == from.acts[fa].tag.id } ?? min(fa, story.acts.count - 1)
                let position = min(fs, story.acts[act].scenes.count)
                var scene = from.acts[fa].scenes[fs]
                scene.tag = Self.keptTag(scene.tag, in: story)
                story.acts[act].scenes.insert(scene, at: position)
                lines.append("brought back scene '\(Story.headingText(from.acts[fa].scenes[fs].header))' as \(act + 1).\(position + 1)")
            }
        }
        story.separateHeadings()
        return (story, lines.isEmpty ? "took no items" : lines.count == 1 ? lines[0] : "took back \(lines.count) items (\(lines.joined(separator: "; ")))")
    }

    static func fieldText(_ field: PluginJSON.RawMember) -> String { PluginJSON.quote(field.key) + ":" + field.value }

    /// An item brought back keeps its id and fields, or gets a new id when the story has given its id to another item.
    static func keptTag(_ tag: ItemTag, in story: Story) -> ItemTag {
        guard story.allIDs.contains(tag.id) else { return tag }
        var fresh = tag
        fresh.id = ItemIdentity.fresh()
        return fresh
    }
}

extension Story {
    /// The tag of the act or scene at `row`.
    func tag(_ row: StoryEditor.Row) -> ItemTag {
        switch row {
        case let .act(a): return acts[a].tag
        case let .scene(a, s): return acts[a].scenes[s].tag
        }
    }

    /// The ids of every act and scene.
    var allIDs: Set<String> { Set(acts.flatMap { [$0.tag.id] + $0.scenes.map(\.tag.id) }) }
}

extension StoryEditor.Row: Hashable {}

extension Story {
    /// Moves the scene with id `scene` to the act with id `act`, at `position` (or its end).
    mutating func moveScene(_ scene: String, toAct act: String, position: Int) {
        guard let a = acts.firstIndex(where: { $0.scenes.contains { $0.tag.id == scene } }),
              let s = acts[a].scenes.firstIndex(where: { $0.tag.id == scene }),
              let target = acts.firstIndex(where: { $0.tag.id == act }) else { return }
        let moving = acts[a].scenes.remove(at: s)
        acts[target].scenes.insert(moving, at: min(max(position, 0), acts[target].scenes.count))
    }
}
