import FoundationEssentials
import FolioCore
import FolioJinja

// Lint of a template written in Jinja (`"language": "jinja"`): every file, path segment, `primaryFile` and default
// must compile (T207, with its line and column), files that are not UTF-8 but hold tags are named (T206); the render
// with the default answers (T404) and the globs are checked as for Mustache templates.

extension MeaningLint {
    mutating func lintJinja() {
        let environment = JinjaEnvironment(options: { var o = JinjaOptions(); o.keepTrailingNewline = true; return o }())
        for file in tree.files where !file.isSymlink && !isExcluded(file.path) {
            let name = "files/" + file.path
            for segment in file.path.split(separator: "/") where segment.contains("{") {
                compileJinja(String(segment), place: LintPlace(file: name), environment: environment)
            }
            guard !manifest.copyOnly.contains(where: { Glob.matches($0, path: file.path) }), !file.data.contains(0) else { continue }
            let hasTags = ["{{", "{%", "{#"].contains { file.data.firstRange(of: Data($0.utf8)) != nil }
            guard hasTags else { continue }
            guard let text = String(data: file.data, encoding: .utf8) else {
                add(.notUTF8, name, "holds Jinja tags but is not valid UTF-8, so it is copied byte for byte with its tags unrendered")
                continue
            }
            compileJinja(text, place: LintPlace(file: name), environment: environment)
        }
        if let primary = manifest.primaryFile, primary.contains("{") {
            let node = root?["primaryFile"]
            compileJinja(primary, place: LintPlace(file: TemplateLinter.manifestFile, line: node?.line ?? 0, column: (node?.column ?? 0) + 1), environment: environment)
        }
        for (index, variable) in manifest.variables.enumerated() {
            guard case let .string(text)? = variable.default, text.contains("{") else { continue }
            let node = root.flatMap { TemplateLinter.variableNode($0, index) }?["default"]
            compileJinja(text, place: LintPlace(file: TemplateLinter.manifestFile, line: node?.line ?? 0, column: (node?.column ?? 0) + 1), environment: environment)
        }
    }

    /// Compiles `text`; a syntax or assertion error is a T207 finding at its position.
    private mutating func compileJinja(_ text: String, place: LintPlace, environment: JinjaEnvironment) {
        do {
            _ = try JinjaTemplate(source: text, name: place.file, environment: environment)
        } catch let error as JinjaError {
            let at = error.line > 0 ? place.position(line: error.line, column: max(1, error.column)) : (line: place.line, column: place.column)
            add(.jinjaSyntax, place.file, at.line, at.column, "\(error.kind.rawValue): \(error.message)")
        } catch {
            add(.jinjaSyntax, place.file, place.line, place.column, TemplateError.oneLine(error))
        }
    }
}
