import FolioAlgorithms

/// One item of a document as an editor lists it for `folio.items/1`: its key as the view numbers it, a fingerprint
/// of its content and a short summary.
public struct ItemInfo: Sendable, Equatable {
    /// The item's number as the view shows it ("3", "1.2"): unique in the document, no spaces.
    public var key: String
    /// Changes whenever the item's content changes, not when only its position does (`ItemInfo.fingerprint(_:)`).
    public var fingerprint: String
    /// One short line saying what the item is ("[x] Milk").
    public var summary: String

    /// Creates an item record.
    public init(key: String, fingerprint: String, summary: String) {
        self.key = key
        self.fingerprint = fingerprint
        self.summary = summary
    }

    /// A fingerprint of an item's fields: 64-bit FNV-1a of each field and a separator, as 16 hex digits.
    public static func fingerprint(_ fields: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for field in fields {
            for byte in field.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            hash = (hash ^ 0x1F) &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// One item to take from a version into another: its index in `from`, and the index of the same item in `into`
/// (nil when it is gone there: put it back at its old position, or the nearest valid one).
public struct ItemTake: Sendable, Equatable {
    public var from: Int
    public var into: Int?
    /// Creates a take.
    public init(from: Int, into: Int?) { self.from = from; self.into = into }
}

extension FolioExtension {
    /// The items of a version and taking items from one version into another (`folio.items/1`).
    public static let items = "folio.items/1"
    /// A command's arguments as the item has them now, for its form to start from (`folio.argument-values/1`, ABI 1.2).
    public static let argumentValues = "folio.argument-values/1"
}

extension FolioEditor {
    /// No values: the form starts from what the host knows (the cursor's position, the item's title).
    public func argumentValues(for command: String, in document: Document, selection: Selection) throws -> [String?]? { nil }
}

/// Matches the items of two versions by a text that names each (a title, a line): the k-th equal name in one version
/// is the k-th in the other; of the rest, an unmatched item in the same slot (after the same item that kept its
/// place) in both versions is the same item changed (a rename), the others were added or removed. The checklist's
/// semantic diff reads changes the same way.
public enum ItemMatcher {
    /// For each of `new`, the index in `old` of the same item, or nil when it is new.
    public static func match(old: [String], new: [String]) -> [Int?] {
        let oldKeys = occurrenceKeys(old), newKeys = occurrenceKeys(new)
        var newIndex: [Key: Int] = [:]
        for (index, key) in newKeys.enumerated() { newIndex[key] = index }
        var oldToNew = [Int?](repeating: nil, count: old.count)
        var newToOld = [Int?](repeating: nil, count: new.count)
        for (index, key) in oldKeys.enumerated() {
            if let j = newIndex[key] { oldToNew[index] = j; newToOld[j] = index }
        }
        // Items that kept their relative order anchor the slots; on a tie the earlier ones stay.
        let stay = Set(longestIncreasingSubsequence(oldToNew.compactMap { $0 }.reversed().map { -$0 }).map { -$0 })
        var removedBySlot: [Int: [Int]] = [:]
        var anchor = -1
        for (index, match) in oldToNew.enumerated() {
            if let match { if stay.contains(match) { anchor = match } } else { removedBySlot[anchor, default: []].append(index) }
        }
        anchor = -1
        var slotUse: [Int: Int] = [:]
        for index in new.indices {
            if newToOld[index] != nil {
                if stay.contains(index) { anchor = index }
                continue
            }
            let use = slotUse[anchor, default: 0]
            if let candidates = removedBySlot[anchor], use < candidates.count {
                newToOld[index] = candidates[use]
                slotUse[anchor] = use + 1
            }
        }
        return newToOld
    }

    private struct Key: Hashable { let name: String; let occurrence: Int }

    private static func occurrenceKeys(_ names: [String]) -> [Key] {
        var seen: [String: Int] = [:]
        return names.map { name in
            let occurrence = seen[name, default: 0]
            seen[name] = occurrence + 1
            return Key(name: name, occurrence: occurrence)
        }
    }

    /// The values of the longest strictly increasing subsequence (patience sorting, O(n log n); `IncreasingRun`).
    public static func longestIncreasingSubsequence(_ values: [Int]) -> [Int] {
        IncreasingRun.positions(values).map { values[$0] }
    }
}

/// The parts of `FolioEditor` for `folio.items/1`, with defaults for editors without it.
extension FolioEditor {
    public func items(of document: Document) throws -> [ItemInfo] {
        throw EditorFailure(.unsupported, "\(spec.id) does not list items")
    }
    public func matchItems(from old: Document, to new: Document) throws -> [Int?] {
        throw EditorFailure(.unsupported, "\(spec.id) does not list items")
    }
    public func takeItems(_ takes: [ItemTake], from: Document, into: Document) throws -> (Document, String) {
        throw EditorFailure(.unsupported, "\(spec.id) cannot take items from another version")
    }
}
