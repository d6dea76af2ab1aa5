import Foundation
import FolioCore

/// Fast text and JSON forms of `folio log`, written by hand: a full log of 100,000 versions must not be slower
/// than `git log`, and Foundation's JSONEncoder and DateFormatter cost more than the history walk itself.
enum LogOutput {
    /// `2026-11-29 15:11` in local time.
    static func localMinute(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        localtime_r(&seconds, &parts)
        var out = ""
        out.reserveCapacity(16)
        pad(Int(parts.tm_year) + 1900, 4, &out); out += "-"; pad(Int(parts.tm_mon) + 1, 2, &out); out += "-"; pad(Int(parts.tm_mday), 2, &out)
        out += " "; pad(Int(parts.tm_hour), 2, &out); out += ":"; pad(Int(parts.tm_min), 2, &out)
        return out
    }

    /// Appends `value` zero-padded to `width` digits (String(format:) costs more than the history walk).
    private static func pad(_ value: Int, _ width: Int, _ out: inout String) {
        let digits = String(value)
        if digits.utf8.count < width { out += String(repeating: "0", count: width - digits.utf8.count) }
        out += digits
    }

    /// One line per version: short id, time, author, summary, tags.
    static func text(_ entries: [HistoryEntry]) -> String {
        var text = ""
        text.reserveCapacity(entries.count * 80)
        for entry in entries {
            text += entry.shortID
            text += "  "
            text += localMinute(entry.time)
            text += "  "
            text += entry.author
            text += "  "
            text += entry.summary
            if !entry.tags.isEmpty { text += " (tag: \(entry.tags.joined(separator: ", ")))" }
            text += "\n"
        }
        return text
    }

    /// The same JSON as `CommandIO.json` would print for `[HistoryEntry]`: pretty, keys sorted.
    static func json(_ entries: [HistoryEntry]) -> String {
        if entries.isEmpty { return "[\n\n]\n" }
        var out: [UInt8] = []
        out.reserveCapacity(entries.count * 420)
        func put(_ text: StaticString) { text.withUTF8Buffer { out.append(contentsOf: $0) } }
        put("[\n")
        for (index, entry) in entries.enumerated() {
            put("  {\n    \"author\" : "); appendString(entry.author, to: &out)
            put(",\n    \"email\" : "); appendString(entry.email, to: &out)
            put(",\n    \"id\" : \""); out.append(contentsOf: entry.id.utf8)
            put("\",\n    \"message\" : "); appendString(entry.message, to: &out)
            put(",\n    \"parents\" : [\n")
            if entry.parents.isEmpty { put("\n") }
            for (i, parent) in entry.parents.enumerated() {
                put("      \""); out.append(contentsOf: parent.utf8); put(i + 1 < entry.parents.count ? "\",\n" : "\"\n")
            }
            put("    ],\n    \"shortID\" : \""); out.append(contentsOf: entry.shortID.utf8)
            put("\",\n    \"summary\" : "); appendString(entry.summary, to: &out)
            put(",\n    \"tags\" : [\n")
            if entry.tags.isEmpty { put("\n") }
            for (i, tag) in entry.tags.enumerated() {
                put("      "); appendString(tag, to: &out); put(i + 1 < entry.tags.count ? ",\n" : "\n")
            }
            put("    ],\n    \"time\" : \""); appendISO8601(entry.time, to: &out)
            put(index + 1 < entries.count ? "\"\n  },\n" : "\"\n  }\n")
        }
        put("]\n")
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `2026-11-29T15:11:22Z` (UTC) as bytes.
    static func appendISO8601(_ date: Date, to out: inout [UInt8]) {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func digits(_ value: Int32, _ width: Int) {
            var divisor: Int32 = 1
            for _ in 1..<width { divisor *= 10 }
            var v = value
            while divisor > 0 { out.append(UInt8(48 + (v / divisor) % 10)); v %= divisor * 10; divisor /= 10 }
        }
        digits(parts.tm_year + 1900, 4); out.append(45); digits(parts.tm_mon + 1, 2); out.append(45); digits(parts.tm_mday, 2)
        out.append(84); digits(parts.tm_hour, 2); out.append(58); digits(parts.tm_min, 2); out.append(58); digits(parts.tm_sec, 2)
        out.append(90)
    }

    /// Appends `value` as a JSON string literal, as bytes.
    static func appendString(_ value: String, to out: inout [UInt8]) {
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            out.append(0x22)
            out.append(contentsOf: value.utf8)
            out.append(0x22)
            return
        }
        var text = ""
        appendString(value, to: &text)
        out.append(contentsOf: text.utf8)
    }

    /// Appends `value` as a JSON string literal.
    static func appendString(_ value: String, to out: inout String) {
        out += "\""
        var needsEscape = false
        for byte in value.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C { needsEscape = true; break }
        if !needsEscape {
            out += value
        } else {
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                default:
                    if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
                }
            }
        }
        out += "\""
    }
}
