import FoundationEssentials
import FolioCore
import FolioJinja

// Native Folio templates written in Jinja (`"language": "jinja"` in template.json): each file's contents and each
// path segment rendered by FolioJinja with the answers (and the choice flags Mustache templates get), `{% include %}`,
// `{% import %}` and `{% extends %}` reading the template's `partials/` then the repository's, the template's render
// limits, undefined names empty as in Mustache, and every byte kept (the final newline too). Paths, links, `exclude`
// and `copyOnly` behave as for Mustache templates.

extension Template {
    /// The environment a Jinja template renders in.
    func jinjaEnvironment() -> JinjaEnvironment {
        var options = JinjaOptions()
        options.keepTrailingNewline = true
        options.limits = JinjaLimits(maxOutputBytes: renderLimits.maxOutputBytes, maxDepth: 64, maxSteps: 2_000_000)
        let partials = self.partials
        return JinjaEnvironment(options: options, loader: { name in try? partials.template(named: name) })
    }

    /// The answers and choice flags as Jinja values, for `render(_:)`'s variables.
    static func jinjaContext(_ answers: [String: JSONValue]) -> [(String, JinjaValue)] {
        answers.sorted { $0.key < $1.key }.map { ($0.key, CookiecutterTemplate.jinjaValue($0.value)) }
    }

    func jinjaContext(_ answers: [String: JSONValue]) -> [(String, JinjaValue)] {
        guard case let .object(values) = renderContextJSON(answers) else { return [] }
        return Self.jinjaContext(values)
    }

    /// `text` rendered; a Jinja error is a template error naming `where_` with the line and column.
    func renderJinjaText(_ text: String, context: [(String, JinjaValue)], environment: JinjaEnvironment, where_: String) throws -> String {
        do {
            return try JinjaTemplate(source: text, name: where_, environment: environment).render(context)
        } catch let error as JinjaError {
            let file = error.template == where_ || error.template.isEmpty ? where_ : "\(where_) (in partials/\(error.template))"
            let place = error.line > 0 ? "line \(error.line)" + (error.column > 0 ? ", column \(error.column)" : "") + ": " : ""
            throw TemplateError(file, "\(place)\(error.kind.rawValue): \(error.message)", kind: .invalidFile)
        }
    }

    /// Each segment of `path` rendered; nil when one renders empty (the file or folder is dropped).
    func jinjaPath(_ path: String, context: [(String, JinjaValue)], environment: JinjaEnvironment, where_: String) throws -> String? {
        guard path.contains("{") else {
            try Self.checkPath(path, where_: where_)
            return path
        }
        var segments: [String] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
            let rendered = segment.contains("{") ? try renderJinjaText(String(segment), context: context, environment: environment, where_: where_) : String(segment)
            if rendered.isEmpty { return nil }
            segments.append(rendered)
        }
        let result = segments.joined(separator: "/")
        try Self.checkPath(result, where_: where_)
        return result
    }

    /// Every file rendered as a Jinja template (see above).
    func renderJinja(answers: [String: JSONValue]) throws -> [(file: DocumentFile, source: String)] {
        let environment = jinjaEnvironment()
        let context = jinjaContext(answers)
        let kept = files.filter { file in !manifest.exclude.contains { Glob.matches($0, path: file.path) } }
        let filesFolder = describe("files/")
        var planned: [(file: TemplateFile, path: String, where_: String)] = []
        for file in kept {
            let where_ = filesFolder + file.path
            guard let path = try jinjaPath(file.path, context: context, environment: environment, where_: where_) else { continue }
            planned.append((file, path, where_))
        }
        try Self.checkLayout(planned.map { ($0.path, $0.file.isSymlink, $0.where_) })
        var out: [(file: DocumentFile, source: String)] = []
        for (file, path, where_) in planned {
            let executable = file.mode == 0o100755
            if file.isSymlink {
                let target = String(decoding: file.data, as: UTF8.self)
                try Self.checkLink(target: target, sourcePath: file.path, outputPath: path, where_: where_)
                out.append((DocumentFile(path: path, data: Data(), symlinkTarget: target), file.path))
                continue
            }
            let copied = manifest.copyOnly.contains { Glob.matches($0, path: file.path) } || Self.holdsNUL(file.data)
            guard !copied, let text = String(validating: [UInt8](file.data), as: UTF8.self),
                  text.contains("{{") || text.contains("{%") || text.contains("{#") else {
                out.append((DocumentFile(path: path, data: file.data, executable: executable), file.path))
                continue
            }
            let rendered = try renderJinjaText(text, context: context, environment: environment, where_: where_)
            out.append((DocumentFile(path: path, data: Data(rendered.utf8), executable: executable), file.path))
        }
        try Self.checkLinkChains(out.map(\.file)) { $0 }
        return out
    }
}
