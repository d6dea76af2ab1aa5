import FolioBasics

/// Why a git object from outside (a fetched commit, tree or tag, or a tree about to be written to a work tree) is
/// refused: the rules `git fsck` and `verify_path` apply, plus Folio's own (no submodules).
public enum GitObjectProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The tree's bytes are not a list of `MODE NAME\0ID` entries (what is wrong).
    case malformedTree(String)
    /// A mode written with a leading zero (`040000`), which git writes as `40000`.
    case zeroPaddedMode
    /// A mode git does not know (the mode as written).
    case unknownMode(String)
    /// A submodule (gitlink) entry or a `.gitmodules` file: Folio documents and templates hold no submodules.
    case submodule
    /// An entry with an empty name.
    case emptyName
    /// An entry named `.` or `..`.
    case dotName
    /// An entry git reserves: `.git` in any letter case or in a spelling NTFS or HFS+ reads as `.git`.
    case gitName
    /// An entry whose name holds a `/`.
    case slashInName
    /// An entry whose name is not valid UTF-8 (Folio keeps file names as text).
    case nameNotUTF8
    /// Two entries of one tree with the same name.
    case duplicateEntry
    /// Entries not in git's order.
    case unsortedEntries
    /// A `.gitattributes`, `.gitignore` or `.mailmap` that is a symbolic link.
    case specialSymlink
    /// A name Folio keeps for itself (what it is reserved for).
    case reservedName(String)
    /// A commit whose header is not what git writes (what is wrong).
    case malformedCommit(String)
    /// An annotated tag whose header is not what git writes (what is wrong).
    case malformedTag(String)
    /// A branch or tag that names an object of the wrong kind (what it names).
    case wrongObjectType(String)
    /// The document's own description file is missing or does not validate (why).
    case invalidDocument(String)
    /// A file (blob) of `size` bytes, over the `limit` in bytes a fetch accepts (`IncomingRules.largestBlob`).
    case blobTooLarge(size: Int, limit: Int)
    /// A symbolic link whose target leads out of the document (the target as written, and why).
    case linkLeavesTree(target: String, LinkTargetProblem)

    public var description: String {
        switch self {
        case let .malformedTree(why): return "a malformed tree (\(why))"
        case .zeroPaddedMode: return "a zero-padded file mode"
        case let .unknownMode(mode): return "an unknown file mode \(mode)"
        case .submodule: return "a submodule, which documents cannot hold"
        case .emptyName: return "an entry with an empty name"
        case .dotName: return "an entry named '.' or '..'"
        case .gitName: return "a name git reserves for its own folder ('.git')"
        case .slashInName: return "an entry name holding '/'"
        case .nameNotUTF8: return "a file name that is not valid UTF-8"
        case .duplicateEntry: return "two entries with the same name"
        case .unsortedEntries: return "entries out of git's order"
        case .specialSymlink: return "a git settings file that is a symbolic link"
        case let .reservedName(why): return "a name reserved for \(why)"
        case let .malformedCommit(why): return "a malformed commit (\(why))"
        case let .malformedTag(why): return "a malformed tag (\(why))"
        case let .wrongObjectType(what): return "a ref naming \(what)"
        case let .invalidDocument(why): return "an invalid document (\(why))"
        case let .blobTooLarge(size, limit):
            return "a file of \(Self.bytes(size)), over the limit of \(Self.bytes(limit)) for incoming files"
        case let .linkLeavesTree(target, why):
            let shown = target.count > 80 ? String(target.prefix(80)) + "…" : target
            return "a symbolic link to '\(shown)', \(why)"
        }
    }
}

extension GitObjectProblem {
    /// A size as people read it: `209715200 bytes (200.0 MiB)`; below 1 KiB, `12 bytes`.
    static func bytes(_ count: Int) -> String {
        guard count >= 1024 else { return "\(count) bytes" }
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(count) / 1024, unit = 0
        while value >= 1024 && unit < units.count - 1 { value /= 1024; unit += 1 }
        return "\(count) bytes (\(NumberText.fixed(value, digits: 1)) \(units[unit]))"
    }
}

/// A problem found in one object: the entry's name as far as it is known (shown as text by whoever prints it).
public struct GitObjectRejection: Error, Sendable, Equatable {
    public let name: String?
    public let problem: GitObjectProblem
    public init(name: String?, problem: GitObjectProblem) {
        self.name = name
        self.problem = problem
    }
}

/// Names a caller keeps for itself beyond git's rules: entries starting with one of `prefixes` (ASCII letters in any
/// case) are refused, `why` saying what they are kept for.
public struct ReservedNamePrefixes: Sendable, Equatable {
    public let prefixes: [[UInt8]]
    public let why: String

    public init(_ prefixes: [String], why: String) {
        self.prefixes = prefixes.map { Array($0.lowercased().utf8) }
        self.why = why
    }

    /// Whether `name` starts with one of the prefixes.
    public func matches(_ name: some Collection<UInt8>) -> Bool {
        prefixes.contains { prefix in
            name.count >= prefix.count && zip(name, prefix).allSatisfy { ((65...90).contains($0) ? $0 | 0x20 : $0) == $1 }
        }
    }
}

/// One entry of a raw tree: its mode, name and the object it names.
public struct RawTreeEntry: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case file, executable, symlink, tree, gitlink }
    public let kind: Kind
    public let mode: UInt32
    /// The name, validated as UTF-8.
    public let name: String
    /// The 20 raw bytes of the object id.
    public let id: [UInt8]
}

/// git's object rules, on raw object bytes: no libgit2, so the checker can be fuzzed on its own.
public enum GitObjectRules {
    // MARK: Trees

    /// Parses a raw tree (the bytes after git's object header) and applies `git fsck --strict`'s tree rules and
    /// `verify_path`'s name rules to every entry: well-formed entries, known modes written as git writes them, no
    /// empty, `.`, `..`, `.git`-like (any case, NTFS and HFS+ spellings) or `/`-holding names, names in git's order
    /// without duplicates, UTF-8 names, no submodules, no settings files that are links.
    public static func parseTree(_ bytes: UnsafeRawBufferPointer) throws(GitObjectRejection) -> [RawTreeEntry] {
        var entries: [RawTreeEntry] = []
        try checkTree(bytes) { (kind, mode, name, idOffset) throws(GitObjectRejection) in
            let text = try text(of: name)
            entries.append(RawTreeEntry(kind: kind, mode: mode, name: text, id: Array(bytes[idOffset..<(idOffset + 20)])))
        }
        return entries
    }

    /// The rules of `parseTree` without building entries (the fetch-time check reads every new tree): `visit` gets
    /// each entry's kind, mode, name bytes (valid UTF-8) and the offset of its 20-byte id, in order.
    public static func checkTree(_ bytes: UnsafeRawBufferPointer,
                                 visit: (RawTreeEntry.Kind, UInt32, Slice<UnsafeRawBufferPointer>, Int) throws(GitObjectRejection) -> Void) throws(GitObjectRejection) {
        var previous: (name: Slice<UnsafeRawBufferPointer>, isTree: Bool)?
        var sawTree = false
        var offset = 0
        let count = bytes.count
        while offset < count {
            let (mode, zeroPadded, afterMode) = try parseMode(bytes, from: offset)
            guard let nul = firstIndex(of: 0, in: bytes, from: afterMode) else {
                throw GitObjectRejection(name: nil, problem: .malformedTree("an entry's name has no end"))
            }
            let name = bytes[afterMode..<nul]
            guard nul + 21 <= count else {
                throw GitObjectRejection(name: shown(name), problem: .malformedTree("an entry's id is cut short"))
            }
            offset = nul + 21
            let kind = try entryKind(mode: mode, zeroPadded: zeroPadded, name: name)
            guard isUTF8(name) else { throw GitObjectRejection(name: shown(name), problem: .nameNotUTF8) }
            if let problem = problem(withName: name, kind: kind) { throw GitObjectRejection(name: shown(name), problem: problem) }
            if let previous {
                if previous.name.elementsEqual(name) { throw GitObjectRejection(name: shown(name), problem: .duplicateEntry) }
                if compareTreeNames(previous.name, previous.isTree, name, kind == .tree) >= 0 {
                    throw GitObjectRejection(name: shown(name), problem: .unsortedEntries)
                }
            }
            previous = (name, kind == .tree)
            sawTree = sawTree || kind == .tree
            try visit(kind, mode, name, nul + 1)
        }
        if sawTree { try rejectFileAndFolderOfOneName(bytes) }
    }

    /// Parses an entry's octal mode up to its space; returns the mode, whether it was written with a leading zero,
    /// and the offset after the space.
    private static func parseMode(_ bytes: UnsafeRawBufferPointer, from start: Int) throws(GitObjectRejection) -> (UInt32, Bool, Int) {
        var mode: UInt32 = 0
        var index = start
        while index < bytes.count, bytes[index] != UInt8(ascii: " ") {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "7"), index - start < 7 else {
                throw GitObjectRejection(name: nil, problem: .malformedTree("a file mode that is not octal"))
            }
            mode = mode << 3 | UInt32(byte - UInt8(ascii: "0"))
            index += 1
        }
        guard index < bytes.count, index > start else { throw GitObjectRejection(name: nil, problem: .malformedTree("an entry without a mode")) }
        return (mode, index - start > 1 && bytes[start] == UInt8(ascii: "0"), index + 1)
    }

    private static func entryKind(mode: UInt32, zeroPadded: Bool, name: Slice<UnsafeRawBufferPointer>) throws(GitObjectRejection) -> RawTreeEntry.Kind {
        if zeroPadded { throw GitObjectRejection(name: shown(name), problem: .zeroPaddedMode) }
        switch mode {
        case 0o100644: return .file
        case 0o100755: return .executable
        case 0o120000: return .symlink
        case 0o040000: return .tree
        case 0o160000: throw GitObjectRejection(name: shown(name), problem: .submodule)
        default: throw GitObjectRejection(name: shown(name), problem: .unknownMode(String(mode, radix: 8)))
        }
    }

    /// Whether bytes are UTF-8 (ASCII without building anything).
    private static func isUTF8(_ name: Slice<UnsafeRawBufferPointer>) -> Bool {
        if !name.contains(where: { $0 >= 0x80 }) { return true }
        return String(validating: name, as: UTF8.self) != nil
    }

    private static func text(of name: Slice<UnsafeRawBufferPointer>) throws(GitObjectRejection) -> String {
        guard let text = String(validating: name, as: UTF8.self) else { throw GitObjectRejection(name: shown(name), problem: .nameNotUTF8) }
        return text
    }

    /// What is wrong with one entry's name, nil when nothing is.
    static func problem(withName name: Slice<UnsafeRawBufferPointer>, kind: RawTreeEntry.Kind) -> GitObjectProblem? {
        if name.isEmpty { return .emptyName }
        if name.elementsEqual(".".utf8) || name.elementsEqual("..".utf8) { return .dotName }
        if name.contains(UInt8(ascii: "/")) { return .slashInName }
        // Every reserved spelling starts with '.', 'g' or 'm' (short names), or hides behind a backslash or a code
        // point HFS+ ignores (non-ASCII): other names need no closer look.
        if let first = name.first, first != UInt8(ascii: "."), ![UInt8(ascii: "g"), UInt8(ascii: "m")].contains(first | 0x20),
           !name.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "\\") }) {
            return nil
        }
        let bytes = Array(name)
        if isGitName(bytes) { return .gitName }
        if matchesSpecialName(bytes[...], "gitmodules") { return .submodule }
        if kind == .symlink, ["gitattributes", "gitignore", "mailmap"].contains(where: { matchesSpecialName(bytes[...], $0) }) {
            return .specialSymlink
        }
        return nil
    }

    /// Whether a name is read as `.git` by some file system: any letter case, NTFS's trailing dots and spaces,
    /// alternate streams (`.git::$INDEX_ALLOCATION`) and short name (`git~1`), HFS+'s ignored code points, and any of
    /// these after a backslash (a folder separator on Windows).
    public static func isGitName(_ name: some Collection<UInt8>) -> Bool {
        let bytes = Array(name)
        if isNTFSDotGit(bytes[...]) || isHFSDotName(bytes, "git") { return true }
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\\") {
            if isNTFSDotGit(bytes[start..<index]) { return true }
            start = index + 1
            if isNTFSDotGit(bytes[start...]) { return true }
        }
        return false
    }

    /// `.git` or `git~1` in any case, followed by nothing but dots and spaces up to the end, a `:` or a `\`.
    private static func isNTFSDotGit(_ name: ArraySlice<UInt8>) -> Bool {
        let lower = name.map(asciiLowercased)
        let rest: ArraySlice<UInt8>
        if lower.starts(with: ".git".utf8) { rest = lower.dropFirst(4) } else if lower.starts(with: "git~1".utf8) { rest = lower.dropFirst(5) } else { return false }
        for byte in rest {
            if byte == UInt8(ascii: ":") || byte == UInt8(ascii: "\\") { return true }
            if byte != UInt8(ascii: ".") && byte != UInt8(ascii: " ") { return false }
        }
        return true
    }

    /// `.` + `word` once HFS+'s ignorable code points are dropped and ASCII letters lowered (HFS+ ignores them).
    private static func isHFSDotName(_ name: [UInt8], _ word: String) -> Bool {
        guard let text = String(validating: name, as: UTF8.self) else { return false }
        let kept = text.unicodeScalars.filter { !isHFSIgnorable($0.value) }
        let lowered = String(String.UnicodeScalarView(kept)).utf8.map(asciiLowercased)
        return lowered.elementsEqual(("." + word).utf8)
    }

    /// `.word` in the spellings git guards for its special files (`is_hfs_dot…`, `is_ntfs_dot…`): any case, HFS+
    /// ignorables, NTFS trailing dots and spaces or a stream (`:`), and NTFS short names, both the regular one (the
    /// first six letters, `~1`…`~4`) and git's fall-back (`shortPrefix`, `~`, digits).
    private static func matchesSpecialName(_ name: ArraySlice<UInt8>, _ word: String) -> Bool {
        if isHFSDotName(Array(name), word) { return true }
        let lower = Array(name.map(asciiLowercased))
        let letters = Array(word.utf8)
        func onlyDotsAndSpaces(from index: Int) -> Bool {
            for byte in lower[index...] {
                if byte == UInt8(ascii: ":") { return true }
                if byte != UInt8(ascii: " ") && byte != UInt8(ascii: ".") { return false }
            }
            return true
        }
        if lower.first == UInt8(ascii: "."), lower.dropFirst().starts(with: letters) { return onlyDotsAndSpaces(from: letters.count + 1) }
        if lower.count >= 8, lower.starts(with: letters.prefix(6)), lower[6] == UInt8(ascii: "~"),
           (UInt8(ascii: "1")...UInt8(ascii: "4")).contains(lower[7]) {
            return onlyDotsAndSpaces(from: 8)
        }
        guard let prefix = ntfsFallbackPrefixes[word] else { return false }
        var index = 0
        var sawTilde = false
        while index < 8 {
            guard index < lower.count else { return false }
            let byte = lower[index]
            if sawTilde {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return false }
            } else if byte == UInt8(ascii: "~") {
                index += 1
                guard index < lower.count, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(lower[index]) else { return false }
                sawTilde = true
            } else if index >= 6 || byte >= 0x80 || byte != prefix[index] {
                return false
            }
            index += 1
        }
        return onlyDotsAndSpaces(from: 8)
    }

    /// The fall-back NTFS short-name prefixes git checks for its special files.
    private static let ntfsFallbackPrefixes: [String: [UInt8]] = [
        "gitmodules": Array("gi7eba".utf8), "gitignore": Array("gi250a".utf8),
        "gitattributes": Array("gi7d29".utf8), "mailmap": Array("maba30".utf8),
    ]

    private static func isHFSIgnorable(_ value: UInt32) -> Bool {
        (0x200C...0x200F).contains(value) || (0x202A...0x202E).contains(value) || (0x206A...0x206F).contains(value) || value == 0xFEFF
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 { (65...90).contains(byte) ? byte | 0x20 : byte }

    /// git's tree order: names compared byte by byte as if a folder's name ended in `/`; negative, 0 or positive.
    static func compareTreeNames(_ a: some Collection<UInt8>, _ aIsTree: Bool, _ b: some Collection<UInt8>, _ bIsTree: Bool) -> Int {
        var left = a.makeIterator(), right = b.makeIterator()
        while true {
            let x = left.next(), y = right.next()
            switch (x, y) {
            case let (x?, y?): if x != y { return Int(x) - Int(y) }
            default:
                let nextA = x.map(Int.init) ?? (aIsTree ? Int(UInt8(ascii: "/")) : 0)
                let nextB = y.map(Int.init) ?? (bIsTree ? Int(UInt8(ascii: "/")) : 0)
                return nextA - nextB
            }
        }
    }

    /// A file and a folder of one name can sit apart in git's order ("a", "a.b", "a/"): git fsck calls them duplicates.
    /// A second pass over a tree already found well formed, made only when it holds a folder.
    private static func rejectFileAndFolderOfOneName(_ bytes: UnsafeRawBufferPointer) throws(GitObjectRejection) {
        var folders: Set<[UInt8]> = []
        var files: [[UInt8]] = []
        var offset = 0
        while offset < bytes.count, let space = firstIndex(of: UInt8(ascii: " "), in: bytes, from: offset),
              let nul = firstIndex(of: 0, in: bytes, from: space) {
            let name = Array(bytes[(space + 1)..<nul])
            if bytes[offset] == UInt8(ascii: "4") { folders.insert(name) } else { files.append(name) }
            offset = nul + 21
        }
        for file in files where folders.contains(file) { throw GitObjectRejection(name: String(decoding: file, as: UTF8.self), problem: .duplicateEntry) }
    }

    // MARK: Commits and tags

    /// The header of a raw commit: its tree and parents (hex ids), after `git fsck`'s checks of the header lines and
    /// of the author's and committer's identities.
    public static func parseCommit(_ bytes: UnsafeRawBufferPointer) throws(GitObjectRejection) -> (tree: String, parents: [String]) {
        var lines = HeaderLines(bytes)
        func fail(_ why: String) -> GitObjectRejection { GitObjectRejection(name: nil, problem: .malformedCommit(why)) }
        guard let treeLine = lines.next(), let tree = hexValue(treeLine, after: "tree ") else { throw fail("no tree line") }
        var parents: [String] = []
        var line = lines.next()
        while let current = line, current.starts(with: "parent ".utf8) {
            guard let parent = hexValue(current, after: "parent ") else { throw fail("a bad parent line") }
            parents.append(parent)
            line = lines.next()
        }
        guard let author = line, author.starts(with: "author ".utf8) else { throw fail("no author") }
        if let why = identityProblem(author.dropFirst(7)) { throw fail("author: \(why)") }
        guard let committer = lines.next(), committer.starts(with: "committer ".utf8) else { throw fail("no committer") }
        if let why = identityProblem(committer.dropFirst(10)) { throw fail("committer: \(why)") }
        if lines.sawNUL { throw fail("a NUL byte in its header") }
        return (tree, parents)
    }

    /// The header of a raw annotated tag: the object it names, that object's type and the tag's name.
    public static func parseTag(_ bytes: UnsafeRawBufferPointer) throws(GitObjectRejection) -> (object: String, type: String, name: String) {
        var lines = HeaderLines(bytes)
        func fail(_ why: String) -> GitObjectRejection { GitObjectRejection(name: nil, problem: .malformedTag(why)) }
        guard let objectLine = lines.next(), let object = hexValue(objectLine, after: "object ") else { throw fail("no object line") }
        guard let typeLine = lines.next(), typeLine.starts(with: "type ".utf8),
              let type = String(validating: typeLine.dropFirst(5), as: UTF8.self), ["commit", "tree", "blob", "tag"].contains(type) else {
            throw fail("no valid type line")
        }
        guard let tagLine = lines.next(), tagLine.starts(with: "tag ".utf8), let name = String(validating: tagLine.dropFirst(4), as: UTF8.self) else {
            throw fail("no valid tag line")
        }
        if let tagger = lines.next(), tagger.starts(with: "tagger ".utf8), let why = identityProblem(tagger.dropFirst(7)) {
            throw fail("tagger: \(why)")
        }
        if lines.sawNUL { throw fail("a NUL byte in its header") }
        return (object, type, name)
    }

    /// `fsck_ident`: `NAME <EMAIL> SECONDS ±HHMM`, nil when well formed.
    static func identityProblem(_ ident: ArraySlice<UInt8>) -> String? {
        var p = ident.startIndex
        let end = ident.endIndex
        func at(_ i: Int) -> UInt8 { i < end ? ident[i] : 0 }
        if at(p) == UInt8(ascii: "<") { return "no name before the email" }
        while p < end, ![UInt8(ascii: "<"), UInt8(ascii: ">"), 10].contains(ident[p]) { p += 1 }
        if at(p) == UInt8(ascii: ">") { return "a bad name" }
        if at(p) != UInt8(ascii: "<") { return "no email" }
        if p == ident.startIndex || at(p - 1) != UInt8(ascii: " ") { return "no space before the email" }
        p += 1
        while p < end, ![UInt8(ascii: "<"), UInt8(ascii: ">"), 10].contains(ident[p]) { p += 1 }
        if at(p) != UInt8(ascii: ">") { return "a bad email" }
        p += 1
        if at(p) != UInt8(ascii: " ") { return "no space before the date" }
        p += 1
        if at(p) == UInt8(ascii: "0"), at(p + 1) != UInt8(ascii: " ") { return "a zero-padded date" }
        let digitsStart = p
        while p < end, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(ident[p]) { p += 1 }
        if p == digitsStart || p - digitsStart > 19 || at(p) != UInt8(ascii: " ") { return "a bad date" }
        p += 1
        guard at(p) == UInt8(ascii: "+") || at(p) == UInt8(ascii: "-"), p + 5 == end,
              (1...4).allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(at(p + $0)) }) else { return "a bad time zone" }
        return nil
    }

    private static func hexValue(_ line: ArraySlice<UInt8>, after prefix: String) -> String? {
        guard line.starts(with: prefix.utf8) else { return nil }
        let value = line.dropFirst(prefix.utf8.count)
        guard value.count == 40, value.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
        return String(decoding: value, as: UTF8.self)
    }

    private static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    /// A name for messages: the bytes as text, invalid UTF-8 repaired (the printer shows control characters).
    private static func shown(_ name: Slice<UnsafeRawBufferPointer>) -> String { String(decoding: name, as: UTF8.self) }
}

/// The header lines of a commit or tag, up to the blank line before the message.
private struct HeaderLines {
    let bytes: [UInt8]
    var offset = 0
    var sawNUL = false

    init(_ raw: UnsafeRawBufferPointer) {
        // Only the header is needed: it ends at the first blank line.
        var end = 0
        while end < raw.count, !(raw[end] == 10 && end + 1 < raw.count && raw[end + 1] == 10) { end += 1 }
        bytes = Array(raw[0..<min(end + 1, raw.count)])
    }

    mutating func next() -> ArraySlice<UInt8>? {
        guard offset < bytes.count else { return nil }
        var end = offset
        while end < bytes.count, bytes[end] != 10 {
            if bytes[end] == 0 { sawNUL = true }
            end += 1
        }
        let line = bytes[offset..<end]
        offset = end + 1
        return line
    }
}
