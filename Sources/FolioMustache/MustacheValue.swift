import Foundation

/// A JSON-like value that templates are rendered against.
public enum MustacheValue: Sendable {
    /// Text; also answers case helpers such as `name.snake_case`.
    case string(String)
    /// A whole number, printed without a fraction (`1`).
    case int(Int)
    /// A floating-point number, printed shortest-round-trip (`1.21`); integral values print as ints.
    case double(Double)
    /// A boolean; `false` is falsey in sections.
    case bool(Bool)
    /// JSON null: renders empty and is falsey.
    case null
    /// A list; sections repeat once per element.
    case array([MustacheValue])
    /// A JSON object; key order is irrelevant.
    case object([String: MustacheValue])
}

extension MustacheValue: Equatable {
    /// Structural equality; integer and floating-point numbers compare by numeric value.
    public static func == (lhs: MustacheValue, rhs: MustacheValue) -> Bool {
        switch (lhs, rhs) {
        case let (.string(a), .string(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.int(a), .double(b)), let (.double(b), .int(a)): return Double(a) == b
        case let (.bool(a), .bool(b)): return a == b
        case (.null, .null): return true
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)): return a == b
        default: return false
        }
    }
}

extension MustacheValue {
    /// Parses JSON bytes (any top-level value) into a `MustacheValue`.
    public init(json: Data) throws {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])
        } catch {
            // Foundation's own message says only "not in the correct format"; its debug description says where.
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
            throw MustacheError(file: "<json>", message: "malformed JSON: \(detail)")
        }
        self = try MustacheValue(jsonObject: object)
    }

    /// Converts a value produced by `JSONSerialization` (or plain Swift values) into a `MustacheValue`.
    public init(jsonObject: Any) throws {
        self = try MustacheValue.convert(jsonObject, depth: 0)
    }

    private static let boolNumberType = type(of: NSNumber(value: true))

    private static func convert(_ any: Any, depth: Int) throws -> MustacheValue {
        if depth > 512 {
            throw MustacheError(file: "<json>", message: "value nested deeper than 512 levels")
        }
        let dynamicType = type(of: any)
        if dynamicType == Bool.self, let b = any as? Bool { return .bool(b) }
        if dynamicType == Int.self, let i = any as? Int { return .int(i) }
        if dynamicType == Double.self, let d = any as? Double { return .double(d) }
        if let s = any as? String { return .string(s) }
        if any is NSNull { return .null }
        if let number = any as? NSNumber {
            if type(of: number) == boolNumberType { return .bool(number.boolValue) }
            let objCType = String(cString: number.objCType)
            switch objCType {
            case "c", "B": return .bool(number.boolValue)
            case "d", "f": return .double(number.doubleValue)
            case "Q", "L", "I", "S":
                let u = number.uint64Value
                return u <= UInt64(Int.max) ? .int(Int(u)) : .double(number.doubleValue)
            default: return .int(Int(truncatingIfNeeded: number.int64Value))
            }
        }
        if let list = any as? [Any] {
            return .array(try list.map { try convert($0, depth: depth + 1) })
        }
        if let dict = any as? [String: Any] {
            var out: [String: MustacheValue] = [:]
            out.reserveCapacity(dict.count)
            for (key, value) in dict { out[key] = try convert(value, depth: depth + 1) }
            return .object(out)
        }
        if let value = any as? MustacheValue { return value }
        throw MustacheError(file: "<json>", message: "unsupported value of type \(dynamicType)")
    }

    /// The text an interpolation tag prints for this value.
    var renderedText: String {
        switch self {
        case .string(let s): return s
        case .int(let i): return String(i)
        case .double(let d):
            if d.isFinite, d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
            return "\(d)"
        case .bool(let b): return b ? "true" : "false"
        case .null: return ""
        case .array(let items): return items.map(\.renderedText).joined(separator: ",")
        case .object: return ""
        }
    }

    /// Mustache truthiness: null, false, the empty string and the empty list are falsey.
    var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let b): return b
        case .string(let s): return !s.isEmpty
        case .array(let items): return !items.isEmpty
        default: return true
        }
    }

    /// The value a dotted-name segment answers: object keys first, then string case helpers.
    func member(_ key: String) -> MustacheValue? {
        switch self {
        case .object(let dict): return dict[key]
        case .string(let s): return MustacheValue.caseHelper(key, of: s).map(MustacheValue.string)
        default: return nil
        }
    }
}

extension MustacheValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    /// A string value from a literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer value from a literal.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A floating-point value from a literal.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A boolean value from a literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A list value from a literal.
    public init(arrayLiteral elements: MustacheValue...) { self = .array(elements) }
    /// An object value from a literal (later duplicate keys win).
    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        var dict: [String: MustacheValue] = [:]
        for (key, value) in elements { dict[key] = value }
        self = .object(dict)
    }
    /// The null value from `nil`.
    public init(nilLiteral: ()) { self = .null }
}
