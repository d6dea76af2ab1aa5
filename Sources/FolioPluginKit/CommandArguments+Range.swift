extension CommandArguments {
    /// The items (from 1) among `count` that the argument at `index` names — one number, or a range "A-B" (both
    /// ends included, either order) — returned as 0-based indices. This is what the editor host sends for a
    /// selection, and what `folio edit` accepts, so a command on a range is one change.
    public func items(_ index: Int, _ name: String, count: Int) throws -> ClosedRange<Int> {
        let raw = try text(index, name)
        let parts = raw.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            let single = try item(index, name, count: count)
            return single...single
        }
        let ends = parts.map { CommandArguments([String($0)], usage: usage) }
        let first = try ends[0].item(0, name, count: count), last = try ends[1].item(0, name, count: count)
        return min(first, last)...max(first, last)
    }

    /// One item (0-based) at `index`; a range there is refused, naming `name` (for commands on a single item).
    public func singleItem(_ index: Int, _ name: String, count: Int) throws -> Int {
        let range = try items(index, name, count: count)
        guard range.count == 1 else {
            throw EditorFailure.invalidArgument("\(name) must be one item, got the range \(range.lowerBound + 1)-\(range.upperBound + 1)")
        }
        return range.lowerBound
    }
}
