import FoundationEssentials
import FolioBasics
import Glibc

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
        do {
            self = try JSONDecoder().decode(DecodedJSON.self, from: json).value
        } catch let error as MustacheError {
            throw error
        } catch let DecodingError.dataCorrupted(context) {
            let underlying = context.underlyingError.map { ": \(String(describing: $0))" } ?? ""
            throw MustacheError(file: "<json>", message: "malformed JSON: \(context.debugDescription)\(underlying)")
        } catch {
            throw MustacheError(file: "<json>", message: "malformed JSON: \(String(describing: error))")
        }
    }

    /// Converts plain Swift values (`Bool`, `Int`, `Double`, `String`, arrays and string-keyed dictionaries of them,
    /// `MustacheValue`s) into a `MustacheValue`.
    public init(jsonObject: Any) throws {
        self = try MustacheValue.convert(jsonObject, depth: 0)
    }

    private static func convert(_ any: Any, depth: Int) throws -> MustacheValue {
        if depth > 512 {
            throw MustacheError(file: "<json>", message: "value nested deeper than 512 levels")
        }
        let dynamicType = type(of: any)
        if dynamicType == Bool.self, let b = any as? Bool { return .bool(b) }
        if dynamicType == Int.self, let i = any as? Int { return .int(i) }
        if dynamicType == Double.self, let d = any as? Double { return .double(d) }
        if let s = any as? String { return .string(s) }
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

/// A JSON value read through `JSONDecoder` (FoundationEssentials'; `JSONSerialization` lives in the ICU-linked layer):
/// `true`/`false` stay booleans, whole numbers that fit an `Int` are ints, other numbers doubles.
private struct DecodedJSON: Decodable {
    let value: MustacheValue

    init(from decoder: any Decoder) throws {
        if var list = try? decoder.unkeyedContainer() {
            var items: [MustacheValue] = []
            while !list.isAtEnd { items.append(try list.decode(DecodedJSON.self).value) }
            value = .array(items)
        } else if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: MustacheValue] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(DecodedJSON.self, forKey: key).value }
            value = .object(members)
        } else {
            value = try Self.scalar(try decoder.singleValueContainer())
        }
    }

    private static func scalar(_ single: any SingleValueDecodingContainer) throws -> MustacheValue {
        if single.decodeNil() { return .null }
        if let bool = try? single.decode(Bool.self) { return .bool(bool) }
        if let int = try? single.decode(Int.self) { return .int(int) }
        if let double = try? single.decode(Double.self) { return .double(double) }
        return .string(try single.decode(String.self))
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}
