import FoundationEssentials
import FolioBasics
import Glibc

extension TemplateSummary {
    /// A template file's path as a person reads it: a closing tag written `{{%2Fname}}` (a file name cannot hold '/')
    /// shown as `{{/name}}`, and a part that is only there when a variable is set, `{{#ci}}ci.yml{{/ci}}`, shown as
    /// `ci.yml (if ci)` (`{{^ci}}…{{/ci}}` as `… (unless ci)`). Other tags (`{{name}}.md`) are left as they are.
    public static func readablePath(_ path: String) -> String {
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
        while let open = result.firstRange(of: #/\{\{\s*([#^])\s*([^{}]+?)\s*\}\}/#) {
            let tag = String(result[open])
            let inverted = tag.contains("^")
            let name = tag.dropFirst(2).dropLast(2).trimming(.whitespaces).dropFirst().trimming(.whitespaces)
            let closes = result[open.upperBound...].matches(of: #/\{\{\s*\/\s*([^{}]+?)\s*\}\}/#)
            guard let close = closes.first(where: { $0.output.1 == name })?.range else { break }
            let inside = String(result[open.upperBound..<close.lowerBound])
            result.replaceSubrange(open.lowerBound..<close.upperBound, with: inside)
            let condition = (inverted ? "unless " : "if ") + name
            if !conditions.contains(condition) { conditions.append(condition) }
        }
        return (result, conditions)
    }
}
