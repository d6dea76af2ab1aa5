import CYaml
import FoundationEssentials
import FolioJinja
import FolioCore

/// Reads YAML (copier's `copier.yml`, answers files) with libyaml's event parser into `JinjaValue`s, resolving plain
/// scalars as PyYAML's `SafeLoader` does (YAML 1.1: `yes`/`on` are booleans, `0o17`-less octal `017`, `1_000`,
/// `~`, merge keys `<<`). Outside input, so bounded: at most `maxBytes` of text, `maxDepth` levels, and `maxValues`
/// values once aliases are counted as what they expand to (a "billion laughs" file is refused, not expanded).
///
/// A tag it does not know (`!!binary`, `!!timestamp`, `!!python/…`, any local tag but `!include`) is refused naming
/// the tag: read as text it would be wrong. `!include PATTERN` is answered by `include`, when given.
package struct YAMLReader {
    var maxBytes = 1 << 20
    var maxDepth = 64
    var maxValues = 200_000
    /// Answers `!include PATTERN` (copier's tag): the values of the files the pattern names.
    var include: ((String, _ at: String) throws -> [JinjaValue])?

    /// The documents of `data`, in order (an empty document is `.none`). `file` names it in errors.
    func documents(_ data: Data, file: String) throws -> [JinjaValue] {
        guard data.count <= maxBytes else { throw TemplateError(file, "is over \(maxBytes) bytes", kind: .tooLarge) }
        guard String(validating: [UInt8](data), as: UTF8.self) != nil else { throw TemplateError(file, "is not valid UTF-8", kind: .notUTF8) }
        let parser = try YAMLParser(file: file)
        return try data.withUnsafeBytes { raw in
            parser.setInput(raw)
            var builder = YAMLBuilder(reader: self, file: file)
            while try builder.take(parser.next()) {}
            return builder.documents
        }
    }
}

/// libyaml's parser: one owner of the C handle and of each event it hands out.
final class YAMLParser {
    private let handle: UnsafeMutablePointer<yaml_parser_t>
    private let file: String

    init(file: String) throws {
        self.file = file
        handle = .allocate(capacity: 1)
        guard yaml_parser_initialize(handle) == 1 else {
            handle.deallocate()
            throw TemplateError(file, "could not start the YAML parser", kind: .invalidFile)
        }
    }

    deinit {
        yaml_parser_delete(handle)
        handle.deallocate()
    }

    /// Parses from `bytes`, which must outlive the parse.
    func setInput(_ bytes: UnsafeRawBufferPointer) {
        yaml_parser_set_input_string(handle, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
    }

    /// The next event, copied out of libyaml's (which is deleted here).
    func next() throws -> YAMLEvent {
        var event = yaml_event_t()
        guard yaml_parser_parse(handle, &event) == 1 else { throw failure() }
        defer { yaml_event_delete(&event) }
        return YAMLEvent(event)
    }

    private func failure() -> TemplateError {
        let p = handle.pointee
        let problem = p.problem.map { String(cString: $0) } ?? "not valid YAML"
        let context = p.context.map { String(cString: $0) + ": " } ?? ""
        return TemplateError("\(file):\(p.problem_mark.line + 1):\(p.problem_mark.column + 1)", context + problem, kind: .invalidFile)
    }
}

/// One parse event, as Swift values.
struct YAMLEvent {
    enum Kind { case streamStart, streamEnd, documentStart, documentEnd, sequenceStart, sequenceEnd, mappingStart, mappingEnd, scalar, alias, other }
    var kind: Kind
    var anchor: String?
    var tag: String?
    var value = ""
    var plain = false
    var line = 0
    var column = 0

    init(_ event: yaml_event_t) {
        line = event.start_mark.line + 1
        column = event.start_mark.column + 1
        func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? { pointer.map { String(cString: $0) } }
        switch event.type {
        case YAML_STREAM_START_EVENT: kind = .streamStart
        case YAML_STREAM_END_EVENT: kind = .streamEnd
        case YAML_DOCUMENT_START_EVENT: kind = .documentStart
        case YAML_DOCUMENT_END_EVENT: kind = .documentEnd
        case YAML_SEQUENCE_START_EVENT:
            kind = .sequenceStart
            anchor = text(event.data.sequence_start.anchor); tag = text(event.data.sequence_start.tag)
        case YAML_SEQUENCE_END_EVENT: kind = .sequenceEnd
        case YAML_MAPPING_START_EVENT:
            kind = .mappingStart
            anchor = text(event.data.mapping_start.anchor); tag = text(event.data.mapping_start.tag)
        case YAML_MAPPING_END_EVENT: kind = .mappingEnd
        case YAML_SCALAR_EVENT:
            kind = .scalar
            let scalar = event.data.scalar
            anchor = text(scalar.anchor); tag = text(scalar.tag)
            if let bytes = scalar.value {
                value = String(decoding: UnsafeBufferPointer(start: bytes, count: scalar.length), as: UTF8.self)
            }
            plain = scalar.style == YAML_PLAIN_SCALAR_STYLE && scalar.plain_implicit == 1
        case YAML_ALIAS_EVENT:
            kind = .alias
            anchor = text(event.data.alias.anchor)
        default: kind = .other
        }
    }
}

/// Builds values from events: a stack of open collections, anchors, and the expanded size of each value.
struct YAMLBuilder {
    let reader: YAMLReader
    let file: String
    var documents: [JinjaValue] = []
    private var stack: [Open] = []
    private var anchors: [String: (value: JinjaValue, size: Int)] = [:]
    private var values = 0
    private var current: JinjaValue?

    init(reader: YAMLReader, file: String) { self.reader = reader; self.file = file }

    private final class Open {
        let isMapping: Bool
        let anchor: String?
        var items: [JinjaValue] = []
        var pairs: [(JinjaValue, JinjaValue)] = []
        var merges: [(JinjaValue, JinjaValue)] = []
        var key: JinjaValue?
        var keyIsMerge = false
        var size = 1
        var awaitsKey: Bool { if case .none = key { return true } else { return false } }
        init(isMapping: Bool, anchor: String?) { self.isMapping = isMapping; self.anchor = anchor }
    }

    private func fail(_ event: YAMLEvent, _ why: String) -> TemplateError {
        TemplateError("\(file):\(event.line):\(event.column)", why, kind: .invalidFile)
    }

    /// Takes one event; false at the end of the stream.
    mutating func take(_ event: YAMLEvent) throws -> Bool {
        switch event.kind {
        case .streamEnd: return false
        case .streamStart, .other: return true
        case .documentStart: current = nil; anchors = [:]
        case .documentEnd: documents.append(current ?? .none)
        case .sequenceStart, .mappingStart:
            let mapping = event.kind == .mappingStart
            let allowed = mapping ? ["tag:yaml.org,2002:map"] : ["tag:yaml.org,2002:seq"]
            if let tag = event.tag, !allowed.contains(tag) { throw fail(event, "the tag \(tag) is not supported") }
            guard stack.count < reader.maxDepth else { throw fail(event, "is nested deeper than \(reader.maxDepth) levels") }
            stack.append(Open(isMapping: mapping, anchor: event.anchor))
        case .sequenceEnd, .mappingEnd:
            let open = stack.removeLast()
            let value: JinjaValue
            if open.isMapping {
                let dict = JinjaDict()
                for (key, item) in open.merges + open.pairs { _ = dict.set(key, item) }
                value = .dict(dict)
            } else {
                value = .list(JinjaList(open.items))
            }
            try add(value, size: open.size, anchor: open.anchor, event: event, isMergeKey: false)
        case .scalar:
            let (value, isMerge) = try scalar(event)
            try add(value.value, size: value.size, anchor: event.anchor, event: event, isMergeKey: isMerge)
        case .alias:
            guard let name = event.anchor, let found = anchors[name] else { throw fail(event, "the alias *\(event.anchor ?? "") names no anchor before it") }
            try add(found.value, size: found.size, anchor: nil, event: event, isMergeKey: false)
        }
        return true
    }

    private mutating func scalar(_ event: YAMLEvent) throws -> ((value: JinjaValue, size: Int), Bool) {
        switch event.tag {
        case nil, "!":
            if !event.plain { return ((.string(event.value), 1), false) }
            if event.value == "<<", let top = stack.last, top.isMapping, top.awaitsKey { return ((.string("<<"), 1), true) }
            return ((try YAMLScalar.resolve(event.value, event: event, fail: fail), 1), false)
        case "!include":
            guard let include = reader.include else { throw fail(event, "!include is not allowed here") }
            let included = try include(event.value, "\(file):\(event.line):\(event.column)")
            return ((.list(JinjaList(included)), included.count + 1), false)
        case let tag?:
            return ((try YAMLScalar.tagged(tag, event.value, event: event, fail: fail), 1), false)
        }
    }

    private mutating func add(_ value: JinjaValue, size: Int, anchor: String?, event: YAMLEvent, isMergeKey: Bool) throws {
        values += size
        guard values <= reader.maxValues else { throw fail(event, "holds more than \(reader.maxValues) values once its aliases are expanded") }
        if let anchor { anchors[anchor] = (value, size) }
        guard let top = stack.last else { current = value; return }
        top.size += size
        guard top.isMapping else { top.items.append(value); return }
        guard let key = top.key else {
            switch value {
            case .list, .dict: throw fail(event, "a mapping key is a list or a mapping, which Folio does not take")
            default: break
            }
            top.key = value
            top.keyIsMerge = isMergeKey
            return
        }
        top.key = nil
        if top.keyIsMerge {
            top.keyIsMerge = false
            try merge(value, into: top, event: event)
        } else {
            top.pairs.append((key, value))
        }
    }

    /// `<<: *base` or `<<: [*a, *b]`: the merged mappings' pairs come first, earlier mappings of a list winning.
    private func merge(_ value: JinjaValue, into open: Open, event: YAMLEvent) throws {
        switch value {
        case let .dict(dict):
            open.merges += dict.entries.map { ($0.key, $0.value) }
        case let .list(list):
            for item in list.items.reversed() {
                guard case let .dict(dict) = item else { throw fail(event, "a merge key (<<) takes mappings only") }
                open.merges += dict.entries.map { ($0.key, $0.value) }
            }
        default:
            throw fail(event, "a merge key (<<) takes a mapping or a list of mappings")
        }
    }
}

extension YAMLReader {
    /// The documents of `data` under the default limits (for other modules reading outside YAML).
    package static func documents(_ data: Data, file: String) throws -> [JinjaValue] { try YAMLReader().documents(data, file: file) }

    /// A value read from YAML as JSON; nil for what JSON cannot hold.
    package static func json(_ value: JinjaValue) -> JSONValue? { CopierValues.json(value) }
}
