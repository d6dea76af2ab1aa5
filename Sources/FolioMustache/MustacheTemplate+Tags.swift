/// One tag of a parsed template, for tools that check templates without rendering them (`folio templates lint`).
public struct MustacheTag: Sendable {
    /// What kind of tag it is.
    public enum Kind: Sendable, Equatable {
        /// `{{name}}`, `{{{name}}}` or `{{&name}}`.
        case variable
        /// `{{#name}}…{{/name}}`.
        case section
        /// `{{^name}}…{{/name}}`.
        case invertedSection
        /// `{{>name}}`; `dynamic` for `{{>*name}}`, whose name is looked up in the data.
        case partial(dynamic: Bool)
        /// `{{<name}}…{{/name}}`; `dynamic` for `{{<*name}}`.
        case parent(dynamic: Bool)
        /// `{{$name}}…{{/name}}`: a block (its name is not looked up in the data).
        case block
    }

    /// The kind of tag.
    public let kind: Kind
    /// The name as written (trimmed): `.`, `name`, `a.b`, or a partial's name.
    public let name: String
    /// The dot-separated parts of the name; empty for `.`.
    public let nameParts: [String]
    /// The 1-based line of the tag's opening delimiter.
    public let line: Int
    /// The 1-based column (in Unicode scalars) of the tag's opening delimiter.
    public let column: Int
    /// The tags inside a section, parent (its block overrides) or block.
    public let children: [MustacheTag]
}

extension MustacheTemplate {
    /// The template's tags in source order (text and comments left out), nested as written.
    public var tags: [MustacheTag] { Self.tags(of: nodes) }

    private static func tags(of nodes: [MustacheNode]) -> [MustacheTag] {
        nodes.compactMap(tag(of:))
    }

    private static func tag(of node: MustacheNode) -> MustacheTag? {
        func make(_ kind: MustacheTag.Kind, _ name: MustacheName, _ at: TagPosition, _ children: [MustacheTag] = []) -> MustacheTag {
            MustacheTag(kind: kind, name: name.raw, nameParts: name.parts, line: at.line, column: at.column, children: children)
        }
        switch node {
        case .text: return nil
        case let .variable(name, _, at): return make(.variable, name, at)
        case let .section(name, inverted, children, at): return make(inverted ? .invertedSection : .section, name, at, tags(of: children))
        case let .partial(reference, _, at): return make(.partial(dynamic: reference.isDynamic), reference.name, at)
        case let .parent(reference, _, overrides, at):
            let blocks = overrides.keys.sorted().compactMap { key in overrides[key].map { tags(of: $0) } }.flatMap { $0 }
            return make(.parent(dynamic: reference.isDynamic), reference.name, at, blocks)
        case let .block(name, children, _, _, at): return make(.block, MustacheName(name), at, tags(of: children))
        }
    }

    /// The names a string value answers as case helpers (`{{name.snake_case}}`), for checking names without rendering.
    public static var caseHelperNames: Set<String> { MustacheValue.caseHelperNames }
}
