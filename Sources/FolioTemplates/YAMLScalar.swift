import FoundationEssentials
import FolioJinja

/// PyYAML's `SafeLoader` resolution of scalars (YAML 1.1), and the standard tags it constructs.
enum YAMLScalar {
    typealias Fail = (YAMLEvent, String) -> TemplateError

    /// A plain scalar without a tag: null, a boolean, an int, a float, else text (a date stays its text).
    static func resolve(_ text: String, event: YAMLEvent, fail: Fail) throws -> JinjaValue {
        if ["", "~", "null", "Null", "NULL"].contains(text) { return .none }
        if let flag = bool(text) { return .bool(flag) }
        if isInt(text) { return try int(text, event: event, fail: fail) }
        if isFloat(text) { return try float(text, event: event, fail: fail) }
        return .string(text)
    }

    /// A scalar with an explicit standard tag (`!!str`, `!!int`, `!!float`, `!!bool`, `!!null`).
    static func tagged(_ tag: String, _ text: String, event: YAMLEvent, fail: Fail) throws -> JinjaValue {
        switch tag {
        case "tag:yaml.org,2002:str": return .string(text)
        case "tag:yaml.org,2002:null": return .none
        case "tag:yaml.org,2002:bool":
            guard let flag = bool(text) else { throw fail(event, "'\(text)' is not a boolean") }
            return .bool(flag)
        case "tag:yaml.org,2002:int":
            guard isInt(text) else { throw fail(event, "'\(text)' is not an integer") }
            return try int(text, event: event, fail: fail)
        case "tag:yaml.org,2002:float":
            guard isFloat(text) || isInt(text) else { throw fail(event, "'\(text)' is not a number") }
            return try float(text, event: event, fail: fail)
        default:
            throw fail(event, "the tag \(tag) is not supported")
        }
    }

    static func bool(_ text: String) -> Bool? {
        switch text {
        case "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON": return true
        case "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF": return false
        default: return nil
        }
    }

    /// PyYAML's int pattern: `[-+]?0b[01_]+`, `[-+]?0[0-7_]+`, `[-+]?(0|[1-9][0-9_]*)`, `[-+]?0x[0-9a-fA-F_]+`, and
    /// sexagesimal `[-+]?[1-9][0-9_]*(:[0-5]?[0-9])+`.
    static func isInt(_ text: String) -> Bool {
        var body = Substring(text)
        if body.first == "+" || body.first == "-" { body = body.dropFirst() }
        guard let first = body.first else { return false }
        if body.hasPrefix("0b") { return body.count > 2 && body.dropFirst(2).allSatisfy { "01_".contains($0) } }
        if body.hasPrefix("0x") { return body.count > 2 && body.dropFirst(2).allSatisfy { $0.isHexDigit || $0 == "_" } }
        if body == "0" { return true }
        if first == "0" { return body.dropFirst().allSatisfy { ("0"..."7").contains($0) || $0 == "_" } }
        guard ("1"..."9").contains(first) else { return false }
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        guard parts[0].allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "_") }) else { return false }
        return parts.dropFirst().allSatisfy(isSixtyPart)
    }

    private static func isSixtyPart(_ part: Substring) -> Bool {
        guard (1...2).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        return part.count == 1 || part.first.map { ("0"..."5").contains($0) } == true
    }

    static func int(_ text: String, event: YAMLEvent, fail: Fail) throws -> JinjaValue {
        var body = Substring(text.filter { $0 != "_" })
        var sign = 1
        if body.first == "-" { sign = -1; body = body.dropFirst() } else if body.first == "+" { body = body.dropFirst() }
        var magnitude: Int?
        if body.hasPrefix("0b") {
            magnitude = Int(body.dropFirst(2), radix: 2)
        } else if body.hasPrefix("0x") {
            magnitude = Int(body.dropFirst(2), radix: 16)
        } else if body.count > 1, body.first == "0" {
            magnitude = Int(body.dropFirst(), radix: 8)
        } else if body.contains(":") {
            magnitude = body.split(separator: ":").reduce(Optional(0)) { total, part in
                guard let total, let digit = Int(part) else { return nil }
                let (times, o1) = total.multipliedReportingOverflow(by: 60)
                let (sum, o2) = times.addingReportingOverflow(digit)
                return o1 || o2 ? nil : sum
            }
        } else {
            magnitude = Int(body)
        }
        guard let magnitude else { throw fail(event, "the integer \(text) is out of range") }
        return .int(sign * magnitude)
    }

    /// PyYAML's float pattern: a dot is needed (`1.`, `.5`, `1.5e+3`; an exponent needs its sign), or `.inf`/`.nan`.
    static func isFloat(_ text: String) -> Bool {
        var body = Substring(text)
        if body.first == "+" || body.first == "-" { body = body.dropFirst() }
        if [".inf", ".Inf", ".INF"].contains(body) { return true }
        if [".nan", ".NaN", ".NAN"].contains(text) { return true }
        var mantissa = body, exponent: Substring?
        if let e = body.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = body[..<e]
            exponent = body[body.index(after: e)...]
        }
        guard let dot = mantissa.firstIndex(of: ".") else { return false }
        let whole = mantissa[..<dot], fraction = mantissa[mantissa.index(after: dot)...]
        let digits: (Substring) -> Bool = { $0.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "_") } }
        guard digits(whole), digits(fraction), !(whole.isEmpty && fraction.isEmpty) else { return false }
        if whole.isEmpty, fraction.first == "_" { return false }
        if let first = whole.first, !(first.isASCII && first.isNumber) { return false }
        if let exponent {
            guard let sign = exponent.first, sign == "+" || sign == "-" else { return false }
            let rest = exponent.dropFirst()
            return !rest.isEmpty && rest.allSatisfy { $0.isASCII && $0.isNumber }
        }
        return true
    }

    static func float(_ text: String, event: YAMLEvent, fail: Fail) throws -> JinjaValue {
        let lower = text.lowercased().filter { $0 != "_" }
        switch lower {
        case ".inf", "+.inf": return .float(.infinity)
        case "-.inf": return .float(-.infinity)
        case ".nan": return .float(.nan)
        default:
            guard let number = Double(lower) else { throw fail(event, "the number \(text) is out of range") }
            return .float(number)
        }
    }
}
