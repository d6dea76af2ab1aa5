import FolioAlgorithms
import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore

/// How a row of a compared version changed.
package enum RowChange: Equatable, Sendable {
    case added, removed, changed, moved

    /// The mark drawn in the row's gutter (also readable without colour).
    package var symbol: String {
        switch self {
        case .added: return "+"
        case .removed: return "-"
        case .changed: return "~"
        case .moved: return "↕"
        }
    }
}

/// One row of two versions drawn side by side: a row of each (nil where the other version has a row the first has
/// not), with how it changed.
package struct AlignedRow: Equatable, Sendable {
    package var old: Int?
    package var new: Int?
    package var change: RowChange?
    package init(old: Int?, new: Int?, change: RowChange?) { self.old = old; self.new = new; self.change = change }
}

/// A run of words in a word-level diff: in both versions, only the old one, or only the new one.
package struct WordRun: Equatable, Sendable {
    package enum Kind: Equatable, Sendable { case same, removed, added }
    package var kind: Kind
    package var text: String
    package init(_ kind: Kind, _ text: String) { self.kind = kind; self.text = text }
}

/// A long text field that changed (a scene's text): the item it belongs to and its words, old and new.
package struct TextFieldChange: Equatable, Sendable {
    /// The item as its row shows it ("1.1 The ordinary world").
    package var item: String
    package var words: [WordRun]
    package init(item: String, words: [WordRun]) { self.item = item; self.words = words }
}

/// Two versions as their editor draws them, their rows aligned and marked, with the word-level changes of long text.
package struct VersionComparison: Equatable, Sendable {
    /// The versions compared (full ids); `new` is the current version when the browser compares with it.
    package var oldID: String
    package var newID: String
    package var old: [String]
    package var new: [String]
    package var rows: [AlignedRow]
    package var textChanges: [TextFieldChange]
    /// The editor's own description of the change (its semantic diff), empty when it has none.
    package var summary: [String]
    /// Why a version is drawn as text rather than by an editor, when it is.
    package var note: String?

    package init(oldID: String, newID: String, old: [String], new: [String], rows: [AlignedRow], textChanges: [TextFieldChange] = [],
                summary: [String] = [], note: String? = nil) {
        self.oldID = oldID; self.newID = newID; self.old = old; self.new = new; self.rows = rows
        self.textChanges = textChanges; self.summary = summary; self.note = note
    }

    /// The rows of one version alone, with their marks (for a terminal too narrow for both).
    package func rows(of side: HistoryPreview.Side) -> [(line: String, change: RowChange?)] {
        rows.compactMap { row in
            switch side {
            case .old: return row.old.map { (old[$0], row.change) }
            case .new: return row.new.map { (new[$0], row.change) }
            }
        }
    }
}

extension VersionComparison {
    /// The comparison of two views: rows aligned and marked; then, for items whose text shown under the cursor
    /// (`detail`: the version's view with that item selected, nil when it has none) differs, a word-level diff; the
    /// first item that shows no text in either version ends the search (the editor shows none).
    /// Items the editor's description (`summary`) names in quotes are checked too, so a rewrite that keeps the row
    /// as it was ("12 words" before and after) is still found. At most `maximumTextChanges` items are examined;
    /// `isStale` stops the work between editor calls when the answer is no longer wanted.
    package static func make(oldID: String, newID: String, old: [String], new: [String], summary: [String] = [], note: String? = nil,
                            itemMarks: ItemMarks? = nil, isStale: () -> Bool = { false },
                            detail: (HistoryPreview.Side, Int) throws -> [String]?) rethrows -> VersionComparison {
        var rows = RowAlignment.align(old: old, new: new)
        // The editor's own item list, when it has one, says exactly which items were added, changed, moved or removed.
        itemMarks?.apply(to: &rows, old: old, new: new)
        // A description naming many items (a bulk change) gives no hint worth a search of every row.
        let quoted = quotedNames(summary).filter { !$0.isEmpty }
        let names = quoted.count <= 20 ? quoted : []
        var textChanges: [TextFieldChange] = []
        var examined = 0
        for index in rows.indices where examined < maximumTextChanges {
            let row = rows[index]
            guard let o = row.old, let n = row.new, ViewLines.itemPath(old[o]) != nil, ViewLines.itemPath(new[n]) != nil else { continue }
            guard row.change == .changed || row.change == .moved || (row.change == nil && names.contains { new[n].contains($0) }) else { continue }
            if isStale() { break }
            examined += 1
            let before = try detail(.old, o) ?? [], after = try detail(.new, n) ?? []
            // A view that shows nothing under the selected item (a checklist) has no text to compare: stop asking.
            if before.isEmpty, after.isEmpty { break }
            guard before != after else { continue }
            if row.change == nil { rows[index].change = .changed }
            textChanges.append(TextFieldChange(item: RowAlignment.name(new[n]), words: WordDiff.runs(from: WordDiff.words(before), to: WordDiff.words(after))))
        }
        return VersionComparison(oldID: oldID, newID: newID, old: old, new: new, rows: rows, textChanges: textChanges, summary: summary, note: note)
    }

    /// The most items whose text is compared word by word in one comparison (each costs two editor renders).
    package static let maximumTextChanges = 8

    /// The names an editor's description quotes: "changed the text of scene 'Dusk' (…)" → ["Dusk"].
    static func quotedNames(_ lines: [String]) -> [String] {
        lines.prefix(200).flatMap { line -> [String] in
            let parts = line.split(separator: "'", omittingEmptySubsequences: false)
            return stride(from: 1, to: parts.count - 1, by: 2).map { String(parts[$0]) }
        }
    }
}

/// Aligns two views row by row: rows that stay pair up, an item row found elsewhere is moved, rows left between two
/// that stay are changed (side by side) or added and removed.
package enum RowAlignment {
    /// What a row is matched by: an item row without its cursor marker and number (inserting an item renumbers every
    /// row below it, which is not a change of those items) but with the position of its parent in an outline (a
    /// scene that went to another act did change), any other row as it is.
    package static func key(_ line: String) -> String {
        guard let path = ViewLines.itemPath(line) else { return line }
        return path.dropLast().map(String.init).joined(separator: ".") + "|" + label(line)
    }

    /// An item row as a name: without its cursor marker, the gaps that line up its columns shown as " — "
    /// ("  1.1 The ordinary world     16 words" → "1.1 The ordinary world — 16 words").
    package static func name(_ line: String) -> String {
        let text = line.drop { $0 == ">" || $0 == " " || $0 == "›" }
        return text.split(separator: "  ", omittingEmptySubsequences: true).map { $0.trimming(.whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " — ")
    }

    /// An item row's text after its number ("  3 [x] Milk" → "[x] Milk"); the row itself for other rows.
    package static func label(_ line: String) -> String {
        guard ViewLines.itemPath(line) != nil else { return line.trimming(.whitespaces) }
        let scalars = Substring(line).unicodeScalars.drop { $0 == ">" || $0 == " " || $0 == "›" }.drop { ("0"..."9").contains($0) || $0 == "." }
        return String(String.UnicodeScalarView(scalars)).trimming(.whitespaces)
    }

    /// The rows of both views in order: rows that stay side by side; between two of them, rows of the same outline
    /// level side by side as changed, the rest added or removed; an item row found on both sides but not kept in
    /// place moved (on each side where it is).
    package static func align(old: [String], new: [String]) -> [AlignedRow] {
        let oldKeys = old.map(key), newKeys = new.map(key)
        let kept = CommonRows.pairs(oldKeys, newKeys)
        let (movedOld, movedNew) = moves(old: old, new: new, kept: kept)
        // Pairs in order: those kept, and between them the changed ones.
        var pairs: [(old: Int, new: Int, change: RowChange?)] = []
        var i = 0, j = 0
        for (pi, pj) in kept + [(old.count, new.count)] {
            let gapOld = (i..<pi).filter { !movedOld.contains($0) }, gapNew = (j..<pj).filter { !movedNew.contains($0) }
            pairs += changedPairs(gapOld.map { ($0, depth(old[$0])) }, gapNew.map { ($0, depth(new[$0])) }).map { ($0.0, $0.1, .changed) }
            if pi < old.count, pj < new.count { pairs.append((pi, pj, nil)) }
            i = pi + 1; j = pj + 1
        }
        var rows: [AlignedRow] = []
        i = 0; j = 0
        for pair in pairs + [(old.count, new.count, nil)] {
            for o in i..<max(i, pair.old) { rows.append(AlignedRow(old: o, new: nil, change: movedOld.contains(o) ? .moved : .removed)) }
            for n in j..<max(j, pair.new) { rows.append(AlignedRow(old: nil, new: n, change: movedNew.contains(n) ? .moved : .added)) }
            if pair.old < old.count, pair.new < new.count { rows.append(AlignedRow(old: pair.old, new: pair.new, change: pair.change)) }
            i = pair.old + 1; j = pair.new + 1
        }
        return rows
    }

    static func depth(_ line: String) -> Int { ViewLines.itemPath(line)?.count ?? 0 }

    /// Item rows left over on both sides with the same text (whatever their number and parent) moved.
    static func moves(old: [String], new: [String], kept: [(Int, Int)]) -> (old: Set<Int>, new: Set<Int>) {
        let keptOld = Set(kept.map(\.0)), keptNew = Set(kept.map(\.1))
        var waiting: [String: [Int]] = [:]
        for j in new.indices.reversed() where !keptNew.contains(j) && ViewLines.itemPath(new[j]) != nil { waiting[label(new[j]), default: []].append(j) }
        var movedOld = Set<Int>(), movedNew = Set<Int>()
        for i in old.indices where !keptOld.contains(i) && ViewLines.itemPath(old[i]) != nil {
            guard let n = waiting[label(old[i])]?.popLast() else { continue }
            movedOld.insert(i)
            movedNew.insert(n)
        }
        return (movedOld, movedNew)
    }

    /// Rows of the same level paired in order (an act with an act, a scene with a scene, a header with a header).
    static func changedPairs(_ old: [(Int, Int)], _ new: [(Int, Int)]) -> [(Int, Int)] {
        var pairs: [(Int, Int)] = []
        var next = 0
        for (o, level) in old {
            guard let m = new[next...].firstIndex(where: { $0.1 == level }) else { continue }
            pairs.append((o, new[m].0))
            next = m + 1
        }
        return pairs
    }
}

/// The longest common subsequence of two lists of keys, as index pairs in order: common ends first, then dynamic
/// programming when the middle is small, else the keys unique to both sides in order (patience), recursively.
enum CommonRows {
    /// The largest middle compared cell by cell (rows × rows); beyond it patience anchors are used.
    static let cellLimit = 4_000_000

    static func pairs<T: Hashable>(_ a: [T], _ b: [T]) -> [(Int, Int)] {
        var result: [(Int, Int)] = []
        collect(a, 0..<a.count, b, 0..<b.count, into: &result, depth: 0)
        return result
    }

    private static func collect<T: Hashable>(_ a: [T], _ ra: Range<Int>, _ b: [T], _ rb: Range<Int>, into result: inout [(Int, Int)], depth: Int) {
        var lo = (ra.lowerBound, rb.lowerBound), hi = (ra.upperBound, rb.upperBound)
        while lo.0 < hi.0, lo.1 < hi.1, a[lo.0] == b[lo.1] { result.append(lo); lo = (lo.0 + 1, lo.1 + 1) }
        var tail: [(Int, Int)] = []
        while hi.0 > lo.0, hi.1 > lo.1, a[hi.0 - 1] == b[hi.1 - 1] { hi = (hi.0 - 1, hi.1 - 1); tail.append(hi) }
        let n = hi.0 - lo.0, m = hi.1 - lo.1
        if n > 0, m > 0 {
            if n * m <= cellLimit { dynamic(a, lo.0..<hi.0, b, lo.1..<hi.1, into: &result) }
            else if depth < 32 { patience(a, lo.0..<hi.0, b, lo.1..<hi.1, into: &result, depth: depth) }
        }
        result += tail.reversed()
    }

    private static func dynamic<T: Hashable>(_ a: [T], _ ra: Range<Int>, _ b: [T], _ rb: Range<Int>, into result: inout [(Int, Int)]) {
        let n = ra.count, m = rb.count
        var table = [Int32](repeating: 0, count: (n + 1) * (m + 1))
        for x in stride(from: n - 1, through: 0, by: -1) {
            for y in stride(from: m - 1, through: 0, by: -1) {
                table[x * (m + 1) + y] = a[ra.lowerBound + x] == b[rb.lowerBound + y] ? table[(x + 1) * (m + 1) + y + 1] + 1
                    : max(table[(x + 1) * (m + 1) + y], table[x * (m + 1) + y + 1])
            }
        }
        var x = 0, y = 0
        while x < n, y < m {
            if a[ra.lowerBound + x] == b[rb.lowerBound + y] { result.append((ra.lowerBound + x, rb.lowerBound + y)); x += 1; y += 1 }
            else if table[(x + 1) * (m + 1) + y] >= table[x * (m + 1) + y + 1] { x += 1 } else { y += 1 }
        }
    }

    private static func patience<T: Hashable>(_ a: [T], _ ra: Range<Int>, _ b: [T], _ rb: Range<Int>, into result: inout [(Int, Int)], depth: Int) {
        var countA: [T: Int] = [:], countB: [T: Int] = [:], whereB: [T: Int] = [:]
        for x in ra { countA[a[x], default: 0] += 1 }
        for y in rb { countB[b[y], default: 0] += 1; whereB[b[y]] = y }
        let candidates = ra.compactMap { x -> (Int, Int)? in
            countA[a[x]] == 1 && countB[a[x]] == 1 ? whereB[a[x]].map { (x, $0) } : nil
        }
        let anchors = increasingRun(candidates)
        guard !anchors.isEmpty else { return }  // nothing in common that is unique: all of it changed
        var start = (ra.lowerBound, rb.lowerBound)
        for anchor in anchors {
            collect(a, start.0..<anchor.0, b, start.1..<anchor.1, into: &result, depth: depth + 1)
            result.append(anchor)
            start = (anchor.0 + 1, anchor.1 + 1)
        }
        collect(a, start.0..<ra.upperBound, b, start.1..<rb.upperBound, into: &result, depth: depth + 1)
    }

    /// The longest run of `pairs` (in order of their first index) whose second indices increase.
    static func increasingRun(_ pairs: [(Int, Int)]) -> [(Int, Int)] {
        IncreasingRun.positions(pairs.map(\.1)).map { pairs[$0] }
    }
}

/// A word-level diff of two texts: the words of both, runs of the old ones and the new ones kept apart.
package enum WordDiff {
    /// The words of a field's text as its view shows it: a rule line ("── 1.1 Dusk ───") is left out and a bar
    /// before each line ("│ ") too, so only the text's own words are compared.
    package static func words(_ lines: [String]) -> [String] {
        lines.filter { !$0.hasPrefix("──") }.flatMap { line -> [Substring] in
            let text = line.drop { $0 == "│" || $0 == "|" }
            return text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        }.map(String.init)
    }

    /// The runs from `old` to `new`: words in both, removed, added; a removal comes before the addition that took
    /// its place.
    package static func runs(from old: [String], to new: [String]) -> [WordRun] {
        let pairs = CommonRows.pairs(old, new)
        var runs: [WordRun] = []
        func add(_ kind: WordRun.Kind, _ word: String) {
            if let last = runs.last, last.kind == kind { runs[runs.count - 1].text += " " + word } else { runs.append(WordRun(kind, word)) }
        }
        var i = 0, j = 0
        for (pi, pj) in pairs + [(old.count, new.count)] {
            while i < pi { add(.removed, old[i]); i += 1 }
            while j < pj { add(.added, new[j]); j += 1 }
            if pi < old.count, pj < new.count { add(.same, old[pi]); i = pi + 1; j = pj + 1 }
        }
        return runs
    }
}
