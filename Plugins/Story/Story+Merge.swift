import FolioPluginKit

/// Three-way merge of stories scene by scene: edits to different scenes (or to the same scene's text on one side
/// and its place on the other) combine; the same thing changed two ways is a conflict, one line each.
enum StoryMerge {
    static func merge(base: Story, ours: Story, theirs: Story) -> MergeOutcome<Story> {
        var conflicts: [String] = []
        func pick<T: Equatable>(_ b: T, _ o: T, _ t: T, _ what: String) -> T {
            if o == b { return t }
            if t == b || t == o { return o }
            conflicts.append("\(what): changed differently on both sides")
            return o
        }
        let head = pick(base.head, ours.head, theirs.head, "the title and text before the first act")
        let headers = pick(base.acts.map(\.header), ours.acts.map(\.header), theirs.acts.map(\.header), "the acts")
        guard conflicts.isEmpty else { return .conflicts(conflicts) }
        // Acts are matched by heading; an act's own text merges like a scene's.
        func actBody(_ story: Story, _ header: String) -> [String]? { story.acts.first { $0.header == header }?.body }
        var acts: [Story.Act] = []
        for header in headers {
            let body = merged3(actBody(base, header), actBody(ours, header), actBody(theirs, header), "act '\(Story.headingText(header))'", &conflicts)
            acts.append(Story.Act(header: header, body: body ?? [""], scenes: []))
        }
        let scenes = mergeScenes(base: base, ours: ours, theirs: theirs, acts: headers, conflicts: &conflicts)
        guard conflicts.isEmpty else { return .conflicts(conflicts) }
        for (act, list) in scenes { acts[act].scenes = list }
        var story = Story(markdown: "")
        story.head = head
        story.acts = acts
        story.endsWithNewline = ours.endsWithNewline || theirs.endsWithNewline
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

    /// Where each scene ends up: which act (by heading), in which order, with which heading and text.
    struct Placed: Equatable {
        var act: String
        var scene: Story.Scene
    }

    static func placed(_ story: Story) -> [SceneKey: Placed] {
        var table: [SceneKey: Placed] = [:]
        for (key, record) in story.sceneRecords { table[key] = Placed(act: story.acts[record.act].header, scene: record.scene) }
        return table
    }

    /// The scenes of each merged act, in order.
    static func mergeScenes(base: Story, ours: Story, theirs: Story, acts: [String], conflicts: inout [String]) -> [Int: [Story.Scene]] {
        let b = placed(base), o = placed(ours), t = placed(theirs)
        var merged: [SceneKey: Placed] = [:]
        let keys = Set(b.keys).union(o.keys).union(t.keys)
        for key in keys.sorted(by: { ($0.title, $0.occurrence) < ($1.title, $1.occurrence) }) {
            let name = "scene '\(key.title)'"
            switch (b[key], o[key], t[key]) {
            case let (b?, o?, t?):
                let act = merged3(b.act, o.act, t.act, name + " moved", &conflicts) ?? o.act
                let body = merged3(Story.text(b.scene), Story.text(o.scene), Story.text(t.scene), name + " text", &conflicts)
                let scene = body == Story.text(o.scene) ? o.scene : t.scene
                merged[key] = Placed(act: act, scene: scene)
            case let (b?, nil, t?):
                if t != b { conflicts.append(name + ": removed by us, changed by them") }
            case let (b?, o?, nil):
                if o != b { conflicts.append(name + ": changed by us, removed by them") }
            case let (nil, o?, t?):
                if Story.text(o.scene) != Story.text(t.scene) || o.act != t.act { conflicts.append(name + ": added differently on both sides") }
                merged[key] = o
            case let (nil, o?, nil): merged[key] = o
            case let (nil, nil, t?): merged[key] = t
            case (_, nil, nil): break
            }
        }
        var result: [Int: [Story.Scene]] = [:]
        for (index, act) in acts.enumerated() {
            func order(_ story: Story) -> [SceneKey] {
                story.sceneRecords.filter { story.acts[$0.record.act].header == act }.map(\.key)
            }
            let keys = orderKeys(base: order(base), ours: order(ours), theirs: order(theirs), keep: { merged[$0]?.act == act })
            guard let keys else { conflicts.append("act '\(Story.headingText(act))': scenes reordered differently on both sides"); continue }
            // Scenes moved into this act from another act on one side come after those placed by order.
            let moved = merged.filter { $0.value.act == act && !keys.contains($0.key) }.keys.sorted { ($0.title, $0.occurrence) < ($1.title, $1.occurrence) }
            result[index] = (keys + moved).compactMap { merged[$0]?.scene }
        }
        return result
    }

    /// One act's scene order: the side that reordered the common scenes wins, the other side's additions follow
    /// their predecessor; nil when both reordered them differently.
    static func orderKeys(base: [SceneKey], ours: [SceneKey], theirs: [SceneKey], keep: (SceneKey) -> Bool) -> [SceneKey]? {
        let common = Set(base).intersection(ours).intersection(theirs)
        let baseOrder = base.filter(common.contains), ourOrder = ours.filter(common.contains), theirOrder = theirs.filter(common.contains)
        let skeleton: [SceneKey], other: [SceneKey]
        if ourOrder == baseOrder { skeleton = theirs; other = ours }
        else if theirOrder == baseOrder || theirOrder == ourOrder { skeleton = ours; other = theirs }
        else { return nil }
        var order = skeleton.filter(keep)
        for (index, key) in other.enumerated() where keep(key) && !order.contains(key) {
            var position = 0
            for look in stride(from: index - 1, through: 0, by: -1) {
                if let at = order.firstIndex(of: other[look]) { position = at + 1; break }
            }
            order.insert(key, at: position)
        }
        return order
    }
}
