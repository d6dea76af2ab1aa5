import FoundationEssentials
import Glibc
import FolioCore
import FolioGit
import FolioTerminal

/// Fast text and JSON forms of `folio log`, written by hand as bytes straight from libgit2's parsed commits and
/// streamed in chunks: a full log of 100,000 versions must not be slower than `git log`, and copying every commit
/// into Swift strings, or Foundation's JSONEncoder and DateFormatter, cost more than the history walk itself.
struct LogOutput {
    enum Format { case text, json }

    private let format: Format
    private let flush: (String) -> Void
    private var out: [UInt8] = []
    private var entries = 0

    /// Output in `format`, handed to `flush` in chunks that always end between two entries.
    init(format: Format, flush: @escaping (String) -> Void) {
        self.format = format
        self.flush = flush
        out.reserveCapacity(Self.chunkSize + 4096)
    }

    private static let chunkSize = 256 * 1024

    /// Prints `document`'s log (the `folio log` options) and returns how many versions it listed.
    @discardableResult
    static func print(_ document: Document, limit: Int?, skip: Int, since: String?, format: Format, to flush: @escaping (String) -> Void) throws -> Int {
        var output = LogOutput(format: format, flush: flush)
        if format == .json { output.put("[\n") }
        try document.forEachLogEntry(limit: limit, skip: skip, since: since) { commit, tags in output.append(commit, tags: tags) }
        if format == .json { output.put("\n]\n") }
        output.emit()
        return output.entries
    }

    /// Appends one version.
    mutating func append(_ commit: LoggedCommit, tags: [String]) {
        switch format {
        case .text: appendText(commit, tags: tags)
        case .json: appendJSON(commit, tags: tags)
        }
        entries += 1
        if out.count >= Self.chunkSize { emit() }
    }

    private mutating func emit() {
        guard !out.isEmpty else { return }
        flush(String(decoding: out, as: UTF8.self))
        out.removeAll(keepingCapacity: true)
    }

    private mutating func put(_ text: StaticString) { text.withUTF8Buffer { out.append(contentsOf: $0) } }

    // MARK: Text: short id, local time to the minute, author, summary, tags

    private mutating func appendText(_ commit: LoggedCommit, tags: [String]) {
        let id = commit.id
        appendHex(id, digits: 7)
        put("  ")
        appendDate(commit.authorTime, utc: false)
        put("  ")
        appendVisible(commit.authorName)
        put("  ")
        appendVisible(commit.message, firstLineOnly: true)
        if !tags.isEmpty {
            put(" (tag: ")
            out.append(contentsOf: tags.map(\.shownAsText).joined(separator: ", ").utf8)
            put(")")
        }
        put("\n")
    }

    /// `2026-11-29 15:11` (local time) or `2026-11-29T15:11:22Z` (UTC).
    private mutating func appendDate(_ time: Int64, utc: Bool) {
        var seconds = time_t(time)
        var parts = tm()
        if utc { gmtime_r(&seconds, &parts) } else { localtime_r(&seconds, &parts) }
        digits(Int(parts.tm_year) + 1900, 4); out.append(45); digits(Int(parts.tm_mon) + 1, 2); out.append(45); digits(Int(parts.tm_mday), 2)
        out.append(utc ? 84 : 32); digits(Int(parts.tm_hour), 2); out.append(58); digits(Int(parts.tm_min), 2)
        if utc { out.append(58); digits(Int(parts.tm_sec), 2); out.append(90) }
    }

    /// A C string from the commit (the remote's text) as one line for a terminal, optionally up to its first
    /// newline: printable ASCII as it is, anything else through `TerminalText.visible(utf8:)` (control and bidi
    /// characters and invalid UTF-8 shown as escapes, so a commit cannot drive the terminal or split the line).
    private mutating func appendVisible(_ text: UnsafePointer<CChar>?, firstLineOnly: Bool = false) {
        guard let text else { return }
        let (bytes, printable, _) = Self.scan(text, firstLineOnly: firstLineOnly)
        if printable { out.append(contentsOf: bytes) } else { out.append(contentsOf: TerminalText.visible(utf8: bytes).utf8) }
    }

    /// The bytes of a C string (up to its first newline when asked), whether they are all printable ASCII (nothing to
    /// show as an escape), and whether they can go into a JSON string as they are (ASCII with nothing to escape).
    private static func scan(_ text: UnsafePointer<CChar>, firstLineOnly: Bool) -> (bytes: UnsafeBufferPointer<UInt8>, printable: Bool, jsonPlain: Bool) {
        let start = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
        var length = 0
        var printable = true
        var jsonPlain = true
        while start[length] != 0, !(firstLineOnly && start[length] == 10) {
            let byte = start[length]
            if byte >= 0x80 { printable = false; jsonPlain = false }
            if byte < 0x20 || byte == 0x7F { printable = false }
            if byte < 0x20 || byte == 0x22 || byte == 0x5C { jsonPlain = false }
            length += 1
        }
        return (UnsafeBufferPointer(start: start, count: length), printable, jsonPlain)
    }

    // MARK: JSON: the same document `CommandIO.json` would print for `[HistoryEntry]` (pretty, keys sorted)

    private mutating func appendJSON(_ commit: LoggedCommit, tags: [String]) {
        if entries > 0 { put(",\n") }
        let id = commit.id
        put("  {\n    \"author\" : "); appendJSONString(commit.authorName)
        put(",\n    \"email\" : "); appendJSONString(commit.authorEmail)
        put(",\n    \"id\" : \""); appendHex(id, digits: 40)
        put("\",\n    \"message\" : "); appendJSONString(commit.message)
        put(",\n    \"parents\" : [\n")
        let parents = commit.parents
        if parents.isEmpty { put("\n") }
        for (index, parent) in parents.enumerated() {
            put("      \""); appendHex(parent, digits: 40); put(index + 1 < parents.count ? "\",\n" : "\"\n")
        }
        put("    ],\n    \"shortID\" : \""); appendHex(id, digits: 7)
        put("\",\n    \"summary\" : "); appendJSONString(commit.message, firstLineOnly: true)
        put(",\n    \"tags\" : [\n")
        if tags.isEmpty { put("\n") }
        for (index, tag) in tags.enumerated() {
            put("      "); appendJSONString(tag); put(index + 1 < tags.count ? ",\n" : "\n")
        }
        put("    ],\n    \"time\" : \""); appendDate(commit.authorTime, utc: true)
        put("\"\n  }")
    }

    /// A C string as a JSON string literal (invalid UTF-8 repaired), optionally up to its first newline.
    private mutating func appendJSONString(_ text: UnsafePointer<CChar>?, firstLineOnly: Bool = false) {
        guard let text else { put("\"\""); return }
        let (bytes, _, plain) = Self.scan(text, firstLineOnly: firstLineOnly)
        if plain {
            out.append(0x22); out.append(contentsOf: bytes); out.append(0x22)
        } else {
            appendJSONString(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// `value` as a JSON string literal: the exact text, with C0, DEL, C1 and bidi controls as `\u` escapes (so the
    /// JSON printed on a terminal cannot drive it either).
    private mutating func appendJSONString(_ value: String) {
        out.append(0x22)
        for scalar in value.unicodeScalars {
            switch scalar.value {
            case 0x22: put("\\\"")
            case 0x5C: put("\\\\")
            case 0x0A: put("\\n")
            case 0x0D: put("\\r")
            case 0x09: put("\\t")
            case _ where TerminalText.isEscaped(scalar):
                put("\\u")
                for shift in [12, 8, 4, 0] { out.append(Self.hexDigits[Int(scalar.value >> UInt32(shift)) & 0xF]) }
            default: out.append(contentsOf: scalar.utf8)
            }
        }
        out.append(0x22)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func appendHex(_ id: ObjectID, digits count: Int) {
        id.appendHex(count, to: &out)
    }

    /// `value` zero-padded to `width` digits.
    private mutating func digits(_ value: Int, _ width: Int) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            out.append(UInt8(48 + (rest / divisor) % 10))
            rest %= divisor
            divisor /= 10
        }
    }
}
