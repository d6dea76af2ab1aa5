import FolioPluginKit

/// Plain text's items (`folio.items/1`) are its lines, numbered as the view shows them; a line is matched between
/// versions by its text (the k-th equal line with the k-th), a changed line in the same place being the same line.
extension PlainTextEditor {
    func items(of document: TextLines) throws -> [ItemInfo] {
        document.lines.enumerated().map { index, line in
            ItemInfo(key: String(index + 1), fingerprint: ItemInfo.fingerprint([line]), summary: ViewText.fit(line, width: 80))
        }
    }

    func matchItems(from old: TextLines, to new: TextLines) throws -> [Int?] {
        ItemMatcher.match(old: old.lines, new: new.lines)
    }

    /// A line still there is replaced; one gone comes back at its old line number (or at the end).
    func takeItems(_ takes: [ItemTake], from: TextLines, into: TextLines) throws -> (TextLines, String) {
        var document = into
        var lines: [String] = []
        for take in takes {
            guard let target = take.into else { continue }
            document.lines[target] = from.lines[take.from]
            lines.append("put back line \(target + 1) as it was")
        }
        for take in takes.filter({ $0.into == nil }).sorted(by: { $0.from < $1.from }) {
            let position = min(take.from, document.lines.count)
            if document.lines.isEmpty { document.endsWithNewline = from.endsWithNewline }
            document.lines.insert(from.lines[take.from], at: position)
            lines.append("brought back line \(position + 1)")
        }
        return (document, lines.isEmpty ? "took no lines" : lines.count == 1 ? lines[0] : "took back \(lines.count) lines")
    }
}
