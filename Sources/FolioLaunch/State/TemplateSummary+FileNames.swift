import FoundationEssentials
import FolioBasics
import Glibc

extension TemplateSummary {
    /// A template file's path as a person reads it: a closing tag written `{{%2Fname}}` (a file name cannot hold '/')
    /// shown as `{{/name}}`, and a part that is only there when a variable is set, `{{#ci}}ci.yml{{/ci}}`, shown as
    /// `ci.yml (if ci)` (`{{^ci}}…{{/ci}}` as `… (unless ci)`). Other tags (`{{name}}.md`) are left as they are.
    package static func readablePath(_ path: String) -> String {
        let decoded = path.replacing("{{%2F", with: "{{/").replacing("{{%2f", with: "{{/")
        let (text, conditions) = readableSections(decoded)
        guard !conditions.isEmpty else { return text }
        return text + " (" + conditions.joined(separator: ", ") + ")"
    }

    /// `text` with each `{{#name}}…{{/name}}` and `{{^name}}…{{/name}}` section replaced by its inside, and the
    /// conditions that were there ("if name", "unless name"), in order.
    static func readableSections(_ text: String) -> (String, [String]) {
        var result = text
        var conditions: [String] = []
        while let open = sectionTag(in: result, from: result.startIndex, sigils: "#^") {
            guard let close = sectionTag(in: result, from: open.range.upperBound, sigils: "/", named: open.name) else { break }
            let inside = String(result[open.range.upperBound..<close.range.lowerBound])
            result.replaceSubrange(open.range.lowerBound..<close.range.upperBound, with: inside)
            let condition = (open.sigil == "^" ? "unless " : "if ") + open.name
            if !conditions.contains(condition) { conditions.append(condition) }
        }
        return (result, conditions)
    }

    /// The first tag from `start` written `{{` sigil name `}}` (white space allowed around both, no braces in the
    /// name) with a sigil from `sigils` (and the name `named`, when given): its range, sigil and name. A scan rather than
    /// a regular expression: the launcher reads every file name of every template, and Swift's `Regex` costs about
    /// a quarter of a millisecond a name.
    private static func sectionTag(in text: String, from start: String.Index, sigils: String, named: String? = nil)
        -> (range: Range<String.Index>, sigil: Character, name: String)? {
        var search = start
        while let open = text[search...].firstRange(of: "{{") {
            search = text.index(after: open.lowerBound)
            guard let close = text[open.upperBound...].firstRange(of: "}}") else { return nil }
            let inner = text[open.upperBound..<close.lowerBound].trimming(.whitespacesAndNewlines)
            guard let sigil = inner.first, sigils.contains(sigil), !inner.contains("{"), !inner.contains("}") else { continue }
            let name = inner.dropFirst().trimming(.whitespacesAndNewlines)
            guard !name.isEmpty, named == nil || name == named else { continue }
            return (open.lowerBound..<close.upperBound, sigil, name)
        }
        return nil
    }
}
