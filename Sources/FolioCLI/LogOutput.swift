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

    /// `2026-11-29T15:11:22Z`, as JSONEncoder's `.iso8601` writes it.
    static func iso8601(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var out = ""
        out.reserveCapacity(20)
        pad(Int(parts.tm_year) + 1900, 4, &out); out += "-"; pad(Int(parts.tm_mon) + 1, 2, &out); out += "-"; pad(Int(parts.tm_mday), 2, &out)
        out += "T"; pad(Int(parts.tm_hour), 2, &out); out += ":"; pad(Int(parts.tm_min), 2, &out); out += ":"; pad(Int(parts.tm_sec), 2, &out)
        out += "Z"
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
        var out = "[\n"
        out.reserveCapacity(entries.count * 400)
        for (index, entry) in entries.enumerated() {
            out += "  {\n"
            out += "    \"author\" : "; appendString(entry.author, to: &out); out += ",\n"
            out += "    \"email\" : "; appendString(entry.email, to: &out); out += ",\n"
            out += "    \"id\" : \"\(entry.id)\",\n"
            out += "    \"message\" : "; appendString(entry.message, to: &out); out += ",\n"
            out += "    \"parents\" : ["
            if entry.parents.isEmpty { out += "\n\n    ],\n" } else {
                out += "\n" + entry.parents.map { "      \"\($0)\"" }.joined(separator: ",\n") + "\n    ],\n"
            }
            out += "    \"shortID\" : \"\(entry.shortID)\",\n"
            out += "    \"summary\" : "; appendString(entry.summary, to: &out); out += ",\n"
            out += "    \"tags\" : ["
            if entry.tags.isEmpty { out += "\n\n    ],\n" } else {
                out += "\n"
                for (i, tag) in entry.tags.enumerated() {
                    out += "      "; appendString(tag, to: &out); out += i + 1 < entry.tags.count ? ",\n" : "\n"
                }
                out += "    ],\n"
            }
            out += "    \"time\" : \"\(iso8601(entry.time))\"\n"
            out += index + 1 < entries.count ? "  },\n" : "  }\n"
        }
        out += "]\n"
        return out
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
