// The filters of jinja2-ansible-filters (1.3), which copier loads for every template: JSON, base64, paths, shell
// quoting, booleans, regular expressions, ternary, mandatory, flatten and combine, as that package writes them.
// Its filters Folio does not have (reading YAML, hashes, dates, globbing, random MACs) are named as such when a template
// asks for one: `ansibleUnavailable`.

extension JinjaExtension {
    /// The jinja2-ansible-filters filters Folio has.
    static let ansibleFilterNames: Set<String> = [
        "to_json", "to_nice_json", "from_json", "b64encode", "b64decode", "basename", "dirname", "splitext", "win_basename",
        "win_dirname", "quote", "bool", "ternary", "mandatory", "type_debug", "flatten", "combine", "regex_replace",
        "regex_search", "regex_findall", "regex_escape", "to_yaml", "to_nice_yaml",
    ]

    /// Its filters Folio does not have: a template using one is refused naming it, never rendered without it.
    static let ansibleUnavailable: Set<String> = [
        "from_yaml", "from_yaml_all", "to_uuid", "md5", "sha1", "checksum", "hash", "to_datetime",
        "strftime", "fileglob", "expanduser", "expandvars", "realpath", "relpath", "win_splitdrive", "ans_random", "shuffle",
        "ans_groupby", "extract", "subelements", "random_mac", "comment",
    ]
}

extension JinjaRenderer {
    func ansibleFilter(_ name: String, _ v: JinjaValue, _ args: JinjaArguments) throws -> JinjaValue {
        switch name {
        case "to_json":
            let indent = try args.value(-1, "indent").map { try intArg(JinjaArguments([$0]), 0, "indent", 0) }
            return .string(try pythonJSON(v, indent: indent, sortKeys: try boolArg(args, -1, "sort_keys", false),
                                          ensureASCII: try boolArg(args, -1, "ensure_ascii", true)))
        case "to_nice_json":
            let json = try pythonJSON(v, indent: try intArg(args, 0, "indent", 4), sortKeys: try boolArg(args, 1, "sort_keys", true),
                                      ensureASCII: try boolArg(args, -1, "ensure_ascii", true))
            return .string(json)
        case "from_json": return try JinjaValue(json: try str(v))
        case "b64encode": return .string(Self.base64(Array(try str(v).utf8)))
        case "b64decode":
            guard let bytes = Self.unbase64(try str(v)) else { throw error(.value, "b64decode: Incorrect padding or not base64") }
            return .string(String(decoding: bytes, as: UTF8.self))
        case "basename", "win_basename": return .string(Self.basename(try str(v), windows: name == "win_basename"))
        case "dirname", "win_dirname": return .string(Self.dirname(try str(v), windows: name == "win_dirname"))
        case "splitext":
            let (root, ext) = Self.splitext(try str(v))
            return .tuple([.string(root), .string(ext)])
        case "quote": return .string(Self.shellQuote(try str(v)))
        case "bool": return Self.ansibleBool(v)
        case "ternary":
            guard let whenTrue = args.value(0, "true_val"), let whenFalse = args.value(1, "false_val") else {
                throw error(.type, "ternary() missing required arguments: 'true_val' and 'false_val'")
            }
            if v.isNone, let none = args.value(2, "none_val"), !none.isNone { return none }
            return try truthy(v) ? whenTrue : whenFalse
        case "mandatory":
            guard case .undefined(let u) = v else { return v }
            if let message = args.value(0, "msg"), !message.isNone { throw error(.runtime, try str(message)) }
            throw error(.runtime, "Mandatory variable \(u.name.map { "\"\($0)\" " } ?? "")not defined.")
        case "type_debug": return .string(v.typeName)
        case "flatten": return .list(JinjaList(try flatten(v, levels: try args.value(0, "levels").map { try intArg(JinjaArguments([$0]), 0, "levels", 0) })))
        case "combine": return try combine([v] + args.positional, recursive: try boolArg(args, -1, "recursive", false))
        case "regex_replace", "regex_search", "regex_findall", "regex_escape": return try regexFilter(name, v, args)
        case "to_yaml", "to_nice_yaml": return try yamlFilter(name, v, args)
        default: throw error(.runtime, "No filter named '\(name)' found.")
        }
    }

    /// Ansible's `bool`: None and booleans as they are; `yes`, `on`, `1`, `true` (any case) and 1 true; else false.
    static func ansibleBool(_ v: JinjaValue) -> JinjaValue {
        switch v {
        case .none, .bool: return v
        case .string(let s), .markup(let s): return .bool(["yes", "on", "1", "true"].contains(s.lowercased()))
        case .int(let i): return .bool(i == 1)
        case .float(let d): return .bool(d == 1)
        default: return .bool(false)
        }
    }

    /// Ansible's `flatten`: nested lists spliced in (`levels` deep, nil: all the way); a None, `"None"` or `"null"`
    /// element ends the list there, as that filter's loop breaks on one.
    func flatten(_ v: JinjaValue, levels: Int?) throws -> [JinjaValue] {
        var out: [JinjaValue] = []
        for element in try iterate(v) {
            if element.isNone { break }
            if case .string(let s) = element, s == "None" || s == "null" { break }
            if element.isList {
                if let levels {
                    if levels >= 1 { out += try flatten(element, levels: levels - 1) } else { out.append(element) }
                } else {
                    out += try flatten(element, levels: nil)
                }
            } else {
                out.append(element)
            }
        }
        return out
    }

    /// Dicts merged left to right (later keys win), recursively into nested dicts when `recursive`.
    func combine(_ terms: [JinjaValue], recursive: Bool) throws -> JinjaValue {
        let merged = JinjaDict()
        for term in terms {
            for dict in (term.isList ? try iterate(term) : [term]) {
                guard case .dict(let d) = dict else { throw error(.runtime, "failed to combine variables, expected dicts but got \(dict.typeName)") }
                for (key, value) in d.entries {
                    if recursive, case .dict = value, let old = merged.get(key), case .dict = old {
                        merged.set(key, try combine([old, value], recursive: true))
                    } else {
                        merged.set(key, value)
                    }
                }
            }
        }
        return .dict(merged)
    }

    // MARK: Base64, paths and quoting

    static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func base64(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let b0 = bytes[i], b1 = i + 1 < bytes.count ? bytes[i + 1] : 0, b2 = i + 2 < bytes.count ? bytes[i + 2] : 0
            out.append(base64Alphabet[Int(b0 >> 2)])
            out.append(base64Alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            out.append(i + 1 < bytes.count ? base64Alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            out.append(i + 2 < bytes.count ? base64Alphabet[Int(b2 & 0x3F)] : UInt8(ascii: "="))
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Python's `base64.b64decode` (non-alphabet characters discarded, padding required); nil when it fails.
    static func unbase64(_ text: String) -> [UInt8]? {
        var values: [UInt8] = [], padding = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "=") { padding += 1; continue }
            guard let index = base64Alphabet.firstIndex(of: byte) else { continue }
            guard padding == 0 else { return nil }
            values.append(UInt8(index))
        }
        guard (values.count + padding) % 4 == 0, values.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        var i = 0
        while i + 1 < values.count {
            out.append(values[i] << 2 | values[i + 1] >> 4)
            if i + 2 < values.count { out.append(values[i + 1] << 4 | values[i + 2] >> 2) }
            if i + 3 < values.count { out.append(values[i + 2] << 6 | values[i + 3]) }
            i += 4
        }
        return out
    }

    /// `os.path.basename` (or `ntpath.basename`): what follows the last separator.
    static func basename(_ path: String, windows: Bool) -> String {
        let separators: Set<Character> = windows ? ["/", "\\"] : ["/"]
        var start = path.startIndex
        if windows, path.count >= 2, path[path.index(after: path.startIndex)] == ":" { start = path.index(path.startIndex, offsetBy: 2) }
        let body = path[start...]
        guard let last = body.lastIndex(where: { separators.contains($0) }) else { return String(body) }
        return String(body[body.index(after: last)...])
    }

    /// `os.path.dirname` (or `ntpath.dirname`): up to the last separator, trailing separators dropped unless it is the root.
    static func dirname(_ path: String, windows: Bool) -> String {
        let separators: Set<Character> = windows ? ["/", "\\"] : ["/"]
        var drive = "", body = Substring(path)
        if windows, path.count >= 2, path[path.index(after: path.startIndex)] == ":" {
            drive = String(path.prefix(2))
            body = path.dropFirst(2)
        }
        guard let last = body.lastIndex(where: { separators.contains($0) }) else { return drive }
        var head = body[...last]
        let stripped = head.reversed().drop { separators.contains($0) }
        if !stripped.isEmpty { head = head.prefix(stripped.count) }
        return drive + String(head)
    }

    /// `os.path.splitext`: the extension from the last dot of the last component, not counting leading dots.
    static func splitext(_ path: String) -> (String, String) {
        let name = basename(path, windows: false)
        let leading = name.prefix { $0 == "." }.count
        let rest = name.dropFirst(leading)
        guard let dot = rest.lastIndex(of: ".") else { return (path, "") }
        let ext = String(rest[dot...])
        return (String(path.dropLast(ext.count)), ext)
    }

    /// `shlex.quote`: the text as one shell word.
    static func shellQuote(_ text: String) -> String {
        if text.isEmpty { return "''" }
        let safe = text.unicodeScalars.allSatisfy { s in
            s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s) || "@%+=:,./-_".unicodeScalars.contains(s))
        }
        return safe ? text : "'" + text.replacing("'", with: "'\"'\"'") + "'"
    }
}
