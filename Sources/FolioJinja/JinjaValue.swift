/// A value as a Jinja template sees it: Python's types (None, bool, int, float, str, list, tuple, dict) plus
/// Jinja's own (Undefined, safe markup, callables, namespaces, loop objects).
public enum JinjaValue {
    /// A name or attribute that does not exist; how it behaves depends on `JinjaOptions.undefined`.
    case undefined(JinjaUndefined)
    /// Python's `None`.
    case none
    /// Python's `True` / `False`.
    case bool(Bool)
    /// Python's `int` (within 64 bits; operations that would overflow raise an error).
    case int(Int)
    /// Python's `int` beyond 64 bits (only values that do not fit an `Int`).
    case bigInt(JinjaBigInt)
    /// Python's `float`.
    case float(Double)
    /// Python's `str`.
    case string(String)
    /// Text marked safe (markupsafe's `Markup`): not escaped again.
    case markup(String)
    /// Python's `list` (shared and mutable, as `items.append(x)` needs).
    case list(JinjaList)
    /// Python's `tuple`.
    case tuple([JinjaValue])
    /// Python's `dict`, in insertion order (shared and mutable).
    case dict(JinjaDict)
    /// A callable: a macro, a global function, a bound method.
    case function(JinjaFunction)
    /// Jinja's `namespace()` object.
    case namespace(JinjaNamespace)
    /// Another object with attributes (the loop variable, a cycler, an imported template module).
    case object(JinjaObject)
}

/// What is known about an undefined value: its name and why it is undefined.
public struct JinjaUndefined {
    /// The name that was looked up (`_undefined_name`).
    public var name: String?
    /// The message an `UndefinedError` raised from this value gives.
    public var hint: String {
        get { givenHint ?? (name.map { "'\($0)' is undefined" } ?? "value is undefined") }
        set { givenHint = newValue }
    }
    /// The hint given, else nil: the default one is made when asked (most undefined values are never printed).
    var givenHint: String?
    /// The type of the object an attribute or item was missing from (`int object`), if that is why.
    public var objectType: String?
    /// Whether `hint` was given rather than derived from the name.
    var explicitHint: Bool
    /// A name a frame starts with as undefined (see `JinjaFrameNames`); includes see past it.
    var isFrameLocal = false

    /// Creates an undefined value's description.
    public init(name: String?, hint: String? = nil, objectType: String? = nil) {
        self.name = name
        self.objectType = objectType
        explicitHint = hint != nil && objectType == nil
        givenHint = hint
    }
}

/// A Python list: a reference, so that every name bound to it sees `append`.
public final class JinjaList {
    /// The elements.
    public var items: [JinjaValue]
    /// The start, stop and step when it is a `range()` (printed `range(0, 4)`), else nil.
    var range: (start: Int, stop: Int, step: Int)?
    var rangeRepr: String? {
        guard let r = range else { return nil }
        return r.step == 1 ? "range(\(r.start), \(r.stop))" : "range(\(r.start), \(r.stop), \(r.step))"
    }
    /// Creates a list of `items`.
    public init(_ items: [JinjaValue] = []) { self.items = items }
}

/// A key of a `JinjaDict`, hashed as Python hashes: `1`, `1.0` and `True` are the same key.
enum JinjaKey: Hashable {
    case none
    case int(Int)
    case float(Double)
    case string(String)
    case tuple([JinjaKey])
    case big(JinjaBigInt)
    case identity(ObjectIdentifier)

    init?(_ value: JinjaValue) {
        switch value {
        case .none: self = .none
        case .bool(let b): self = .int(b ? 1 : 0)
        case .int(let i): self = .int(i)
        case .bigInt(let b): self = .big(b)
        case .float(let d):
            if d.rounded() == d, let i = Int(exactly: d) { self = .int(i) } else { self = .float(d) }
        case .string(let s), .markup(let s): self = .string(s)
        case .tuple(let items):
            var keys: [JinjaKey] = []
            for item in items {
                guard let k = JinjaKey(item) else { return nil }
                keys.append(k)
            }
            self = .tuple(keys)
        case .function(let f): self = .identity(ObjectIdentifier(f))
        case .namespace(let n): self = .identity(ObjectIdentifier(n))
        case .object(let o): self = .identity(ObjectIdentifier(o))
        case .undefined, .list, .dict: return nil
        }
    }
}

/// A Python dict: insertion-ordered, shared and mutable.
public final class JinjaDict {
    private(set) var keys: [JinjaValue] = []
    private(set) var values: [JinjaValue] = []
    private var index: [JinjaKey: Int] = [:]

    /// Creates an empty dict.
    public init() {}

    /// Creates a dict of string keys, in the order given.
    public init(_ pairs: [(String, JinjaValue)]) {
        for (k, v) in pairs { set(.string(k), v) }
    }

    /// The number of entries.
    public var count: Int { keys.count }

    /// The entries in insertion order.
    public var entries: [(key: JinjaValue, value: JinjaValue)] { Array(zip(keys, values)).map { (key: $0.0, value: $0.1) } }

    /// The value for `key`, if present.
    public subscript(key: String) -> JinjaValue? { self.get(.string(key)) }

    /// The value for `key`, if present.
    public func get(_ key: JinjaValue) -> JinjaValue? {
        guard let k = JinjaKey(key), let i = index[k] else { return nil }
        return values[i]
    }

    /// Sets `key` to `value` (keeping the key's first position when it exists). Unhashable keys are ignored.
    @discardableResult
    public func set(_ key: JinjaValue, _ value: JinjaValue) -> Bool {
        guard let k = JinjaKey(key) else { return false }
        if let i = index[k] { values[i] = value } else {
            index[k] = keys.count
            keys.append(key)
            values.append(value)
        }
        return true
    }

    /// Removes `key`, returning its value.
    public func remove(_ key: JinjaValue) -> JinjaValue? {
        guard let k = JinjaKey(key), let i = index[k] else { return nil }
        let v = values[i]
        keys.remove(at: i)
        values.remove(at: i)
        index = [:]
        for (n, key) in keys.enumerated() { if let kk = JinjaKey(key) { index[kk] = n } }
        return v
    }

    /// A shallow copy.
    public func copy() -> JinjaDict {
        let d = JinjaDict()
        for (k, v) in zip(keys, values) { d.set(k, v) }
        return d
    }
}

/// Jinja's `namespace()`: attributes assignable from inner scopes with `{% set ns.x = … %}`.
public final class JinjaNamespace {
    /// The attributes.
    public let attributes: JinjaDict
    /// Creates a namespace holding `attributes`.
    public init(_ attributes: JinjaDict = JinjaDict()) { self.attributes = attributes }
}

/// Arguments of a call: positional then keyword, in the order written.
public struct JinjaArguments {
    /// Positional arguments.
    public var positional: [JinjaValue]
    /// Keyword arguments in the order written.
    public var keywords: [(String, JinjaValue)]

    /// Creates arguments.
    public init(_ positional: [JinjaValue] = [], keywords: [(String, JinjaValue)] = []) {
        self.positional = positional
        self.keywords = keywords
    }

    /// The argument at `position` or named `name`, or nil.
    func value(_ position: Int, _ name: String) -> JinjaValue? {
        if let kw = keywords.first(where: { $0.0 == name }) { return kw.1 }
        return position >= 0 && position < positional.count ? positional[position] : nil
    }
}

/// A callable value; `call` receives the render in progress (for macros, which render template code).
public final class JinjaFunction {
    /// The name shown in messages and by `.__name__`.
    public let name: String
    let body: (JinjaArguments, JinjaRenderer) throws -> JinjaValue
    /// The macro behind it, when it is one (for `caller`, `arguments` and friends).
    let macro: JinjaMacroInfo?

    init(name: String, macro: JinjaMacroInfo? = nil, body: @escaping (JinjaArguments, JinjaRenderer) throws -> JinjaValue) {
        self.name = name
        self.macro = macro
        self.body = body
    }
}

/// What a macro declares, for its attributes.
struct JinjaMacroInfo {
    let arguments: [String]
    let catchesVarargs: Bool
    let catchesKwargs: Bool
    let isCaller: Bool
}

/// An object whose attributes are computed: the loop variable, cyclers, joiners, imported modules.
public protocol JinjaObject: AnyObject {
    /// Python's type name, used in messages (`'LoopContext object' has no attribute …`).
    var typeName: String { get }
    /// The attribute `name`, or nil when it does not exist.
    func attribute(_ name: String) -> JinjaValue?
}

extension JinjaValue {
    /// A list value of `items`.
    public static func array(_ items: [JinjaValue]) -> JinjaValue { .list(JinjaList(items)) }
    /// A dict value with string keys in the order given.
    public static func object(_ pairs: [(String, JinjaValue)]) -> JinjaValue { .dict(JinjaDict(pairs)) }

    var isUndefined: Bool { if case .undefined = self { return true } else { return false } }
    var isNone: Bool { if case .none = self { return true } else { return false } }
    /// Whether it is a list or a tuple.
    var isList: Bool {
        switch self {
        case .list, .tuple: return true
        default: return false
        }
    }

    var stringValue: String? {
        switch self {
        case .string(let s), .markup(let s): return s
        default: return nil
        }
    }
}
