import CUtf8proc
import Glibc

// The extensions templates rely on, built in and named as their users know them: cookiecutter's (always on for a
// cookiecutter template) and jinja2-time's `now`; jinja2-ansible-filters (copier's) are in JinjaExtensions+Ansible.

extension JinjaExtension {
    /// The filters `extensions` add.
    static func filterNames(_ extensions: Set<JinjaExtension>) -> Set<String> {
        var names: Set<String> = []
        if extensions.contains(.jsonify) { names.insert("jsonify") }
        if extensions.contains(.slugify) { names.insert("slugify") }
        if extensions.contains(.ansibleFilters) { names.formUnion(ansibleFilterNames) }
        return names
    }

    /// The tests `extensions` add (none yet).
    static func testNames(_ extensions: Set<JinjaExtension>) -> Set<String> { [] }
}

extension JinjaRenderer {
    /// An extension's filter, nil when no enabled extension has `name`.
    func extensionFilter(_ name: String, _ v: JinjaValue, _ args: JinjaArguments) throws -> JinjaValue? {
        let extensions = options.extensions
        switch name {
        case "jsonify" where extensions.contains(.jsonify):
            let indent = try intArg(args, 0, "indent", 4)
            return .string(try pythonJSON(v, indent: indent, sortKeys: true, ensureASCII: true))
        case "slugify" where extensions.contains(.slugify):
            return .string(try slugify(v, args))
        default:
            if extensions.contains(.ansibleFilters), JinjaExtension.ansibleFilterNames.contains(name) { return try ansibleFilter(name, v, args) }
            return nil
        }
    }

    /// An extension's global function, nil when no enabled extension has `name`.
    func extensionGlobal(_ name: String) -> JinjaValue? {
        switch name {
        case "random_ascii_string" where options.extensions.contains(.randomString):
            return .function(JinjaFunction(name: name) { args, r in
                let length = try r.intArg(args, 0, "length", 0)
                guard length >= 0 else { throw r.error(.value, "random_ascii_string: the length must not be negative") }
                guard length <= r.limits.maxOutputBytes else { throw r.error(.limit, "random_ascii_string(\(length)) is over the output limit") }
                let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".unicodeScalars)
                let corpus = try r.boolArg(args, 1, "punctuation", false) ? letters + Array("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".unicodeScalars) : letters
                var generator = SystemRandomNumberGenerator()
                var out = String.UnicodeScalarView()
                for _ in 0..<length { out.append(corpus[Int.random(in: 0..<corpus.count, using: &generator)]) }
                return .string(String(out))
            })
        case "uuid4" where options.extensions.contains(.uuid):
            return .function(JinjaFunction(name: name) { _, _ in .string(Self.uuid4()) })
        default:
            return nil
        }
    }

    /// A random version-4 UUID in its usual text form.
    static func uuid4() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return uuidText(bytes)
    }

    static func uuidText(_ bytes: [UInt8]) -> String {
        let hex = bytes.map { JinjaValue.hex(UInt32($0), width: 2) }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
    }

    /// Python's `json.dumps(value, indent=indent, sort_keys=sortKeys, ensure_ascii=ensureASCII)`, with its default
    /// separators (`", "` and `": "`, or `","` between items when indenting).
    func pythonJSON(_ v: JinjaValue, indent: Int?, sortKeys: Bool, ensureASCII: Bool, level: Int = 0) throws -> String {
        guard level < 200 else { throw error(.value, "value nested too deeply for tojson") }
        let newline = indent.map { "\n" + String(repeating: " ", count: max(0, $0) * (level + 1)) }
        let closing = indent.map { "\n" + String(repeating: " ", count: max(0, $0) * level) }
        let separator = indent == nil ? ", " : ","
        let text = { (s: String) in Self.jsonString(s, ensureASCII: ensureASCII) }
        switch v {
        case .none: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .bigInt(let b): return b.description
        case .float(let d): return d.isNaN ? "NaN" : d.isInfinite ? (d < 0 ? "-Infinity" : "Infinity") : JinjaValue.floatRepr(d)
        case .string(let s), .markup(let s): return text(s)
        case .list, .tuple:
            let items = try iterate(v)
            if items.isEmpty { return "[]" }
            let parts = try items.map { try pythonJSON($0, indent: indent, sortKeys: sortKeys, ensureASCII: ensureASCII, level: level + 1) }
            return "[" + (newline ?? "") + parts.joined(separator: separator + (newline ?? "")) + (closing ?? "") + "]"
        case .dict(let d):
            if d.count == 0 { return "{}" }
            let entries = sortKeys ? d.entries.sorted { (JinjaValue.pyLess($0.key, $1.key) ?? false) } : d.entries
            let parts = try entries.map { entry in
                text(try Self.jsonKey(entry.key, self)) + ": "
                    + (try pythonJSON(entry.value, indent: indent, sortKeys: sortKeys, ensureASCII: ensureASCII, level: level + 1))
            }
            return "{" + (newline ?? "") + parts.joined(separator: separator + (newline ?? "")) + (closing ?? "") + "}"
        case .undefined(let u): throw error(.type, "Object of type Undefined is not JSON serializable (\(u.hint))")
        default: throw error(.type, "Object of type \(v.typeName) is not JSON serializable")
        }
    }

    /// A dict key as `json.dumps` writes it: strings as they are, numbers, booleans and None as JSON spells them.
    static func jsonKey(_ key: JinjaValue, _ r: JinjaRenderer) throws -> String {
        switch key {
        case .string(let s), .markup(let s): return s
        case .bool(let b): return b ? "true" : "false"
        case .none: return "null"
        case .int(let i): return String(i)
        case .float(let d): return JinjaValue.floatRepr(d)
        default: throw r.error(.type, "keys must be str, int, float, bool or None, not \(key.typeName)")
        }
    }
}

// MARK: Unicode normalization

enum JinjaUnicode {
    /// `text` in normalization form NFKD (`compatibility: true`) or NFKC (`compose: true`), through utf8proc.
    static func normalized(_ text: String, compose: Bool) -> String {
        var options = UTF8PROC_STABLE.rawValue | UTF8PROC_COMPAT.rawValue
        options |= compose ? UTF8PROC_COMPOSE.rawValue : UTF8PROC_DECOMPOSE.rawValue
        var bytes = Array(text.utf8)
        var result: UnsafeMutablePointer<utf8proc_uint8_t>?
        let length = bytes.withUnsafeMutableBufferPointer { buffer in
            utf8proc_map(buffer.baseAddress, utf8proc_ssize_t(buffer.count), &result, utf8proc_option_t(rawValue: options))
        }
        defer { free(result) }
        guard length >= 0, let result else { return text }
        return String(decoding: UnsafeBufferPointer(start: result, count: Int(length)), as: UTF8.self)
    }

    /// Whether `scalar` is a combining mark (general category Mn or Mc).
    static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
        let category = utf8proc_category(utf8proc_int32_t(bitPattern: scalar.value))
        return category == UTF8PROC_CATEGORY_MN || category == UTF8PROC_CATEGORY_MC
    }
}
