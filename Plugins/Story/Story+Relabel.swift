import FolioPluginKit

/// Before a merge, the items of a side whose ids were not stored (written by a Folio before ids, or an old Folio's
/// rename that dropped a heading's comment) take the ids of the base's items by today's guess, so that old and new
/// clones still merge: acts by title (without their "Act II:" label) and occurrence, then by position; scenes by
/// title and occurrence, then by act and position. Only base ids the side does not hold already are given out.
enum StoryRelabel {
    static func relabeled(_ side: Story, from base: Story) -> Story {
        guard !side.idsAllStored else { return side }
        var story = side
        var held = Set<String>()
        for act in story.acts {
            if act.tag.isStored { held.insert(act.tag.id) }
            for scene in act.scenes where scene.tag.isStored { held.insert(scene.tag.id) }
        }
        relabelActs(&story, from: base, held: &held)
        relabelScenes(&story, from: base, held: &held)
        return story
    }

    private static func relabelActs(_ story: inout Story, from base: Story, held: inout Set<String>) {
        let free = base.acts.indices.filter { !held.contains(base.acts[$0].tag.id) }
        let loose = story.acts.indices.filter { !story.acts[$0].tag.isStored }
        func key(_ act: Story.Act) -> String { Story.droppingActLabel(Story.headingText(act.header)) }
        let pairs = pair(free: free.map { (key(base.acts[$0]), $0) }, loose: loose.map { (key(story.acts[$0]), $0) })
        held.formUnion(pairs.compactMap { $0.map { base.acts[free[$0]].tag.id } })
        for (n, a) in loose.enumerated() {
            story.acts[a].tag.id = pairs[n].map { base.acts[free[$0]].tag.id } ?? unique(story.acts[a].tag.id, held)
            held.insert(story.acts[a].tag.id)
        }
    }

    private static func relabelScenes(_ story: inout Story, from base: Story, held: inout Set<String>) {
        struct Slot: Hashable { let act: String; let position: Int }
        func entries(_ story: Story, _ keep: (Story.Scene) -> Bool) -> [(key: String, slot: Slot, a: Int, s: Int)] {
            story.acts.indices.flatMap { a in
                story.acts[a].scenes.indices.filter { keep(story.acts[a].scenes[$0]) }.map { s in
                    (Story.headingText(story.acts[a].scenes[s].header), Slot(act: story.acts[a].tag.id, position: s), a, s)
                }
            }
        }
        let free = entries(base) { !held.contains($0.tag.id) }
        let loose = entries(story) { !$0.tag.isStored }
        let pairs = pair(free: free.map { ($0.key, $0.slot) }, loose: loose.map { ($0.key, $0.slot) })
        held.formUnion(pairs.compactMap { $0.map { base.acts[free[$0].a].scenes[free[$0].s].tag.id } })
        for (n, entry) in loose.enumerated() {
            let current = story.acts[entry.a].scenes[entry.s].tag.id
            story.acts[entry.a].scenes[entry.s].tag.id = pairs[n].map { base.acts[free[$0].a].scenes[free[$0].s].tag.id } ?? unique(current, held)
            held.insert(story.acts[entry.a].scenes[entry.s].tag.id)
        }
    }

    /// For each loose item, the index in `free` of the base item it is: the k-th equal key with the k-th, then an
    /// unpaired one in the same slot.
    static func pair<Slot: Hashable>(free: [(key: String, slot: Slot)], loose: [(key: String, slot: Slot)]) -> [Int?] {
        func occurrences(_ keys: [String]) -> [String] {
            var seen: [String: Int] = [:]
            return keys.map { key in
                let count = seen[key, default: 0]
                seen[key] = count + 1
                return key + "\u{0}" + String(count)
            }
        }
        var byKey: [String: Int] = [:]
        for (index, key) in occurrences(free.map(\.key)).enumerated() { byKey[key] = index }
        var result: [Int?] = occurrences(loose.map(\.key)).map { byKey[$0] }
        let taken = Set(result.compactMap { $0 })
        var bySlot: [Slot: Int] = [:]
        for (index, item) in free.enumerated() where !taken.contains(index) && bySlot[item.slot] == nil { bySlot[item.slot] = index }
        for (index, item) in loose.enumerated() where result[index] == nil {
            result[index] = bySlot.removeValue(forKey: item.slot)
        }
        return result
    }

    /// `id`, or one derived from it (the same on every machine) when another item holds it already.
    static func unique(_ id: String, _ held: Set<String>) -> String {
        ItemIdentity.unused(id, among: held, salt: "relabel")
    }
}
