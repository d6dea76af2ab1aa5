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
    public var tags: [MustacheTag] { Self.tags(of: program, program.all) }

    /// The tags of the nodes `range` of `program` (siblings).
    private static func tags(of program: MustacheProgram, _ range: Range<Int>) -> [MustacheTag] {
        var tags: [MustacheTag] = []
        var index = range.lowerBound
        while index < range.upperBound {
            let op = program.ops[index]
            if let tag = tag(of: op, at: index, in: program) { tags.append(tag) }
            index = op.next(at: index)
        }
        return tags
    }

    private static func tag(of op: MustacheOp, at index: Int, in program: MustacheProgram) -> MustacheTag? {
        func make(_ kind: MustacheTag.Kind, _ name: MustacheName, _ children: [MustacheTag] = []) -> MustacheTag {
            MustacheTag(kind: kind, name: name.raw, nameParts: name.parts, line: op.position.line, column: op.position.column, children: children)
        }
        switch op.kind {
        case .text: return nil
        case .variable: return make(.variable, program.names[op.first])
        case .section: return make(op.flag ? .invertedSection : .section, program.names[op.first], tags(of: program, op.contents(at: index)))
        case .partial:
            guard let reference = program.details[op.first].reference else { return nil }
            return make(.partial(dynamic: reference.isDynamic), reference.name)
        case .parent:
            let details = program.details[op.first]
            guard let reference = details.reference else { return nil }
            let blocks = details.overrides.keys.sorted().compactMap { key in
                details.overrides[key].map { tags(of: program, program.ops[index + $0].contents(at: index + $0)) }
            }.flatMap { $0 }
            return make(.parent(dynamic: reference.isDynamic), reference.name, blocks)
        case .block:
            return make(.block, MustacheName(program.details[op.first].blockName), tags(of: program, op.contents(at: index)))
        }
    }

    /// The names a string value answers as case helpers (`{{name.snake_case}}`), for checking names without rendering.
    public static var caseHelperNames: Set<String> { MustacheValue.caseHelperNames }
}
