import FolioPluginKit

/// Three-way merge of stories by id (`IdentifiedList.merge`): the acts are one list (their title, text and fields,
/// without their scenes), the scenes one list over the whole story with their act's id as a field — a scene moved to
/// another act is a change of that field and of its place — then the scenes are put back into their acts. A field
/// changed on one side survives; the same field changed differently on both sides, a scene moved to different acts,
/// and an item deleted on one side and changed on the other are conflicts, one line each, naming the item by title.
enum StoryMerge {
    static func merge(base: Story, ours: Story, theirs: Story) -> MergeOutcome<Story> {
        let ours = StoryRelabel.relabeled(ours, from: base), theirs = StoryRelabel.relabeled(theirs, from: base)
        var conflicts: [String] = []
        let head = merged3(base.head, ours.head, theirs.head, "the title and text before the first act", &conflicts) ?? ours.head
        let headTag = mergeHeadTag(base.headTag, ours.headTag, theirs.headTag, &conflicts)
        let sides = Sides(base: base, ours: ours, theirs: theirs)
        let acts = IdentifiedList.merge(base: base.identifiedActs, ours: ours.identifiedActs, theirs: theirs.identifiedActs, label: sides.label)
        var (ourScenes, theirScenes) = (ours.identifiedScenes(), theirs.identifiedScenes())
        conflicts += sides.movedToDifferentActs(&ourScenes, &theirScenes)
        let scenes = IdentifiedList.merge(base: base.identifiedScenes(), ours: ourScenes, theirs: theirScenes, label: sides.label)
        guard case let .merged(actList) = acts, case let .merged(sceneList) = scenes, conflicts.isEmpty else {
            return .conflicts(conflicts + acts.conflictLines + scenes.conflictLines)
        }
        let (regrouped, orphans) = sides.regroup(acts: actList, scenes: sceneList)
        guard orphans.isEmpty else { return .conflicts(orphans) }
        var story = Story(markdown: "")
        story.head = head
        story.headTag = headTag
        story.acts = regrouped
        story.endsWithNewline = ours.endsWithNewline || theirs.endsWithNewline
        story.labelActsByPlace()
        story.separateHeadings()
        return .merged(story)
    }

    /// Three-way merge of one optional value (nil: absent on that side).
    static func merged3<T: Equatable>(_ b: T?, _ o: T?, _ t: T?, _ what: String, _ conflicts: inout [String]) -> T? {
        if o == b { return t }
        if t == b || t == o { return o }
        conflicts.append("\(what): " + (o == nil ? "removed by us, changed by them" : t == nil ? "changed by us, removed by them" : "changed differently on both sides"))
        return o
    }

    /// The story's own fields merged field by field (a newer plugin's, kept as opaque values).
    static func mergeHeadTag(_ b: HeadTag?, _ o: HeadTag?, _ t: HeadTag?, _ conflicts: inout [String]) -> HeadTag? {
        let (fields, clashes) = IdentifiedList.mergeFields(base: b?.fields ?? [], ours: o?.fields ?? [], theirs: t?.fields ?? [])
        conflicts += clashes.map { IdentifiedList.Conflict.field(element: "the story", field: "field \($0.name)", ours: $0.ours, theirs: $0.theirs).description }
        guard !fields.isEmpty || o != nil || t != nil else { return nil }
        let kept = [o, t, b].compactMap { $0 }.first { $0.fields == fields }
        return kept ?? HeadTag(fields: fields, line: o?.line ?? t?.line ?? b?.line ?? 0, read: nil)
    }
}

extension MergeOutcome {
    /// The conflict lines of an outcome (none for a merge).
    var conflictLines: [String] {
        if case let .conflicts(lines) = self { return lines }
        return []
    }
}

extension Story {
    /// An act's title as a merge compares it: without the "Act III:" label, which is its place, not what anyone wrote
    /// (a deletion on one side renumbers the acts after it; the merged story is labelled again).
    static func actTitle(_ header: String) -> String { droppingActLabel(headingText(header)) }
}

/// The field names of a story's records: its own, and `field KEY` for a field a newer plugin wrote.
enum StoryField {
    static let act = "act", title = "title", text = "text"
    static func unknown(_ key: String) -> String { "field " + key }
    static func key(ofUnknown name: String) -> String? { name.hasPrefix("field ") ? String(name.dropFirst(6)) : nil }
}

extension Story {
    /// The acts as records: title, own text and the fields a newer plugin wrote.
    var identifiedActs: [IdentifiedRecord] {
        acts.map { act in
            IdentifiedRecord(id: act.tag.id, fields: [
                .init(key: StoryField.title, value: PluginJSON.quote(Story.actTitle(act.header))),
                .init(key: StoryField.text, value: PluginJSON.quote(Story.text(.init(header: "", body: act.body)).joined(separator: "\n"))),
            ] + act.tag.fields.map { .init(key: StoryField.unknown($0.key), value: $0.value) })
        }
    }

    /// Every scene in story order as a record: its act's id, title, text and the fields a newer plugin wrote.
    func identifiedScenes() -> [IdentifiedRecord] {
        acts.flatMap { act in
            act.scenes.map { scene in
                IdentifiedRecord(id: scene.tag.id, fields: [
                    .init(key: StoryField.act, value: PluginJSON.quote(act.tag.id)),
                    .init(key: StoryField.title, value: PluginJSON.quote(Story.headingText(scene.header))),
                    .init(key: StoryField.text, value: PluginJSON.quote(Story.text(scene).joined(separator: "\n"))),
                ] + scene.tag.fields.map { .init(key: StoryField.unknown($0.key), value: $0.value) })
            }
        }
    }
}

/// The three versions of a merge, for naming items and rebuilding the story from merged records.
struct StoryMergeSides {
    let base: Story, ours: Story, theirs: Story
    private let acts: [[String: Story.Act]]
    private let scenes: [[String: Story.Scene]]

    init(base: Story, ours: Story, theirs: Story) {
        self.base = base
        self.ours = ours
        self.theirs = theirs
        let versions = [base, ours, theirs]
        acts = versions.map { story in Dictionary(story.acts.map { ($0.tag.id, $0) }, uniquingKeysWith: { first, _ in first }) }
        scenes = versions.map { story in
            Dictionary(story.acts.flatMap { $0.scenes.map { ($0.tag.id, $0) } }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// "act 'Act I: Departure'" or "scene 'The Call'": by its title in the base when it was there (the name both
    /// sides knew), else as the record has it.
    func label(_ record: IdentifiedRecord) -> String {
        if let act = acts.lazy.compactMap({ $0[record.id] }).first { return "act '\(Story.headingText(act.header))'" }
        if let scene = scenes.lazy.compactMap({ $0[record.id] }).first { return "scene '\(Story.headingText(scene.header))'" }
        return "'\(record.id)'"
    }

    /// The name of the act `id` in any of the three versions.
    func actName(_ id: String) -> String {
        acts.lazy.compactMap { $0[id] }.first.map { Story.headingText($0.header) } ?? id
    }

    /// A scene both sides moved to different acts is a conflict naming both acts (not their ids); its act field is
    /// then made the same on both sides so that the list merge does not report it again.
    func movedToDifferentActs(_ ourScenes: inout [IdentifiedRecord], _ theirScenes: inout [IdentifiedRecord]) -> [String] {
        let baseActs = Dictionary(base.identifiedScenes().map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let theirIndex = Dictionary(theirScenes.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        var lines: [String] = []
        for record in ourScenes {
            guard let t = theirIndex[record.id], let was = baseActs[record.id]?[StoryField.act],
                  let mine = record[StoryField.act], let their = theirScenes[t][StoryField.act],
                  mine != was, their != was, mine != their else { continue }
            lines.append("\(label(record)): moved to act '\(actName(Self.unquoted(mine)))' by us and to act '\(actName(Self.unquoted(their)))' by them")
            theirScenes[t].fields = theirScenes[t].fields.map { $0.key == StoryField.act ? .init(key: $0.key, value: mine) : $0 }
        }
        return lines
    }

    /// The merged acts with their merged scenes, and a conflict line for each scene whose act one side deleted.
    func regroup(acts actList: [IdentifiedRecord], scenes sceneList: [IdentifiedRecord]) -> ([Story.Act], [String]) {
        var built = actList.map(act)
        let index = Dictionary(built.enumerated().map { ($1.tag.id, $0) }, uniquingKeysWith: { first, _ in first })
        var orphans: [String] = []
        for record in sceneList {
            let owner = record[StoryField.act].map(Self.unquoted) ?? ""
            guard let a = index[owner] else {
                let by = ours.acts.contains { $0.tag.id == owner } ? "them" : "us"
                orphans.append("\(label(record)): its act '\(actName(owner))' was deleted by \(by)")
                continue
            }
            built[a].scenes.append(scene(record))
        }
        return (built, orphans)
    }

    /// An act rebuilt from its merged record: the heading and text lines of the side whose values won.
    private func act(_ record: IdentifiedRecord) -> Story.Act {
        let versions = acts.map { $0[record.id] }
        let header = pick(record[StoryField.title], versions.map { $0.map { (Story.actTitle($0.header), $0.header) } }) ?? ""
        let body = pick(record[StoryField.text], versions.map { $0.map { (Story.text(.init(header: "", body: $0.body)).joined(separator: "\n"), $0.body) } }) ?? [""]
        return Story.Act(header: header, body: body, scenes: [], tag: tag(record, versions.map { $0?.tag }))
    }

    /// A scene rebuilt from its merged record, as `act(_:)` rebuilds an act.
    private func scene(_ record: IdentifiedRecord) -> Story.Scene {
        let versions = scenes.map { $0[record.id] }
        let header = pick(record[StoryField.title], versions.map { $0.map { (Story.headingText($0.header), $0.header) } }) ?? "###"
        let body = pick(record[StoryField.text], versions.map { $0.map { (Story.text($0).joined(separator: "\n"), $0.body) } }) ?? [""]
        return Story.Scene(header: header, body: body, tag: tag(record, versions.map { $0?.tag }))
    }

    /// The lines of the side whose value is `merged` (`candidates`: base, ours, theirs as value and lines); when both
    /// sides have it, the side that changed the lines from the base (ours when both did), so either side merging
    /// gives the same story.
    private func pick<Lines: Equatable>(_ merged: String?, _ candidates: [(value: String, lines: Lines)?]) -> Lines? {
        let matching = candidates.dropFirst().compactMap { $0 }.filter { PluginJSON.quote($0.value) == merged }
        if matching.count == 2, matching[0].lines == candidates[0]?.lines { return matching[1].lines }
        return matching.first?.lines ?? candidates.compactMap { $0 }.first?.lines
    }

    /// The tag of a merged record: its id and the merged unknown fields, those the base had first, in its order, then
    /// the new ones by name (the same whichever side is ours); the comment as read is kept when it still says the same.
    private func tag(_ record: IdentifiedRecord, _ versions: [ItemTag?]) -> ItemTag {
        let unknown = record.fields.compactMap { field in StoryField.key(ofUnknown: field.key).map { PluginJSON.RawMember(key: $0, value: field.value) } }
        var position: [String: Int] = [:]
        for (index, field) in (versions[0]?.fields ?? []).enumerated() where position[field.key] == nil { position[field.key] = index }
        let fields = unknown.filter { position[$0.key] != nil }.sorted { (position[$0.key] ?? 0) < (position[$1.key] ?? 0) }
            + unknown.filter { position[$0.key] == nil }.sorted { $0.key < $1.key }
        let read = versions.dropFirst().compactMap { $0?.read }.first { $0.id == record.id && $0.fields == fields }
        return ItemTag(id: record.id, fields: fields, read: read)
    }

    static func unquoted(_ json: String) -> String {
        if case let .string(text)? = try? PluginJSON.parse(Array(json.utf8)) { return text }
        return json
    }
}

extension StoryMerge {
    typealias Sides = StoryMergeSides
}
