import FoundationEssentials
import FolioBasics
import Glibc

extension MustacheValue {
    /// Names a string answers as dotted-name segments (`{{name.snake_case}}`).
    static let caseHelperNames: Set<String> = [
        "lowercase", "uppercase", "snake_case", "kebab_case", "camelCase", "PascalCase", "title_case", "slug",
    ]

    static func caseHelper(_ helper: String, of s: String) -> String? {
        switch helper {
        case "lowercase": return s.lowercased()
        case "uppercase": return s.uppercased()
        case "snake_case": return words(of: s).map { $0.lowercased() }.joined(separator: "_")
        case "kebab_case": return words(of: s).map { $0.lowercased() }.joined(separator: "-")
        case "camelCase":
            let parts = words(of: s)
            guard let first = parts.first else { return "" }
            return first.lowercased() + parts.dropFirst().map(capitalized).joined()
        case "PascalCase": return words(of: s).map(capitalized).joined()
        case "title_case":
            return words(of: s).map { word in
                guard let head = word.first else { return word }
                return head.uppercased() + word.dropFirst()
            }.joined(separator: " ")
        case "slug": return slug(s)
        default: return nil
        }
    }

    private static func capitalized(_ word: String) -> String {
        guard let head = word.first else { return word }
        return head.uppercased() + word.dropFirst().lowercased()
    }

    /// Splits on non-alphanumerics and on camelCase boundaries ("HTTPServer" → ["HTTP", "Server"]).
    static func words(of s: String) -> [String] {
        let chars = Array(s)
        var result: [String] = []
        var current = ""
        func flush() {
            if !current.isEmpty { result.append(current); current = "" }
        }
        for index in chars.indices {
            let c = chars[index]
            guard c.isLetter || c.isNumber else { flush(); continue }
            if let last = current.last, c.isUppercase {
                if last.isLowercase || last.isNumber {
                    flush()
                } else if last.isUppercase, index + 1 < chars.count, chars[index + 1].isLowercase {
                    flush()
                }
            }
            current.append(c)
        }
        flush()
        return result
    }

    private static func slug(_ s: String) -> String {
        let joined = words(of: s).joined(separator: "-")
        let folded = TextFolding.folded(joined)
        var out = ""
        var lastWasDash = true
        for scalar in folded.unicodeScalars {
            let isAlnum = (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9")
            if isAlnum {
                out.unicodeScalars.append(scalar)
                lastWasDash = false
            } else if !lastWasDash {
                out.append("-")
                lastWasDash = true
            }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out
    }
}

