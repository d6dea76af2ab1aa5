import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioMustache

extension MeaningLint {
    mutating func lintPaths() {
        for file in tree.files where file.path.contains("{{") {
            checkPath(file.path, place: LintPlace(file: "files/" + file.path))
        }
        if !findings.contains(where: { $0.code == TemplateLintCode.mustacheSyntax.rawValue }) { lintPathVariants() }
    }

    /// T401 for what sections put in a path: each tagged path is rendered with several answer sets (every bool true,
    /// every bool false, each choice in turn; text answers a harmless `x`), and one that makes a refused path is reported.
    private mutating func lintPathVariants() {
        let template = Template(manifest: manifest, path: "", source: TemplateSource(name: "lint", location: "lint"), commit: "", ref: nil, files: [])
        let options = MustacheRenderOptions(strict: false, escapeHTML: false, limits: MustacheLimits(maxOutputBytes: 1 << 20, maxSteps: 100_000))
        let paths = tree.files.map(\.path).filter { $0.contains("{{") && !isExcluded($0) }
        guard !paths.isEmpty else { return }
        var reported: Set<String> = []
        for answers in answerVariants() {
            let context = template.renderContext(answers)
            var cache: [String: String] = [:]
            for path in paths where !reported.contains(path) {
                do { _ = try template.renderPath(path, context: context, options: options, cache: &cache, where_: path) } catch let error as TemplateError {
                    reported.insert(path)
                    let shown = answers.filter { if case .string = $0.value { return false } else { return true } }
                        .sorted { $0.key < $1.key }.map { "\($0.key)=\(TemplateVariable.display($0.value))" }.joined(separator: ", ")
                    add(.unsafePathSegment, "files/" + path, 1, 1, "with \(shown.isEmpty ? "some answers" : shown): \(error.message)")
                } catch {
                    continue  // a render limit: reported by the render with the defaults (T404)
                }
            }
        }
    }

    /// At most 64 answer sets: a base (text `x`, numbers at their minimum, the first choice, no picks), every bool
    /// true, every bool false, and each choice (all of a multichoice's) in turn.
    private func answerVariants() -> [[String: JSONValue]] {
        var base: [String: JSONValue] = [:]
        for variable in manifest.variables {
            switch variable.type {
            case .string: base[variable.name] = .string("x")
            case .bool: base[variable.name] = .bool(false)
            case .int: base[variable.name] = .number(Double(variable.min ?? 0))
            case .choice: base[variable.name] = (variable.choices?.first).map(JSONValue.string) ?? .null
            case .multichoice: base[variable.name] = .array([])
            }
        }
        var variants = [base, base.mapValues { if case .bool = $0 { return .bool(true) } else { return $0 } }]
        for variable in manifest.variables {
            if variable.type == .choice { for choice in variable.choices ?? [] { variants.append(base.merging([variable.name: .string(choice)]) { _, new in new }) } }
            if variable.type == .multichoice { variants.append(base.merging([variable.name: .array((variable.choices ?? []).map(JSONValue.string))]) { _, new in new }) }
        }
        return Array(variants.prefix(64))
    }

    /// Checks the tags of each segment of `path` (positions: `place` is where the path's first character is).
    mutating func checkPath(_ path: String, place: LintPlace) {
        var offset = 0
        for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
            defer { offset += segment.unicodeScalars.count + 1 }
            guard segment.contains("{{") else { continue }
            let source = String(segment.replacing("{{%2F", with: "{{/").replacing("{{%2f", with: "{{/"))
            let at = LintPlace(file: place.file, line: place.line, column: place.column + offset)
            let before = findings.count
            checkSource(source, place: at, scope: .render)
            guard findings.count == before, let template = try? MustacheTemplate(source, name: place.file) else { continue }
            checkSegmentValues(template.tags, place: at, sections: [])
        }
    }

    /// T401: a tag in a path segment whose answer may hold `/`, `\`, `%`, a control character, or be `.`, `..`, `.git`
    /// or `.folio` — instantiation would refuse such an answer, so the template should rule it out first.
    private mutating func checkSegmentValues(_ tags: [MustacheTag], place: LintPlace, sections: [String]) {
        for tag in tags {
            if tag.kind == .variable, let example = hazard(of: tag, sections: sections) {
                let at = place.position(of: tag)
                add(.unsafePathSegment, place.file, at.line, at.column,
                    "'{{\(tag.name)}}' in a path can render to '\(example)', which instantiation refuses; "
                    + "give the variable a pattern or choices that rule it out, or use {{\(tag.nameParts.first ?? tag.name).slug}}")
            }
            let inner = tag.kind == .section || tag.kind == .invertedSection ? sections + [tag.name] : sections
            checkSegmentValues(tag.children, place: place, sections: inner)
        }
    }

    /// An answer the tag can render to that a path refuses, or nil when there is none.
    private func hazard(of tag: MustacheTag, sections: [String]) -> String? {
        var parts = tag.nameParts
        if parts.isEmpty {  // `.`: the innermost section's value (a multichoice gives each choice)
            guard let section = sections.last else { return nil }
            parts = section.split(separator: ".").map(String.init)
        }
        guard let first = parts.first, let variable = variables[first] else { return nil }
        let helper = parts.count > 1 ? parts[1] : nil
        if let helper, Self.pathSafeHelpers.contains(helper) { return nil }
        func shaped(_ value: String) -> String {
            switch helper {
            case "lowercase"?: return value.lowercased()
            case "uppercase"?: return value.uppercased()
            default: return value
            }
        }
        switch variable.type {
        case .int, .bool: return nil
        case .choice, .multichoice: return (variable.choices ?? []).map(shaped).first(where: Self.refusedInPath)
        case .string:
            return Self.hostileAnswers(min: variable.min ?? 0).first { candidate in
                (try? variable.accept(.string(candidate), template: "")) != nil && Self.refusedInPath(shaped(candidate))
            }
        }
    }

    /// Answers a path must refuse, padded to at least `min` characters where that keeps them hostile.
    static func hostileAnswers(min: Int) -> [String] {
        let pad = String(repeating: "a", count: Swift.max(0, Swift.min(min, 4096) - 3))
        return ["..", ".", ".git", ".folio", "/", "a/b", pad + "a/b", "a\\b", pad + "a\\b", "a%2Fb", pad + "a%2Fb", "a\tb", pad + "a\tb"]
    }

    static func refusedInPath(_ value: String) -> Bool {
        if value == "." || value == ".." { return true }
        if value.contains("/") || value.contains("\\") || value.contains("%") { return true }
        if value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return true }
        let trimmed = trimmingTrailingDotsAndSpaces(value.lowercased())
        return trimmed == ".git" || trimmed == ".folio"
    }

    // MARK: A render with the defaults

    /// Renders the template with every default (when all variables have one), as instantiation would, and reports
    /// refused paths (T402), a primary file that is not rendered (T403) and any other failure (T404).
    mutating func lintRender() {
        var partials: [String: String] = [:], repositoryPartials: [String: String] = [:]
        let jinja = manifest.templateLanguage == .jinja
        for (name, data) in jinja ? tree.jinjaPartials : tree.partials { if let text = String(data: data, encoding: .utf8) { partials[name] = text } }
        for (name, data) in jinja ? tree.jinjaRepositoryPartials : tree.repositoryPartials {
            if let text = String(data: data, encoding: .utf8) { repositoryPartials[name] = text }
        }
        let sourceName = "lint"
        let template = Template(manifest: manifest, path: "", source: TemplateSource(name: sourceName, location: sourceName), commit: "",
                                ref: nil, files: tree.files, partials: partials, repositoryPartials: repositoryPartials)
        guard let answers = try? template.answers(given: [:], mode: .defaults, context: TemplateLinter.sampleContext) else { return }
        do {
            let files = try template.render(answers: answers)
            if let primary = try template.renderPrimaryFile(answers: answers), !files.contains(where: { $0.path == primary }) {
                let node = root?["primaryFile"]
                add(.primaryFileMissing, TemplateLinter.manifestFile, node?.line ?? 0, node?.column ?? 0,
                    "primaryFile renders to '\(primary)' with the defaults, which is not among the rendered files")
            }
        } catch let error as TemplateError {
            let file = error.subject.dropping(prefix: sourceName + ": ") ?? error.subject
            add(error.message.contains("rendered path") || error.message.contains("renders to") || error.message.contains("link") ? .refusedPath : .renderFails,
                file, "with the default answers: \(error.message)")
        } catch let error as MustacheError {
            let file = error.file.dropping(prefix: sourceName + ": ") ?? error.file
            add(.renderFails, file, error.line, error.column, "with the default answers: \(error.message)")
        } catch {
            add(.renderFails, TemplateLinter.manifestFile, "with the default answers: \(TemplateError.oneLine(error))")
        }
    }
}

