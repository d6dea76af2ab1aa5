import Foundation

/// What the tests of the Checklist editor read from its JSON: the `"id"` each item carries.
package enum ChecklistIDs {
    /// `json` without the items' `"id": "…", ` members: the list as the tests before ids wrote it.
    package static func stripped(_ json: String) -> String {
        var out = ""
        var rest = Substring(json)
        while let start = rest.range(of: "{\"id\": \"") {
            out += rest[..<start.lowerBound]
            out += "{"
            let after = rest[start.upperBound...]
            guard let end = after.range(of: "\", ") else { rest = after; continue }
            rest = after[end.upperBound...]
        }
        return out + rest
    }

    /// The ids of the items in `json`, in order (as Folio writes them: `{"id": "…", …}` one item a line).
    package static func ids(_ json: String) -> [String] {
        json.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: "{\"id\": \"")?.upperBound, let end = line[start...].firstIndex(of: "\"") else { return nil }
            return String(line[start..<end])
        }
    }
}
