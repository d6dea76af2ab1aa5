/// The kit's side of `folio.items/1`: an editor's `items(of:)`, `matchItems(from:to:)` and `takeItems(_:from:into:)`
/// turned into the extension's list lines and take by keys.
enum KitItems {
    /// The items of `bytes`, each with the key of the same item in `previous` when that is given.
    static func list<E: FolioEditor>(_ editor: E, previous: [UInt8]?, bytes: [UInt8]) throws -> [(item: ItemInfo, previous: String?)] {
        let document = try editor.open(bytes)
        let items = try editor.items(of: document)
        guard let previous else { return items.map { ($0, nil) } }
        let old = try editor.open(previous)
        let oldItems = try editor.items(of: old)
        let matches = try editor.matchItems(from: old, to: document)
        guard matches.count == items.count else { throw EditorFailure(.internal, "matchItems gave \(matches.count) matches for \(items.count) items") }
        return zip(items, matches).map { item, match in
            (item, match.flatMap { oldItems.indices.contains($0) ? oldItems[$0].key : nil })
        }
    }

    /// `into` with the items `fromKeys` of `from` put in place of `intoKeys` ("" for an item gone from `into`).
    static func take<E: FolioEditor>(_ editor: E, from: [UInt8], into: [UInt8], fromKeys: [String], intoKeys: [String]) throws -> ([UInt8], String) {
        guard fromKeys.count == intoKeys.count else { throw EditorFailure.invalidArgument("the item lists differ in length") }
        let source = try editor.open(from), target = try editor.open(into)
        if fromKeys.isEmpty { return (into, "took no items") }
        let sourceIndex = index(try editor.items(of: source)), targetIndex = index(try editor.items(of: target))
        let takes = try zip(fromKeys, intoKeys).map { fromKey, intoKey -> ItemTake in
            guard let from = sourceIndex[fromKey] else { throw EditorFailure.invalidArgument("no item '\(fromKey)' in the version to take from") }
            if intoKey.isEmpty { return ItemTake(from: from, into: nil) }
            guard let into = targetIndex[intoKey] else { throw EditorFailure.invalidArgument("no item '\(intoKey)' in the version to take into") }
            return ItemTake(from: from, into: into)
        }
        let (result, description) = try editor.takeItems(takes, from: source, into: target)
        return (try editor.serialize(result), description)
    }

    /// The list lines: key, previous key, fingerprint and summary, tab-separated (tabs and line breaks in a
    /// summary become spaces).
    static func lines(_ items: [(item: ItemInfo, previous: String?)]) -> String {
        var out = ""
        for (item, previous) in items {
            let summary = String(item.summary.map { $0 == "\t" || $0.isNewline ? " " : $0 })
            out += "\(item.key)\t\(previous ?? "")\t\(item.fingerprint)\t\(summary)\n"
        }
        return out
    }

    private static func index(_ items: [ItemInfo]) -> [String: Int] {
        var index: [String: Int] = [:]
        for (position, item) in items.enumerated() { index[item.key] = position }
        return index
    }
}
