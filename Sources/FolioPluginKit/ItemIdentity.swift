/// Stable identities for the items of a document (`"id"` in the bundled formats), so that versions are compared and
/// merged item by item whatever else moved: a rename is a changed field of the same id, never a guess.
///
/// An id is 1–64 printable ASCII characters without spaces, quotes or backslashes. New items get a random id
/// (`ItemIdentity.fresh()`); an item read from a document written before ids existed gets one derived from its
/// content and its occurrence among equal items (`ItemIdentity.derived(_:occurrence:)`), so the same version gets the
/// same ids on every machine and two clones that migrate independently agree.
public enum ItemIdentity {
    /// The number of characters of the ids Folio makes (60 bits in base 32).
    public static let length = 12

    /// A new random id.
    public static func fresh() -> String {
        var generator = SystemRandomNumberGenerator()
        return encode(generator.next())
    }

    /// The id of an item that had none: a hash of its fields and of how many equal items came before it.
    public static func derived(_ fields: [String], occurrence: Int) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for field in fields + [String(occurrence)] {
            for byte in field.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            hash = (hash ^ 0x1F) &* 0x100_0000_01b3
        }
        return encode(hash)
    }

    /// Whether `text` can be an id as read from a document: 1–64 printable ASCII characters, no space, `"` or `\`.
    public static func isValid(_ text: String) -> Bool {
        !text.utf8.isEmpty && text.utf8.count <= 64 && text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }
    }

    /// Ids for a list read from a document: an item's own id when it is valid and not taken by an earlier item, else
    /// one derived from `fields` (the same on every machine). `ids[i]` is nil for an item without an id.
    public static func assign(_ ids: [String?], fields: [[String]]) -> [String] {
        var taken = Set(ids.compactMap { $0 }.filter(isValid))
        var used = Set<String>()
        var occurrences: [[String]: Int] = [:]
        var result: [String] = []
        result.reserveCapacity(ids.count)
        for (index, id) in ids.enumerated() {
            if let id, isValid(id), used.insert(id).inserted {
                result.append(id)
                continue
            }
            let key = fields[index] + [id ?? ""]
            var occurrence = occurrences[key, default: 0]
            var made = derived(key, occurrence: occurrence)
            while taken.contains(made) || used.contains(made) {
                occurrence += 1
                made = derived(key, occurrence: occurrence)
            }
            occurrences[key] = occurrence + 1
            taken.insert(made)
            used.insert(made)
            result.append(made)
        }
        return result
    }

    /// `id`, or when `taken` holds it one derived from it and `salt` (the same on every machine) that `taken` does not.
    public static func unused(_ id: String, among taken: Set<String>, salt: String) -> String {
        var candidate = id, occurrence = 0
        while taken.contains(candidate) {
            candidate = derived([salt, id], occurrence: occurrence)
            occurrence += 1
        }
        return candidate
    }

    private static func encode(_ value: UInt64) -> String {
        let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789".utf8)  // no l, o, 0, 1
        var bits = value
        var out: [UInt8] = []
        for _ in 0..<length {
            out.append(alphabet[Int(bits & 31)])
            bits >>= 5
        }
        return String(decoding: out, as: UTF8.self)
    }
}
