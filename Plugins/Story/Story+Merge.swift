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

    /// Where a scene is and what it holds on one side.
    struct Placed: Equatable {
        var act: String
        var scene: Story.Scene
    }

    /// A scene's identity across the three versions: a base scene (followed through a rename on either side), or
    /// one added (by title, so the same scene added on both sides is one).
    enum SceneID: Hashable, Comparable {
        case base(SceneKey)
        case added(SceneKey)
        static func < (a: SceneID, b: SceneID) -> Bool { a.order < b.order }
        var order: (Int, String, Int) {
            switch self {
            case let .base(key): return (0, key.title, key.occurrence)
            case let .added(key): return (1, key.title, key.occurrence)
            }
        }
        var title: String { switch self { case let .base(key), let .added(key): return key.title } }
    }

    /// Each scene of `side` with its identity: a base scene keeps its title, or was renamed in place (a base scene
    /// missing from the side and a new title at the same act and position); any other scene was added.
    static func identities(base: Story, side: Story) -> [(id: SceneID, placed: Placed)] {
        let baseRecords = base.sceneRecords, sideRecords = side.sceneRecords
        let baseKeys = Set(baseRecords.map(\.key)), sideKeys = Set(sideRecords.map(\.key))
        struct Slot: Hashable { let act: String; let position: Int }
        var missing: [Slot: SceneKey] = [:]
        for (key, record) in baseRecords where !sideKeys.contains(key) { missing[Slot(act: base.acts[record.act].header, position: record.position)] = key }
        return sideRecords.map { key, record in
            let act = side.acts[record.act].header
            let placed = Placed(act: act, scene: record.scene)
            if baseKeys.contains(key) { return (.base(key), placed) }
            if let renamed = missing.removeValue(forKey: Slot(act: act, position: record.position)) { return (.base(renamed), placed) }
            return (.added(key), placed)
        }
    }

    /// The scenes of each merged act, in order.
    static func mergeScenes(base: Story, ours: Story, theirs: Story, acts: [String], conflicts: inout [String]) -> [Int: [Story.Scene]] {
        let baseList = base.sceneRecords.map { (id: SceneID.base($0.key), placed: Placed(act: base.acts[$0.record.act].header, scene: $0.record.scene)) }
        let ourList = identities(base: base, side: ours), theirList = identities(base: base, side: theirs)
        func table(_ list: [(id: SceneID, placed: Placed)]) -> [SceneID: Placed] {
            Dictionary(list.map { ($0.id, $0.placed) }, uniquingKeysWith: { first, _ in first })
        }
        let b = table(baseList), o = table(ourList), t = table(theirList)
        var merged: [SceneID: Placed] = [:]
        for id in Set(b.keys).union(o.keys).union(t.keys).sorted() {
            if let scene = mergeScene(id, b[id], o[id], t[id], &conflicts) { merged[id] = scene }
        }
        func byAct(_ list: [(id: SceneID, placed: Placed)]) -> [String: [SceneID]] { Dictionary(grouping: list, by: \.placed.act).mapValues { $0.map(\.id) } }
        let baseOrder = byAct(baseList), ourOrder = byAct(ourList), theirOrder = byAct(theirList)
        var mergedByAct: [String: [SceneID]] = [:]
        for (id, placed) in merged { mergedByAct[placed.act, default: []].append(id) }
        // A scene kept in an act the other side deleted or renamed has no place: a conflict, never a scene dropped.
        for (id, placed) in merged.sorted(by: { $0.key < $1.key }) where !acts.contains(placed.act) {
            conflicts.append("scene '\(id.title)': in act '\(Story.headingText(placed.act))', which the other side deleted or renamed")
        }
        var result: [Int: [Story.Scene]] = [:]
        for (index, act) in acts.enumerated() {
            let keep = { (id: SceneID) in merged[id]?.act == act }
            guard let ids = orderKeys(base: baseOrder[act] ?? [], ours: ourOrder[act] ?? [], theirs: theirOrder[act] ?? [], keep: keep) else {
                conflicts.append("act '\(Story.headingText(act))': scenes reordered differently on both sides")
                continue
            }
            // Scenes moved into this act that neither side's order placed come last.
            let placedHere = Set(ids)
            let moved = (mergedByAct[act] ?? []).filter { !placedHere.contains($0) }.sorted()
            result[index] = (ids + moved).compactMap { merged[$0]?.scene }
        }
        return result
    }

    /// One scene merged field by field (its act, heading and text); nil when it is gone.
    static func mergeScene(_ id: SceneID, _ b: Placed?, _ o: Placed?, _ t: Placed?, _ conflicts: inout [String]) -> Placed? {
        let name = "scene '\(id.title)'"
        switch (b, o, t) {
        case let (b?, o?, t?):
            let act = merged3(b.act, o.act, t.act, name + " moved", &conflicts) ?? o.act
            let header = merged3(b.scene.header, o.scene.header, t.scene.header, name + " renamed", &conflicts) ?? o.scene.header
            let text = merged3(Story.text(b.scene), Story.text(o.scene), Story.text(t.scene), name + " text", &conflicts)
            let body = text == Story.text(o.scene) ? o.scene.body : t.scene.body
            return Placed(act: act, scene: Story.Scene(header: header, body: body))
        case let (b?, nil, t?):
            if t != b { conflicts.append(name + ": removed by us, changed by them") }
            return nil
        case let (b?, o?, nil):
            if o != b { conflicts.append(name + ": changed by us, removed by them") }
            return nil
        case let (nil, o?, t?):
            if Story.text(o.scene) != Story.text(t.scene) || o.act != t.act { conflicts.append(name + ": added differently on both sides") }
            return o
        case let (nil, o?, nil): return o
        case let (nil, nil, t?): return t
        case (_, nil, nil): return nil
        }
    }

    /// One act's scene order: the side that reordered the common scenes wins, the other side's additions follow
    /// their predecessor; nil when both reordered them differently.
    static func orderKeys(base: [SceneID], ours: [SceneID], theirs: [SceneID], keep: (SceneID) -> Bool) -> [SceneID]? {
        let common = Set(base).intersection(ours).intersection(theirs)
        let baseOrder = base.filter(common.contains), ourOrder = ours.filter(common.contains), theirOrder = theirs.filter(common.contains)
        let skeleton: [SceneID], other: [SceneID]
        if ourOrder == baseOrder { skeleton = theirs; other = ours }
        else if theirOrder == baseOrder || theirOrder == ourOrder { skeleton = ours; other = theirs }
        else { return nil }
        var order = skeleton.filter(keep)
        var placed = Set(order)
        for (index, key) in other.enumerated() where keep(key) && !placed.contains(key) {
            var position = 0
            for look in stride(from: index - 1, through: 0, by: -1) {
                if let at = order.firstIndex(of: other[look]) { position = at + 1; break }
            }
            order.insert(key, at: position)
            placed.insert(key)
        }
        return order
    }
}
