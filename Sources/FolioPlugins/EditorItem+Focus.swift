import FolioAlgorithms
import FolioCore

/// Which item a command acted on, found from the editor's own items (`folio.items/1`) before and after it — so the
/// editor host can put the cursor there (on the item added, moved, renamed; after a delete, on the next one) with no
/// change to the plugin ABI: the commit message stays the plugin's description, and every bundled editor lists items.
extension EditorItem {
    /// The index in `after` (items of the new version listed against the old one, `items(of:previous:)`) of the item a
    /// command acted on, given `before` (the old version's items) and `cursor`, the old index of the item the
    /// command was run on (nil when none). In order: the first item added; the cursor's item when it changed or
    /// changed place; the first item changed; the first item that moved (not among those that kept their order);
    /// after a removal, the item that followed the first one removed (else the last). Nil when nothing changed or
    /// nothing is left.
    public static func focus(after: [EditorItem], before: [EditorItem], cursor: Int? = nil) -> Int? {
        guard !after.isEmpty else { return nil }
        var oldIndex: [String: Int] = [:]
        for (index, item) in before.enumerated() where oldIndex[item.key] == nil { oldIndex[item.key] = index }
        var matched: [(new: Int, old: Int)] = []
        for (index, item) in after.enumerated() {
            guard let previous = item.previous, let old = oldIndex[previous] else { return index }  // added
            matched.append((index, old))
        }
        let changed = { (pair: (new: Int, old: Int)) in after[pair.new].fingerprint != before[pair.old].fingerprint }
        if let cursor, let pair = matched.first(where: { $0.old == cursor }), changed(pair) || pair.new != pair.old { return pair.new }
        if let pair = matched.first(where: changed) { return pair.new }
        let stay = Set(IncreasingRun.positions(matched.map(\.old)))
        if let moved = matched.indices.first(where: { !stay.contains($0) }) { return matched[moved].new }
        let kept = Set(matched.map(\.old))
        guard let gone = before.indices.first(where: { !kept.contains($0) }) else { return nil }
        return matched.first(where: { $0.old > gone })?.new ?? after.count - 1
    }
}
