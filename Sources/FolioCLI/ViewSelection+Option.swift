import FolioPlugins

extension ViewSelection {
    /// `folio edit --selection`: `N` (the cursor on item N) or `A-B` (a range from A to the cursor on B), items from
    /// 1 as the editor shows them.
    static func parse(option text: String) throws -> ViewSelection {
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        let numbers = parts.map { Int($0).flatMap { $0 >= 1 ? $0 : nil } }
        guard (1...2).contains(numbers.count), let cursor = numbers.last ?? nil, let anchor = numbers.count == 2 ? numbers[0] : 0 else {
            throw UsageError("option --selection needs an item number N or a range A-B (items from 1), got '\(text)'")
        }
        return ViewSelection(cursor: cursor, anchor: anchor)
    }
}
