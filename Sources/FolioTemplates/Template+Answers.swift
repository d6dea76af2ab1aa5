import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioMustache

/// How missing answers are obtained while collecting them.
public enum AnswerMode: Sendable {
    /// Use each default; a variable without one is an error.
    case defaults
    /// Ask through the closure: it gets the variable, its default as text (if any) and the problem with the last
    /// answer (if any), and returns the typed text (empty for the default).
    case ask(@Sendable (TemplateVariable, String?, String?) throws -> String)
}

extension Template {
    /// Collects the answers: given values first (from `--set` as text or `--data` as JSON), then defaults or
    /// questions. Variables whose `when` answer is falsy are skipped. Every answer is checked against its type,
    /// choices, pattern and range; an answer that fails is an error naming the variable (or is asked again).
    public func answers(given: [String: JSONValue], mode: AnswerMode, context: [String: JSONValue] = [:]) throws -> [String: JSONValue] {
        if let copier { return try copierAnswers(copier, given: given, mode: mode, context: context) }
        var given = given, overrides: [String: JSONValue] = [:]
        if let cookiecutter { (given, overrides) = try cookiecutterOverrides(cookiecutter, given) }
        let declared = Set(manifest.variables.map(\.name))
        if let unknown = given.keys.sorted().first(where: { !declared.contains($0) }) {
            throw TemplateError(manifest.id, "unknown variable '\(unknown)' (the template asks for: \(manifest.variables.map(\.name).joined(separator: ", ")))", kind: .unknownVariable)
        }
        var answers: [String: JSONValue] = [:]
        for variable in manifest.variables {
            if let condition = variable.when, !Self.truthy(answers[condition]) { continue }
            if let value = given[variable.name] {
                answers[variable.name] = try variable.accept(value, template: manifest.id)
                continue
            }
            let defaultValue = try defaultAnswer(for: variable, answers: answers.merging(context) { a, _ in a })
            switch mode {
            case .defaults:
                guard let defaultValue else {
                    throw TemplateError(manifest.id, "no answer for '\(variable.name)' (\(variable.question)) and no default",
                                        kind: .missingAnswer(variable: variable.name))
                }
                answers[variable.name] = try variable.accept(defaultValue, template: manifest.id)
            case let .ask(ask):
                var problem: String?
                while true {
                    let text = try ask(variable, defaultValue.map(TemplateVariable.display), problem)
                    do {
                        if text.isEmpty, let defaultValue {
                            answers[variable.name] = try variable.accept(defaultValue, template: manifest.id)
                        } else {
                            answers[variable.name] = try variable.accept(.string(text), template: manifest.id)
                        }
                        break
                    } catch let error as TemplateError {
                        problem = error.message
                    }
                }
            }
        }
        return answers.merging(overrides) { _, override in override }
    }

    /// The answers to record in a document: everything but secrets.
    public func recordableAnswers(_ answers: [String: JSONValue]) -> [String: JSONValue] {
        let secrets = Set(manifest.variables.filter(\.isSecret).map(\.name))
        return answers.filter { !secrets.contains($0.key) }
    }

    /// A variable's default, with a string default rendered as Mustache over the answers so far.
    func defaultAnswer(for variable: TemplateVariable, answers: [String: JSONValue]) throws -> JSONValue? {
        if let cookiecutter { return try cookiecutterDefault(cookiecutter, for: variable, answers: answers) }
        if let copier { return try copierDefault(copier, for: variable, answers: answers) }
        guard let value = variable.default else { return variable.type == .bool ? .bool(false) : nil }
        if manifest.templateLanguage == .jinja {
            guard case let .string(text) = value, text.contains("{") else { return value }
            let where_ = describe("template.json") + " (default of \(variable.name))"
            let context = Self.jinjaContext(answers)
            return .string(try renderJinjaText(text, context: context, environment: jinjaEnvironment(), where_: where_))
        }
        guard case let .string(text) = value, text.contains("{{") else { return value }
        let rendered = try MustacheTemplate(text, name: describe("template.json") + " (default of \(variable.name))")
            .render(Self.mustacheValue(.object(answers)), partials: partials, options: MustacheRenderOptions(escapeHTML: false, limits: renderLimits))
        return .string(rendered)
    }

    static func truthy(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?: return false
        case let .bool(b)?: return b
        case let .number(n)?: return n != 0
        case let .string(s)?: return !s.isEmpty
        case let .array(a)?: return !a.isEmpty
        case .object?: return true
        }
    }
}

extension TemplateVariable {
    /// Converts a given value (text from the command line or a prompt, or JSON) to this variable's type and checks it.
    public func accept(_ value: JSONValue, template: String) throws -> JSONValue {
        func fail(_ why: String) -> TemplateError { TemplateError(template, "variable '\(name)': \(why)", kind: .invalidAnswer) }
        switch type {
        case .string:
            guard case let .string(text) = value else { throw fail("expected text") }
            if let min, text.count < min { throw fail("'\(text)' is shorter than \(min) characters") }
            if let max, text.count > max { throw fail("'\(text)' is longer than \(max) characters") }
            if let pattern {
                let regex: Regex<AnyRegexOutput>
                do { regex = try Regex("^(?:" + pattern + ")$") } catch { throw fail("pattern '\(pattern)' is not a valid regular expression") }
                if (try? regex.wholeMatch(in: text)) == nil { throw fail("'\(text)' does not match the pattern \(pattern)") }
            }
            return .string(text)
        case .bool:
            switch value {
            case let .bool(b): return .bool(b)
            case let .string(text):
                switch text.lowercased() {
                case "true", "yes", "y", "1", "on": return .bool(true)
                case "false", "no", "n", "0", "off": return .bool(false)
                default: throw fail("'\(text)' is not yes or no")
                }
            default: throw fail("expected true or false")
            }
        case .int:
            let number: Int
            switch value {
            case let .number(n) where n == n.rounded() && abs(n) < 1e15: number = Int(n)
            case let .string(text):
                guard let n = Int(text.trimming(.whitespaces)) else { throw fail("'\(text)' is not a whole number") }
                number = n
            default: throw fail("expected a whole number")
            }
            if let min, number < min { throw fail("\(number) is less than \(min)") }
            if let max, number > max { throw fail("\(number) is more than \(max)") }
            return .number(Double(number))
        case .choice:
            guard case let .string(text) = value else { throw fail("expected one of \(choiceList)") }
            guard let choice = (choices ?? []).first(where: { $0 == text }) ?? (choices ?? []).first(where: { $0.lowercased() == text.lowercased() }) else {
                throw fail("'\(text)' is not one of \(choiceList)")
            }
            return .string(choice)
        case .multichoice:
            var picked: [String] = []
            switch value {
            case let .array(items):
                for item in items {
                    guard case let .string(text) = item else { throw fail("expected a list of \(choiceList)") }
                    picked.append(text)
                }
            case let .string(text):
                picked = text.split(separator: ",").map { $0.trimming(.whitespaces) }.filter { !$0.isEmpty }
            default: throw fail("expected a list of \(choiceList)")
            }
            var result: [JSONValue] = []
            for text in picked {
                guard let choice = (choices ?? []).first(where: { $0.lowercased() == text.lowercased() }) else {
                    throw fail("'\(text)' is not one of \(choiceList)")
                }
                if !result.contains(.string(choice)) { result.append(.string(choice)) }
            }
            if let min, result.count < min { throw fail("pick at least \(min)") }
            if let max, result.count > max { throw fail("pick at most \(max)") }
            return .array(result)
        }
    }

    var choiceList: String { (choices ?? []).joined(separator: ", ") }

    /// A value as a user would type it.
    public static func display(_ value: JSONValue) -> String {
        switch value {
        case .null: return ""
        case let .bool(b): return b ? "yes" : "no"
        case let .number(n): return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        case let .string(s): return s
        case let .array(items): return items.map(display).joined(separator: ",")
        case .object: return ""
        }
    }
}
