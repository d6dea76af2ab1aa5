import FolioPluginKit

/// An act's or a scene's identity as the Markdown holds it: a Folio comment at the end of its heading,
/// `### The Call <!-- folio {"id":"k3mxq8bz2rtw"} -->`, invisible where Markdown is rendered and never shown in the
/// view. The comment's JSON object holds the id and any fields a newer Story plugin wrote, each kept as the exact text
/// of its value. A heading without a comment (today's format, or Markdown written by others) gets an id derived from
/// its content on read (`ItemIdentity.assign`), the same on every machine.
struct ItemTag: Equatable {
    /// The item's id (`ItemIdentity`); empty until the story assigns it.
    var id = ""
    /// The comment's members other than `"id"`, in the order read.
    var fields: [PluginJSON.RawMember] = []
    /// The comment as read, written back unchanged while the id and fields are the ones it held; nil when there was none.
    var read: Read?

    /// A comment as the document had it.
    struct Read: Equatable {
        /// The white space before the comment and the comment, exactly as read.
        var text: String
        /// Its `"id"`, when that is a valid id (`ItemIdentity.isValid`).
        var id: String?
        var fields: [PluginJSON.RawMember]
    }

    /// Whether the id was read from the document (not derived, not made by a command).
    var isStored: Bool { read?.id != nil && read?.id == id }

    /// A tag with a new random id, for an item a command adds.
    static func fresh() -> ItemTag { ItemTag(id: ItemIdentity.fresh()) }

    /// The comment to write after the heading: as read when nothing changed, else made from the id and fields.
    var written: String {
        if let read, read.id == id, read.fields == fields { return read.text }
        return " " + Self.comment(ItemTag.object(id: id, fields: fields))
    }

    static let opening = "<!-- folio "
    static let closing = " -->"

    static func comment(_ object: String) -> String { opening + object + closing }

    /// The JSON object of a tag: the id first, then the other fields with their values' text as kept.
    static func object(id: String?, fields: [PluginJSON.RawMember]) -> String {
        var members = id.map { ["\"id\":" + PluginJSON.quote($0)] } ?? []
        members += fields.map { PluginJSON.quote($0.key) + ":" + $0.value }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// `line` split into the heading without its Folio comment (a trailing "\r" kept) and the comment; the line
    /// itself and nil when it ends with none, or with one whose JSON is not one object.
    static func split(_ line: String) -> (header: String, read: Read?) {
        let cr = line.hasSuffix("\r")
        let core = cr ? String(line.dropLast()) : line
        guard core.hasSuffix(closing), let start = lastStart(of: " " + opening, in: core) else { return (line, nil) }
        var head = core[..<start]
        while head.last == " " || head.last == "\t" { head = head.dropLast() }
        let from = core.utf8.index(start, offsetBy: opening.utf8.count + 1), to = core.utf8.index(core.endIndex, offsetBy: -closing.utf8.count)
        guard from <= to, let read = parse(core[from..<to], text: String(core[head.endIndex...])) else { return (line, nil) }
        return (String(head) + (cr ? "\r" : ""), read)
    }

    /// Where the last occurrence of `needle` in `text` starts (compared byte for byte); nil when there is none.
    static func lastStart(of needle: String, in text: String) -> String.Index? {
        let bytes = Array(text.utf8), pattern = Array(needle.utf8)
        guard bytes.count >= pattern.count else { return nil }
        for offset in stride(from: bytes.count - pattern.count, through: 0, by: -1) where bytes[offset..<offset + pattern.count].elementsEqual(pattern) {
            return text.utf8.index(text.utf8.startIndex, offsetBy: offset)
        }
        return nil
    }

    /// The comment's object read: its valid id and its other members; nil when `json` is not one JSON object.
    static func parse(_ json: Substring, text: String) -> Read? {
        guard let members = PluginJSON.rawMembers(Array(json.utf8)[...]) else { return nil }
        var id: String?
        if let raw = members.first(where: { $0.key == "id" })?.value,
           case let .string(value)? = try? PluginJSON.parse(Array(raw.utf8)), ItemIdentity.isValid(value) {
            id = value
        }
        return Read(text: text, id: id, fields: members.filter { $0.key != "id" })
    }

    /// `line` (with its "\r", if any) followed by this tag's comment.
    func appended(to line: String) -> String {
        line.hasSuffix("\r") ? String(line.dropLast()) + written + "\r" : line + written
    }
}

/// The story's own fields a newer plugin wrote, on a line of their own before the first act:
/// `<!-- folio {"…":…} -->`. Kept as read, and written back where they were.
struct HeadTag: Equatable {
    var fields: [PluginJSON.RawMember]
    /// The line's index among the head's lines (without it).
    var line: Int
    /// The line as read; nil when the fields were made by a merge.
    var read: String?

    var written: String {
        if let read, let parsed = Self.parse(read), parsed == fields { return read }
        return ItemTag.comment(ItemTag.object(id: nil, fields: fields))
    }

    /// The fields of a head line that is one Folio comment, nil for any other line.
    static func parse(_ line: String) -> [PluginJSON.RawMember]? {
        let core = line.hasSuffix("\r") ? line.dropLast() : Substring(line)
        guard core.hasPrefix(ItemTag.opening), core.hasSuffix(ItemTag.closing), core.count >= ItemTag.opening.count + ItemTag.closing.count else { return nil }
        let json = core.dropFirst(ItemTag.opening.count).dropLast(ItemTag.closing.count)
        return PluginJSON.rawMembers(Array(json.utf8)[...])
    }
}

extension Story {
    /// Takes the Folio comments off the headings and the head, and gives every act and scene its id: the one the
    /// document holds when it is valid and not an earlier item's, else one derived from the item's content.
    mutating func readTags() {
        if let index = head.firstIndex(where: { HeadTag.parse($0) != nil }), let fields = HeadTag.parse(head[index]) {
            headTag = HeadTag(fields: fields, line: index, read: head.remove(at: index))
        }
        var stored: [String?] = []
        var fields: [[String]] = []
        for a in acts.indices {
            (acts[a].header, acts[a].tag.read) = ItemTag.split(acts[a].header)
            acts[a].tag.fields = acts[a].tag.read?.fields ?? []
            stored.append(acts[a].tag.read?.id)
            fields.append(["act", Story.headingText(acts[a].header)] + Story.text(.init(header: "", body: acts[a].body)))
            for s in acts[a].scenes.indices {
                let scene = acts[a].scenes[s]
                (acts[a].scenes[s].header, acts[a].scenes[s].tag.read) = ItemTag.split(scene.header)
                acts[a].scenes[s].tag.fields = acts[a].scenes[s].tag.read?.fields ?? []
                stored.append(acts[a].scenes[s].tag.read?.id)
                fields.append(["scene", Story.headingText(acts[a].scenes[s].header)] + Story.text(acts[a].scenes[s]))
            }
        }
        var ids = ItemIdentity.assign(stored, fields: fields).makeIterator()
        for a in acts.indices {
            acts[a].tag.id = ids.next() ?? ItemIdentity.fresh()
            for s in acts[a].scenes.indices { acts[a].scenes[s].tag.id = ids.next() ?? ItemIdentity.fresh() }
        }
    }

    /// Whether every act and scene had its id in the document (a story with none has them all).
    var idsAllStored: Bool { acts.allSatisfy { $0.tag.isStored && $0.scenes.allSatisfy(\.tag.isStored) } }

    /// Whether no act or scene had its id in the document (written by a Folio before ids, or by hand).
    var idsNoneStored: Bool { acts.allSatisfy { !$0.tag.isStored && $0.scenes.allSatisfy { !$0.tag.isStored } } }

    /// The head's lines as written: the head with its Folio comment line put back.
    var headLines: [String] {
        guard let headTag else { return head }
        var lines = head
        lines.insert(headTag.written, at: min(headTag.line, lines.count))
        return lines
    }
}
