import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioMustache

/// Where a tag is written, which decides the names it may use.
enum LintScope {
    /// A file's contents or a path segment: the answers and the per-choice flags.
    case render
    /// A string default of variable number `index`: the earlier answers plus `folder_name` and `current_year`.
    case defaultOf(index: Int)
}

/// Where a parsed text sits, to turn a tag's position within it into a position in its file.
struct LintPlace {
    let file: String
    /// Position of the text's first character in the file.
    var line = 1
    var column = 1

    func position(of tag: MustacheTag) -> (line: Int, column: Int) { position(line: tag.line, column: tag.column) }

    func position(line tagLine: Int, column tagColumn: Int) -> (line: Int, column: Int) {
        tagLine == 1 ? (line, column + tagColumn - 1) : (line + tagLine - 1, tagColumn)
    }
}

/// The checks that need the parsed manifest: names, partials, globs, paths and a render with the defaults.
struct MeaningLint {
    let tree: TemplateAuthoringTree
    let manifest: TemplateManifest
    /// The manifest as JSON nodes, for positions.
    let root: JSONNode?
    private(set) var findings: [TemplateLintFinding] = []
    var used: Set<String> = []
    let variables: [String: TemplateVariable]
    /// Per-choice flag name → its variable's name.
    let flags: [String: String]
    var checkedPartials: Set<String> = []

    /// String case helpers whose output holds only letters, digits, `_` and `-` (safe in a path segment).
    static let pathSafeHelpers: Set<String> = ["slug", "snake_case", "kebab_case", "camelCase", "PascalCase"]

    init(tree: TemplateAuthoringTree, manifest: TemplateManifest) {
        self.tree = tree
        self.manifest = manifest
        self.root = tree.manifest.flatMap { try? JSONNode.parse($0) }
        variables = Dictionary(manifest.variables.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var flags: [String: String] = [:]
        for variable in manifest.variables where variable.type == .choice || variable.type == .multichoice {
            for choice in variable.choices ?? [] {
                flags[variable.name + "_" + String(choice.map { $0.isLetter || $0.isNumber ? $0 : "_" })] = variable.name
            }
        }
        self.flags = flags
    }

    mutating func add(_ code: TemplateLintCode, _ file: String, _ line: Int, _ column: Int, _ message: String) {
        findings.append(TemplateLintFinding(code, file: file, line: line, column: column, message))
    }

    mutating func add(_ code: TemplateLintCode, _ file: String, _ message: String) {
        findings.append(TemplateLintFinding(code, file: file, message))
    }

    mutating func run() {
        if manifest.templateLanguage == .jinja {
            lintJinja()
            lintGlobs()
            if !findings.contains(where: { $0.severity == .error }) { lintRender() }
            return
        }
        lintContents()
        lintPaths()
        lintPrimaryFile()
        lintDefaults()
        for variable in manifest.variables { if let when = variable.when { used.insert(when) } }
        lintUnused()
        lintGlobs()
        if !findings.contains(where: { $0.severity == .error }) { lintRender() }
    }

    // MARK: Contents

    func isExcluded(_ path: String) -> Bool { manifest.exclude.contains { Glob.matches($0, path: path) } }
    private func isCopyOnly(_ path: String) -> Bool { manifest.copyOnly.contains { Glob.matches($0, path: path) } }

    private mutating func lintContents() {
        let open = Data("{{".utf8)
        for file in tree.files where file.isSymlink && !isExcluded(file.path) {
            let target = String(decoding: file.data, as: UTF8.self)
            do { try Template.checkLink(target: target, sourcePath: file.path, outputPath: file.path, where_: "files/" + file.path) } catch let error as TemplateError {
                add(.refusedPath, "files/" + file.path, error.message)
            } catch {
                add(.refusedPath, "files/" + file.path, TemplateError.oneLine(error))
            }
        }
        for file in tree.files where !file.isSymlink && !isExcluded(file.path) {
            let name = "files/" + file.path
            let hasTags = file.data.firstRange(of: open) != nil
            if isCopyOnly(file.path) {
                if hasTags {
                    add(.copyOnlyHasTags, name, "holds Mustache tags but matches copyOnly, so it is copied byte for byte with its tags unrendered; "
                        + "narrow copyOnly if they should render")
                }
                continue
            }
            if file.data.contains(0) || !hasTags { continue }
            guard let text = String(data: file.data, encoding: .utf8) else {
                add(.notUTF8, name, "holds '{{' but is not valid UTF-8, so it is copied byte for byte with its tags unrendered")
                continue
            }
            checkSource(text, place: LintPlace(file: name), scope: .render)
        }
    }

    /// Parses `text` and checks its tags; a syntax error is a finding.
    mutating func checkSource(_ text: String, place: LintPlace, scope: LintScope) {
        do {
            let template = try MustacheTemplate(text, name: place.file)
            check(template.tags, place: place, scope: scope, sections: [])
        } catch let error as MustacheError {
            let at = error.line > 0 ? place.position(line: error.line, column: error.column)
                                    : (line: place.line, column: place.column)
            add(.mustacheSyntax, place.file, at.line, at.column, error.message)
        } catch {
            add(.mustacheSyntax, place.file, place.line, place.column, TemplateError.oneLine(error))
        }
    }

    // MARK: Names

    /// Checks each tag's name against the scope; `sections` are the names of the enclosing sections, innermost last.
    mutating func check(_ tags: [MustacheTag], place: LintPlace, scope: LintScope, sections: [String]) {
        for tag in tags {
            let at = place.position(of: tag)
            switch tag.kind {
            case .variable, .section, .invertedSection, .partial(dynamic: true), .parent(dynamic: true):
                checkName(tag, at: at, place: place, scope: scope, sections: sections)
            case .partial(dynamic: false), .parent(dynamic: false):
                checkPartial(tag.name, at: at, place: place, scope: scope, sections: sections)
            case .block:
                break
            }
            if !tag.children.isEmpty {
                let inner = tag.kind == .section || tag.kind == .invertedSection ? sections + [tag.name] : sections
                check(tag.children, place: place, scope: scope, sections: inner)
            }
        }
    }

    private mutating func checkName(_ tag: MustacheTag, at: (line: Int, column: Int), place: LintPlace, scope: LintScope, sections: [String]) {
        guard let first = tag.nameParts.first else {
            if sections.isEmpty { add(.unknownName, place.file, at.line, at.column, "'.' outside a section names the whole answer set, which renders nothing useful") }
            return
        }
        let helpers = Array(tag.nameParts.dropFirst())
        var isString = false
        switch scope {
        case .render:
            if let variable = variables[first] {
                used.insert(first)
                isString = variable.type == .string || variable.type == .choice
            } else if let owner = flags[first] {
                used.insert(owner)
            } else {
                let why = TemplateLinter.sampleContext[first] != nil
                    ? "'\(first)' is only available in defaults; declare a variable whose default is {{\(first)}}"
                    : "'\(first)' is not a declared variable or a choice flag" + suggestion(for: first)
                add(.unknownName, place.file, at.line, at.column, why)
                return
            }
        case let .defaultOf(index):
            let earlier = manifest.variables.prefix(index)
            if let variable = earlier.first(where: { $0.name == first }) {
                used.insert(first)
                isString = variable.type == .string || variable.type == .choice
            } else if TemplateLinter.sampleContext[first] != nil {
                isString = true
            } else {
                let later = manifest.variables.dropFirst(index).contains { $0.name == first }
                add(.unknownName, place.file, at.line, at.column,
                    later ? "'\(first)' is declared at or after this variable; a default sees only earlier answers" : "'\(first)' is not a declared variable" + suggestion(for: first))
                return
            }
        }
        guard let helper = helpers.first else { return }
        if helpers.count > 1 || !isString || !MustacheTemplate.caseHelperNames.contains(helper) {
            let list = MustacheTemplate.caseHelperNames.sorted().joined(separator: ", ")
            add(.unknownHelper, place.file, at.line, at.column,
                isString ? "'\(tag.name)': '\(helpers.joined(separator: "."))' is not a case helper (\(list))"
                         : "'\(tag.name)': '\(first)' is not text, so it has no '\(helpers.joined(separator: "."))'")
        }
    }

    private func suggestion(for name: String) -> String {
        let lower = name.lowercased()
        if let close = manifest.variables.first(where: { $0.name.lowercased() == lower }) { return " (did you mean '\(close.name)'?)" }
        return ""
    }

    private mutating func checkPartial(_ name: String, at: (line: Int, column: Int), place: LintPlace, scope: LintScope, sections: [String]) {
        let partials = TemplatePartials(templateLevel: [:], repositoryLevel: [:], templateName: manifest.id)
        do { _ = try partials.template(named: name) } catch {
            add(.missingPartial, place.file, at.line, at.column, "partial '\(name)' would leave the template's partials folders")
            return
        }
        let local = tree.partials[name]
        guard let data = local ?? tree.repositoryPartials[name] else {
            add(.missingPartial, place.file, at.line, at.column, "partial '\(name)' is in neither partials/\(name).mustache beside template.json nor the repository's partials/")
            return
        }
        let file = (local != nil ? "partials/" : "(repository) partials/") + name + ".mustache"
        guard checkedPartials.insert(name).inserted else { return }
        guard let text = String(data: data, encoding: .utf8) else {
            add(.missingPartial, file, "partial '\(name)' is not valid UTF-8, so Folio cannot load it")
            return
        }
        do {
            let template = try MustacheTemplate(text, name: file)
            check(template.tags, place: LintPlace(file: file), scope: scope, sections: sections)
        } catch let error as MustacheError {
            add(.mustacheSyntax, file, error.line, error.column, error.message)
        } catch {
            add(.mustacheSyntax, file, TemplateError.oneLine(error))
        }
    }

    // MARK: Manifest strings

    private mutating func lintPrimaryFile() {
        guard let primary = manifest.primaryFile else { return }
        let node = root?["primaryFile"]
        checkPath(primary, place: LintPlace(file: TemplateLinter.manifestFile, line: node?.line ?? 0, column: (node?.column ?? 0) + 1))
    }

    private mutating func lintDefaults() {
        for (index, variable) in manifest.variables.enumerated() {
            guard case let .string(text)? = variable.default, text.contains("{{") else { continue }
            let node = root.flatMap { TemplateLinter.variableNode($0, index) }?["default"]
            checkSource(text, place: LintPlace(file: TemplateLinter.manifestFile, line: node?.line ?? 0, column: (node?.column ?? 0) + 1), scope: .defaultOf(index: index))
        }
    }

    private mutating func lintUnused() {
        // `title` (else `name`) also becomes the document's title.
        let titled: Set<String> = ["title", "name"]
        for (index, variable) in manifest.variables.enumerated() where !used.contains(variable.name) && !titled.contains(variable.name) {
            let node = root.flatMap { TemplateLinter.variableNode($0, index) }
            add(.unusedVariable, TemplateLinter.manifestFile, node?.line ?? 0, node?.column ?? 0,
                "variable '\(variable.name)' is asked for but used nowhere (files, paths, partials, primaryFile, other defaults or when)")
        }
    }

    private mutating func lintGlobs() {
        for (key, patterns, code) in [("exclude", manifest.exclude, TemplateLintCode.excludeMatchesNothing), ("copyOnly", manifest.copyOnly, .copyOnlyMatchesNothing)] {
            guard case let .array(nodes)? = root?[key]?.kind else { continue }
            for (index, pattern) in patterns.enumerated() where !tree.files.contains(where: { Glob.matches(pattern, path: $0.path) }) {
                let node = index < nodes.count ? nodes[index] : nil
                add(code, TemplateLinter.manifestFile, node?.line ?? 0, node?.column ?? 0, "\(key) pattern '\(pattern)' matches no file under files/")
            }
        }
    }
}
