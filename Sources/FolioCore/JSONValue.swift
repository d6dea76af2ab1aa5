import FoundationEssentials
import Glibc

/// A JSON value with its position in the source, for errors that name line and column.
public indirect enum JSONValue: Equatable, Sendable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case let .bool(value): try container.encode(value)
        case let .number(value):
            if value == value.rounded(), abs(value) < 1e15 { try container.encode(Int64(value)) } else { try container.encode(value) }
        case let .string(value): try container.encode(value)
        case let .array(value): try container.encode(value)
        case let .object(value): try container.encode(value)
        }
    }

    /// The string, if this is one.
    public var stringValue: String? { if case let .string(s) = self { return s } else { return nil } }
    /// The object, if this is one.
    public var objectValue: [String: JSONValue]? { if case let .object(o) = self { return o } else { return nil } }
    /// The array, if this is one.
    public var arrayValue: [JSONValue]? { if case let .array(a) = self { return a } else { return nil } }
}

/// A JSON node parsed with positions: the value, where it starts, and for objects where each key stands.
public struct JSONNode: Sendable {
    /// An object's member: its key, where the key stands, and its value.
    public typealias Member = (key: String, keyLine: Int, keyColumn: Int, value: JSONNode)
    public enum Kind: Sendable { case null, bool(Bool), number(Double), string(String), array([JSONNode]), object([Member]) }
    public let kind: Kind
    public let line: Int
    public let column: Int

    /// The plain value, without positions.
    public var value: JSONValue {
        switch kind {
        case .null: return .null
        case let .bool(b): return .bool(b)
        case let .number(n): return .number(n)
        case let .string(s): return .string(s)
        case let .array(items): return .array(items.map(\.value))
        case let .object(members):
            var object: [String: JSONValue] = [:]
            for member in members { object[member.key] = member.value.value }
            return .object(object)
        }
    }

    /// Parses JSON text; errors say the line and column.
    public static func parse(_ data: Data) throws -> JSONNode {
        var parser = PositionedJSONParser(bytes: Array(data))
        return try parser.parseDocument()
    }

    /// Fails on the first key of an object (at any depth given by `allowed(path)`) that is not allowed.
    /// `allowed` receives the key path of the object (e.g. `["variables", "*"]` for each variable) and returns
    /// the allowed keys, or nil to accept anything.
    public func rejectUnknownKeys(path: [String] = [], allowed: ([String]) -> Set<String>?) throws {
        switch kind {
        case let .object(members):
            let allowedKeys = allowed(path)
            for member in members {
                if let allowedKeys, !allowedKeys.contains(member.key) {
                    throw JSONPositionError(line: member.keyLine, column: member.keyColumn, message: "unknown key '\(member.key)'")
                }
                try member.value.rejectUnknownKeys(path: path + [member.key], allowed: allowed)
            }
        case let .array(items):
            for item in items { try item.rejectUnknownKeys(path: path + ["*"], allowed: allowed) }
        default: break
        }
    }

    /// The number as an `Int` when it is whole and within ±2^53 (where every whole number is exact in JSON's
    /// doubles, so `9223372036854775809` is not silently read as `Int.max`); nil otherwise. Never traps.
    public var wholeNumber: Int? {
        guard case let .number(value) = kind, value.magnitude <= 9_007_199_254_740_992 else { return nil }
        return Int(exactly: value)
    }

    /// The member node for `key`, if this is an object holding it.
    public subscript(key: String) -> JSONNode? {
        if case let .object(members) = kind { return members.last(where: { $0.key == key })?.value }
        return nil
    }
}

/// A JSON syntax or shape error at a line and column.
public struct JSONPositionError: Error, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let message: String
    public init(line: Int, column: Int, message: String) { self.line = line; self.column = column; self.message = message }
    public var description: String { "line \(line), column \(column): \(message)" }
}

/// Helpers for the strict JSON files Folio reads.
public enum JSONKeys {
    /// A one-line description of a decoding or parsing error.
    public static func describe(_ error: any Error) -> String {
        if let positioned = error as? JSONPositionError { return positioned.description }
        if let decoding = error as? DecodingError {
            func pathText(_ path: [any CodingKey]) -> String {
                path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            }
            switch decoding {
            case let .keyNotFound(key, context):
                let at = pathText(context.codingPath)
                return "missing key '\(key.stringValue)'" + (at.isEmpty ? "" : " in \(at)")
            case let .typeMismatch(_, context), let .valueNotFound(_, context), let .dataCorrupted(context):
                let at = pathText(context.codingPath)
                return (at.isEmpty ? "" : "\(at): ") + context.debugDescription
            @unknown default:
                return "\(decoding)"
            }
        }
        return "\(error)"
    }
}
