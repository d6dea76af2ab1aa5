import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore

/// The kind of answer a template variable takes.
public enum TemplateVariableType: String, Codable, Sendable {
    case string, bool, int, choice, multichoice
}

/// One question a template asks, from `variables` in `template.json`.
public struct TemplateVariable: Codable, Sendable, Equatable {
    public var name: String
    public var type: TemplateVariableType
    public var prompt: String?
    public var help: String?
    /// The default answer; a string default may be Mustache over earlier answers.
    public var `default`: JSONValue?
    public var choices: [String]?
    /// A regular expression the whole answer must match (strings).
    public var pattern: String?
    /// Smallest value (int) or shortest length (string).
    public var min: Int?
    /// Largest value (int) or longest length (string).
    public var max: Int?
    /// The name of an earlier variable: this one is asked only when that answer is truthy.
    public var when: String?
    /// A secret answer is used for rendering but never recorded in the document.
    public var secret: Bool?
    /// Names this variable had in earlier versions of the template: an update carries a recorded answer under one
    /// of them over to this name.
    public var renamedFrom: [String]?

    /// The text shown when asking.
    public var question: String { prompt ?? name }
    var isSecret: Bool { secret ?? false }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, type, prompt, help, `default`, choices, pattern, min, max, when, secret, renamedFrom
    }
}

/// The template language a native template's files, paths and defaults are written in (`"language"` in
/// `template.json`; Mustache when it names none).
public enum TemplateLanguage: String, Codable, Sendable, Equatable, CaseIterable {
    case mustache
    /// Jinja2's language, rendered by FolioJinja with the template's `partials/` for include, import and extends.
    case jinja
}

/// The parsed `template.json` of one template.
public struct TemplateManifest: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var summary: String?
    public var version: String?
    public var minFolioVersion: String?
    public var contentType: String?
    /// Mustache for the path of the file an editor opens.
    public var primaryFile: String?
    public var variables: [TemplateVariable]
    public var exclude: [String]
    public var copyOnly: [String]
    /// Words `folio templates search` finds the template by, besides its id, name and summary.
    public var tags: [String]?
    /// The language its files are written in; nil: Mustache.
    public var language: TemplateLanguage?

    /// The language its files, paths and defaults are rendered with.
    public var templateLanguage: TemplateLanguage { language ?? .mustache }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name, summary, version, minFolioVersion, contentType, primaryFile, variables, exclude, copyOnly, tags, language
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        summary = try c.decodeIfPresent(String.self, forKey: .summary)
        version = try c.decodeIfPresent(String.self, forKey: .version)
        minFolioVersion = try c.decodeIfPresent(String.self, forKey: .minFolioVersion)
        contentType = try c.decodeIfPresent(String.self, forKey: .contentType)
        primaryFile = try c.decodeIfPresent(String.self, forKey: .primaryFile)
        variables = try c.decodeIfPresent([TemplateVariable].self, forKey: .variables) ?? []
        exclude = try c.decodeIfPresent([String].self, forKey: .exclude) ?? []
        copyOnly = try c.decodeIfPresent([String].self, forKey: .copyOnly) ?? []
        tags = try c.decodeIfPresent([String].self, forKey: .tags)
        language = try c.decodeIfPresent(TemplateLanguage.self, forKey: .language)
    }

    /// Parses and checks `template.json`; errors name `file` and, when known, the line and column.
    public static func parse(_ data: Data, file: String) throws -> TemplateManifest {
        let node: JSONNode
        let manifest: TemplateManifest
        do {
            node = try JSONNode.parse(data)
            try checkBounds(node)
            manifest = try StrictJSON.decode(TemplateManifest.self, from: node, strictAt: [[], ["variables", "*"]])
        } catch {
            throw TemplateError(file, JSONKeys.describe(error), kind: .invalidFile)
        }
        func fail(_ node: JSONNode?, _ message: String) -> TemplateError {
            TemplateError(file, node.map { "line \($0.line), column \($0.column): \(message)" } ?? message, kind: .invalidFile)
        }
        let idOK = !manifest.id.isEmpty && manifest.id.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { part in
            !part.isEmpty && part != "." && part != ".." && part.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) }
        }
        guard idOK else { throw fail(node["id"], "id '\(manifest.id)' must be words of letters, digits, '-', '_' or '.' separated by '/'") }
        if let version = manifest.version, SemanticVersion(version) == nil {
            throw fail(node["version"], "version '\(version)' is not a semantic version like 1.2.0")
        }
        if let minimum = manifest.minFolioVersion, SemanticVersion(minimum) == nil {
            throw fail(node["minFolioVersion"], "minFolioVersion '\(minimum)' is not a semantic version like 0.1.0")
        }
        var seen: Set<String> = []
        let variableNodes: [JSONNode]
        if case let .array(items)? = node["variables"]?.kind { variableNodes = items } else { variableNodes = [] }
        for (index, variable) in manifest.variables.enumerated() {
            let at = index < variableNodes.count ? variableNodes[index] : nil
            guard !variable.name.isEmpty, variable.name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
                  variable.name.first.map({ !$0.isNumber }) ?? false else {
                throw fail(at, "variable name '\(variable.name)' must be letters, digits and '_'")
            }
            guard seen.insert(variable.name).inserted else { throw fail(at, "variable '\(variable.name)' is declared twice") }
            if variable.type == .choice || variable.type == .multichoice, (variable.choices ?? []).isEmpty {
                throw fail(at, "variable '\(variable.name)' of type \(variable.type.rawValue) needs choices")
            }
            if let pattern = variable.pattern {
                do { _ = try Regex(pattern) } catch {
                    throw fail(at, "variable '\(variable.name)': pattern '\(pattern)' is not a valid regular expression")
                }
            }
            if let when = variable.when, !seen.contains(when) || when == variable.name {
                throw fail(at, "variable '\(variable.name)': when '\(when)' must name an earlier variable")
            }
        }
        try checkRenames(manifest.variables) { index, message in fail(index < variableNodes.count ? variableNodes[index] : nil, message) }
        return manifest
    }

    /// Each variable's `min` and `max` must be whole numbers that fit an `Int` (1e30, 1.5 or "3" are refused here
    /// with their position, rather than by the decoder without one).
    static func checkBounds(_ node: JSONNode) throws {
        guard case let .array(variables)? = node["variables"]?.kind else { return }
        for variable in variables {
            for key in ["min", "max"] {
                guard let bound = variable[key] else { continue }
                guard bound.wholeNumber != nil else {
                    throw JSONPositionError(line: bound.line, column: bound.column, message: "'\(key)' must be a whole number")
                }
            }
        }
    }
}
