import FoundationEssentials
import Glibc

/// A `Decoder` over a parsed `JSONNode`, converting values as `JSONDecoder` does (numbers to integers only when
/// exact, no strings for numbers or numbers for booleans).
struct NodeDecoder: Decoder {
    let node: JSONNode
    let codingPath: [any CodingKey]
    /// The object path with `*` for array elements, matched against `strict`.
    let pattern: [String]
    let strict: Set<[String]>
    let dates: StrictJSON.Dates
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case let .object(members) = node.kind else { throw mismatch([String: Any].self) }
        if strict.contains(pattern), let listed = type as? any (CodingKey & CaseIterable).Type {
            let allowed = Self.names(listed)
            if let unknown = members.first(where: { !allowed.contains($0.key) }) {
                throw JSONPositionError(line: unknown.keyLine, column: unknown.keyColumn, message: "unknown key '\(unknown.key)'")
            }
        }
        return KeyedDecodingContainer(NodeKeyedContainer<Key>(decoder: self, members: members))
    }

    static func names<K: CodingKey & CaseIterable>(_ type: K.Type) -> Set<String> { Set(K.allCases.map(\.stringValue)) }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case let .array(items) = node.kind else { throw mismatch([Any].self) }
        return NodeUnkeyedContainer(decoder: self, items: items)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func child(_ node: JSONNode, key: any CodingKey, pattern part: String) -> NodeDecoder {
        NodeDecoder(node: node, codingPath: codingPath + [key], pattern: pattern + [part], strict: strict, dates: dates)
    }

    func mismatch(_ type: Any.Type) -> DecodingError {
        if case .null = node.kind {
            return .valueNotFound(type, .init(codingPath: codingPath, debugDescription: "Expected \(type) value but found null instead."))
        }
        return .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "Expected to decode \(type) but found \(found) instead."))
    }

    var found: String {
        switch node.kind {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "a dictionary"
        }
    }

    /// The node's number as `T`, refused unless exact.
    func integer<T: BinaryInteger>(_ type: T.Type) throws -> T {
        guard case let .number(value) = node.kind else { throw mismatch(type) }
        guard value.magnitude <= 9_007_199_254_740_992, let exact = T(exactly: value) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Number \(value) is not representable in Swift."))
        }
        return exact
    }
}

extension NodeDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { if case .null = node.kind { return true } else { return false } }
    func decode(_ type: Bool.Type) throws -> Bool { if case let .bool(v) = node.kind { return v }; throw mismatch(type) }
    func decode(_ type: String.Type) throws -> String { if case let .string(v) = node.kind { return v }; throw mismatch(type) }
    func decode(_ type: Double.Type) throws -> Double { if case let .number(v) = node.kind { return v }; throw mismatch(type) }
    func decode(_ type: Float.Type) throws -> Float {
        let value = try decode(Double.self)
        guard value.magnitude <= Double(Float.greatestFiniteMagnitude) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Number \(value) does not fit in Float."))
        }
        return Float(value)
    }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Date.self, let date = try date() as? T { return date }
        return try T(from: self)
    }

    /// A date as `dates` says; nil leaves it to `Date`'s own decoding.
    func date() throws -> Date? {
        switch dates {
        case .deferredToDate: return nil
        case .secondsSince1970: return Date(timeIntervalSince1970: try decode(Double.self))
        case .iso8601:
            guard let date = ISO8601Seconds.parse(try decode(String.self)) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Expected date string to be ISO8601-formatted."))
            }
            return date
        }
    }
}

/// An object's members for `NodeDecoder`.
struct NodeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: NodeDecoder
    let members: [JSONNode.Member]
    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool { members.contains { $0.key == key.stringValue } }

    func child(_ key: Key) throws -> NodeDecoder {
        guard let member = members.last(where: { $0.key == key.stringValue }) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue)."))
        }
        return decoder.child(member.value, key: key, pattern: key.stringValue)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try child(key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try child(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try child(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try child(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).decode(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decode(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try child(key).unkeyedContainer() }
    func superDecoder() throws -> any Decoder {
        guard let key = Key(stringValue: "super") else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "No 'super' key."))
        }
        return try child(key)
    }
    func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
}

/// An array's elements for `NodeDecoder`.
struct NodeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: NodeDecoder
    let items: [JSONNode]
    var currentIndex = 0
    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    init(decoder: NodeDecoder, items: [JSONNode]) { self.decoder = decoder; self.items = items }

    /// The next element's decoder, advancing past it only when `body` succeeds (as `JSONDecoder` does).
    mutating func next<T>(_ type: Any.Type, _ body: (NodeDecoder) throws -> T) throws -> T {
        let key = NodeIndexKey(currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [key], debugDescription: "Unkeyed container is at end."))
        }
        let value = try body(decoder.child(items[currentIndex], key: key, pattern: "*"))
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, case .null = items[currentIndex].kind else { return false }
        currentIndex += 1
        return true
    }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) { try $0.decode(type) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type) { try $0.decode(type) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next(type) { try $0.container(keyedBy: type) }
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next([Any].self) { try $0.unkeyedContainer() } }
    mutating func superDecoder() throws -> any Decoder { try next(Any.self) { $0 } }
}

/// An array index as a coding key.
struct NodeIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { guard let index = Int(stringValue) else { return nil }; intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
}
