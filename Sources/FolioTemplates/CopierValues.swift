import FoundationEssentials
import FolioJinja
import FolioBasics
import FolioCore

/// copier's conversions of answers: `cast_to_bool` and the casts of its question types (`str`, `int`, `float`,
/// `bool`, `json`, `yaml`), with Python's semantics and failable throughout (answers come from outside).
enum CopierValues {
    static let types: Set<String> = ["str", "int", "float", "bool", "json", "yaml"]

    /// copier's `cast_to_bool`: a number is true unless 0; then YAML's words; then Python's truthiness.
    static func castToBool(_ value: JinjaValue) -> Bool {
        if let number = try? float(value) { return number != 0 }
        switch value {
        case let .string(text), let .markup(text):
            let lower = text.trimming(.whitespacesAndNewlines).lowercased()
            if lower.isEmpty { return false }
            if ["y", "yes", "t", "true", "on"].contains(lower) { return true }
            if ["n", "no", "f", "false", "off", "~", "null", "none"].contains(lower) { return false }
            return true
        case .none, .undefined: return false
        case let .bool(flag): return flag
        case let .list(list): return !list.items.isEmpty
        case let .tuple(items): return !items.isEmpty
        case let .dict(dict): return dict.count > 0
        default: return true
        }
    }

    struct CastError: Error { let why: String }

    /// The answer cast to the question's type, as copier's `cast_answer` does (a list answer of a multiselect item
    /// by item).
    static func cast(_ value: JinjaValue, type: String) throws -> JinjaValue {
        if case .none = value, type != "json", type != "yaml" { throw CastError(why: "None is not a \(type)") }
        switch type {
        case "str": return .string(value.pythonString)
        case "bool": return .bool(castToBool(value))
        case "int": return .int(try int(value))
        case "float": return .float(try float(value))
        case "json":
            guard case let .string(text) = value else { return value }
            do { return try JinjaValue(json: text) } catch { throw CastError(why: "'\(text)' is not JSON") }
        case "yaml":
            guard case let .string(text) = value else { return value }
            guard let document = try? YAMLReader().documents(Data(text.utf8), file: "answer").first else {
                throw CastError(why: "'\(text)' is not YAML")
            }
            return document
        default: throw CastError(why: "the type \(type) is not one copier has")
        }
    }

    /// Python's `int(value)`: text in base 10 (underscores between digits allowed), a float truncated, a bool 0 or 1.
    static func int(_ value: JinjaValue) throws -> Int {
        switch value {
        case let .int(number): return number
        case let .bool(flag): return flag ? 1 : 0
        case let .float(number):
            guard number.isFinite, let whole = Int(exactly: number.rounded(.towardZero)) else { throw CastError(why: "\(number) is not a whole number") }
            return whole
        case let .string(text):
            let trimmed = text.trimming(.whitespacesAndNewlines)
            let digits = trimmed.hasPrefix("_") || trimmed.hasSuffix("_") || trimmed.contains("__") ? nil : Int(trimmed.replacing("_", with: ""))
            guard let digits else { throw CastError(why: "'\(text)' is not a whole number") }
            return digits
        default: throw CastError(why: "\(value.pythonRepr) is not a whole number")
        }
    }

    /// Python's `float(value)`.
    static func float(_ value: JinjaValue) throws -> Double {
        switch value {
        case let .int(number): return Double(number)
        case let .bool(flag): return flag ? 1 : 0
        case let .float(number): return number
        case let .string(text):
            let trimmed = text.trimming(.whitespacesAndNewlines).lowercased()
            switch trimmed {
            case "inf", "+inf", "infinity", "+infinity": return .infinity
            case "-inf", "-infinity": return -.infinity
            case "nan", "+nan", "-nan": return .nan
            default:
                guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.e".contains($0)) }), let number = Double(trimmed) else {
                    throw CastError(why: "'\(text)' is not a number")
                }
                return number
            }
        default: throw CastError(why: "\(value.pythonRepr) is not a number")
        }
    }

    /// A JSON answer as a Jinja value of the question's type (an answer file's `1.0` stays a float).
    static func jinja(_ value: JSONValue, type: String) -> JinjaValue {
        let plain = CookiecutterTemplate.jinjaValue(value)
        if type == "float", case let .number(number) = value { return .float(number) }
        return plain
    }

    /// A Jinja value as JSON, for the answers Folio records; nil for what JSON cannot hold.
    static func json(_ value: JinjaValue) -> JSONValue? {
        switch value {
        case .none: return .null
        case let .bool(flag): return .bool(flag)
        case let .int(number): return .number(Double(number))
        case let .float(number): return number.isFinite ? .number(number) : nil
        case let .string(text), let .markup(text): return .string(text)
        case let .list(list): return jsonArray(list.items)
        case let .tuple(items): return jsonArray(items)
        case let .dict(dict):
            var members: [String: JSONValue] = [:]
            for (key, item) in dict.entries {
                guard case let .string(name) = key, let converted = json(item) else { return nil }
                members[name] = converted
            }
            return .object(members)
        default: return nil
        }
    }

    private static func jsonArray(_ items: [JinjaValue]) -> JSONValue? {
        var out: [JSONValue] = []
        for item in items {
            guard let converted = json(item) else { return nil }
            out.append(converted)
        }
        return .array(out)
    }
}
