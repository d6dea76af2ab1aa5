extension JinjaValue {
    /// Markup read as the string it is (Python's Markup is a str).
    var markupAsString: JinjaValue { if case .markup(let s) = self { return .string(s) } else { return self } }
}

// cookiecutter's `slugify` filter: python-slugify's (legacy) pipeline, step by step as it runs it, for the text
// it can make a slug of without a transliteration table: ASCII, and Latin letters whose accents come off (`Café` →
// `cafe`) or that spell out in ASCII (`ß` → `ss`). Any other letter (Greek, Cyrillic, CJK, …) would need Unidecode's
// tables, which Folio does not have: it is refused in one line naming it, never slugged differently.

extension JinjaRenderer {
    func slugify(_ v: JinjaValue, _ args: JinjaArguments) throws -> String {
        guard case .string(var text) = v.markupAsString else { throw error(.type, "text must be str, bytes or bytearray, not \(v.typeName)") }
        let entities = try boolArg(args, 1, "entities", true), decimal = try boolArg(args, 2, "decimal", true)
        let hexadecimal = try boolArg(args, 3, "hexadecimal", true)
        let maxLength = try intArg(args, 4, "max_length", 0)
        let wordBoundary = try boolArg(args, 5, "word_boundary", false)
        let separator = try args.value(6, "separator").map { try str($0) } ?? "-"
        let saveOrder = try boolArg(args, 7, "save_order", false)
        let stopwords = try args.value(8, "stopwords").map { try iterate($0).map { try str($0) } } ?? []
        if let pattern = args.value(9, "regex_pattern"), !pattern.isNone {
            throw error(.value, "slugify: regex_pattern is not supported in Folio")
        }
        let lowercase = try boolArg(args, 10, "lowercase", true)
        let replacements = try args.value(11, "replacements").map { try iterate($0).map { pair -> (String, String) in
            let parts = try iterate(pair)
            guard parts.count == 2 else { throw error(.value, "slugify: each replacement is a pair [old, new]") }
            return (try str(parts[0]), try str(parts[1]))
        } } ?? []
        let allowUnicode = try boolArg(args, 12, "allow_unicode", false)

        for (old, new) in replacements where !old.isEmpty { text = text.replacing(old, with: new) }
        text = Self.replacingRuns(of: "'", in: text, with: "-")
        text = allowUnicode ? JinjaUnicode.normalized(text, compose: true) : try Self.transliterated(JinjaUnicode.normalized(text, compose: false), r: self)
        text = Self.decodingReferences(text, entities: entities, decimal: decimal, hexadecimal: hexadecimal)
        text = JinjaUnicode.normalized(text, compose: allowUnicode)
        if lowercase { text = text.lowercased() }
        text = Self.replacingRuns(of: "'", in: text, with: "")
        text = Self.removingDigitCommas(text)
        text = Self.replacingDisallowed(text, unicode: allowUnicode)
        text = Self.collapsingDashes(text)
        if !stopwords.isEmpty {
            let excluded = Set(lowercase ? stopwords.map { $0.lowercased() } : stopwords)
            text = text.split(separator: "-", omittingEmptySubsequences: false).filter { !excluded.contains(String($0)) }.joined(separator: "-")
        }
        for (old, new) in replacements where !old.isEmpty { text = text.replacing(old, with: new) }
        if maxLength > 0 { text = Self.smartTruncate(text, maxLength: maxLength, wordBoundary: wordBoundary, saveOrder: saveOrder) }
        return separator == "-" ? text : text.replacing("-", with: separator)
    }

    /// Runs of `character` replaced by `replacement`.
    static func replacingRuns(of character: Unicode.Scalar, in text: String, with replacement: String) -> String {
        var out = String.UnicodeScalarView(), inRun = false
        for s in text.unicodeScalars {
            if s == character {
                if !inRun { out.append(contentsOf: replacement.unicodeScalars) }
                inRun = true
            } else {
                inRun = false
                out.append(s)
            }
        }
        return String(out)
    }

    /// Letters Unidecode spells out that have no decomposition (the rest of Latin comes apart in NFKD).
    static let latinSpellings: [Unicode.Scalar: String] = [
        "ß": "ss", "æ": "ae", "Æ": "AE", "ø": "o", "Ø": "O", "œ": "oe", "Œ": "OE", "đ": "d", "Đ": "D", "ł": "l", "Ł": "L",
        "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D", "ı": "i", "ħ": "h", "Ħ": "H", "ŧ": "t", "Ŧ": "T", "ŋ": "ng", "Ŋ": "Ng",
        "ĸ": "q", "ſ": "s", "\u{2018}": "'", "\u{2019}": "'", "\u{201C}": "\"", "\u{201D}": "\"", "\u{2013}": "-", "\u{2014}": "-",
        "\u{2026}": "...", "«": "<<", "»": ">>", "\u{00A0}": " ",
    ]

    /// NFKD text in ASCII as Unidecode gives it: combining marks dropped, the spellings above; anything else refused.
    static func transliterated(_ text: String, r: JinjaRenderer) throws -> String {
        guard !text.unicodeScalars.allSatisfy(\.isASCII) else { return text }
        var out = ""
        for s in text.unicodeScalars {
            if s.isASCII { out.unicodeScalars.append(s); continue }
            if JinjaUnicode.isCombiningMark(s) { continue }
            guard let spelled = latinSpellings[s] else {
                throw r.error(.value, "slugify: '\(Character(s))' (U+\(JinjaValue.hex(s.value, width: 4))) needs a transliteration table Folio does not have")
            }
            out += spelled
        }
        return out
    }

    /// `&name;`, `&#NNN;` and `&#xHH;` decoded, as python-slugify does.
    static func decodingReferences(_ text: String, entities: Bool, decimal: Bool, hexadecimal: Bool) -> String {
        guard text.contains("&") else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            if scalars[i] == "&", let end = scalars[(i + 1)...].prefix(40).firstIndex(of: ";") {
                let body = String(String.UnicodeScalarView(scalars[(i + 1)..<end]))
                if let decoded = reference(body, entities: entities, decimal: decimal, hexadecimal: hexadecimal) {
                    out.append(decoded)
                    i = end + 1
                    continue
                }
            }
            out.append(scalars[i])
            i += 1
        }
        return String(out)
    }

    private static func reference(_ body: String, entities: Bool, decimal: Bool, hexadecimal: Bool) -> Unicode.Scalar? {
        if body.hasPrefix("#x"), hexadecimal {
            let digits = body.dropFirst(2)
            guard !digits.isEmpty, digits.allSatisfy(\.isHexDigit), let v = UInt32(digits, radix: 16) else { return nil }
            return Unicode.Scalar(v)
        }
        if body.hasPrefix("#"), decimal {
            let digits = body.dropFirst()
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let v = UInt32(digits) else { return nil }
            return Unicode.Scalar(v)
        }
        guard entities, let v = JinjaExtension.htmlEntities[body] else { return nil }
        return Unicode.Scalar(v)
    }

    /// `1,000` → `1000` (a comma between two digits goes).
    static func removingDigitCommas(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        for (i, s) in scalars.enumerated() {
            if s == ",", i > 0, i + 1 < scalars.count, isDigit(scalars[i - 1]), isDigit(scalars[i + 1]) { continue }
            out.append(s)
        }
        return String(out)
    }

    /// Python's `\d` for str patterns: any decimal digit.
    static func isDigit(_ s: Unicode.Scalar) -> Bool { s.properties.numericType == .decimal }

    /// Every run of characters but `-`, ASCII letters and digits (or, with `unicode`, of `[\W_]`) becomes one `-`.
    static func replacingDisallowed(_ text: String, unicode: Bool) -> String {
        var out = String.UnicodeScalarView(), inRun = false
        for s in text.unicodeScalars {
            let allowed = unicode ? (isWordCharacter(s) && s != "_") : (s == "-" || (s.isASCII && (s.properties.isAlphabetic || isDigit(s))))
            if allowed {
                inRun = false
                out.append(s)
            } else if !inRun {
                inRun = true
                out.append("-")
            }
        }
        return String(out)
    }

    /// Python's `\w` for str patterns: alphanumeric (letters, digits and other numerics) or `_`.
    static func isWordCharacter(_ s: Unicode.Scalar) -> Bool {
        s == "_" || s.properties.isAlphabetic || s.properties.numericType != nil || JinjaUnicode.isCombiningMark(s)
    }

    /// Runs of two or more `-` become one, and `-` is stripped from both ends.
    static func collapsingDashes(_ text: String) -> String {
        let collapsed = replacingRuns(of: "-", in: text, with: "-")
        return String(collapsed.drop { $0 == "-" }.reversed().drop { $0 == "-" }.reversed())
    }

    /// python-slugify's `smart_truncate` with `-` as the separator.
    static func smartTruncate(_ text: String, maxLength: Int, wordBoundary: Bool, saveOrder: Bool) -> String {
        let string = collapsingEnds(text)
        let characters = Array(string)
        guard characters.count >= maxLength else { return string }
        guard wordBoundary else { return collapsingEnds(String(characters.prefix(maxLength))) }
        guard string.contains("-") else { return String(characters.prefix(maxLength)) }
        var truncated = ""
        for word in string.split(separator: "-", omittingEmptySubsequences: false) where !word.isEmpty {
            let next = truncated.count + word.count
            if next < maxLength {
                truncated += word + "-"
            } else if next == maxLength {
                truncated += word
                break
            } else if saveOrder {
                break
            }
        }
        if truncated.isEmpty { truncated = String(characters.prefix(maxLength)) }
        return collapsingEnds(truncated)
    }

    /// `-` stripped from both ends.
    private static func collapsingEnds(_ text: String) -> String {
        String(text.drop { $0 == "-" }.reversed().drop { $0 == "-" }.reversed())
    }
}
