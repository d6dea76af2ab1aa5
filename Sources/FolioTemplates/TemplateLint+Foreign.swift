import FoundationEssentials
import FolioCore
import FolioGit
import FolioJinja

// Lint of a cookiecutter or copier template (`cookiecutter.json` or `copier.yml` and no `template.json`): loading it
// as `folio new` would (a malformed file, a setting or extension Folio does not build: T117 at its file:line:column),
// compiling every file and path part it renders (T207), rendering it with its defaults (T404) and listing its hooks
// or tasks as Folio would run them with `--trust` (a hook language Folio does not run: T117).

/// A template's files held in memory, as a tree to load from.
struct MemoryTemplateTree: TemplateTree {
    let files: [TemplateFile]
    private let ids: [ObjectID]

    init(files: [TemplateFile]) {
        self.files = files.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        ids = self.files.indices.compactMap { index in
            let hex = String(index + 1, radix: 16)
            return ObjectID(hex: String(repeating: "0", count: 40 - hex.count) + hex)
        }
    }

    var name: String { "files" }

    func files(under folder: String) throws -> [TreeEntry] {
        let prefix = folder.isEmpty ? "" : folder + "/"
        return zip(files, ids).compactMap { file, id in
            file.path.hasPrefix(prefix) ? TreeEntry(path: String(file.path.dropFirst(prefix.count)), id: id, mode: file.mode, kind: .blob) : nil
        }
    }

    func file(atPath path: String) throws -> TreeEntry? {
        guard let index = files.firstIndex(where: { $0.path == path }) else { return nil }
        return TreeEntry(path: path, id: ids[index], mode: files[index].mode, kind: .blob)
    }

    func contents(of entries: [TreeEntry]) throws -> [Data] {
        let byID = Dictionary(zip(ids, files.map(\.data)), uniquingKeysWith: { a, _ in a })
        return entries.map { byID[$0.id] ?? Data() }
    }
}

extension TemplateLinter {
    /// Whether `tree` is a cookiecutter or copier template (its folder's own files hold their configuration).
    static func isForeign(_ tree: TemplateAuthoringTree) -> Bool {
        tree.manifest == nil && tree.folderFiles.contains { ["cookiecutter.json", "copier.yml", "copier.yaml"].contains($0.path) }
    }

    static func lintForeign(_ tree: TemplateAuthoringTree) -> [TemplateLintFinding] {
        var findings: [TemplateLintFinding] = []
        let source = TemplateSource(name: tree.name, location: tree.folder?.path ?? tree.name)
        let resolved = ResolvedSource(source: source, commit: String(repeating: "0", count: 40), ref: nil, templates: [], groups: [], warnings: [],
                                      fetchedAt: nil, gitDirectory: URL(fileURLWithPath: "/nonexistent"))
        let template: Template
        do { template = try Template.load(from: MemoryTemplateTree(files: tree.folderFiles), path: "", resolved: resolved) } catch {
            findings.append(finding(.manifestRefused, error, name: tree.name))
            return findings
        }
        findings += compileForeign(template)
        guard findings.isEmpty else { return findings }  // a render would only fail on the same
        do {
            let answers = try template.answers(given: [:], mode: .defaults, context: sampleContext)
            _ = try template.render(answers: answers)
            do { _ = try template.programs(answers: answers) } catch { findings.append(finding(.manifestRefused, error, name: tree.name)) }
        } catch {
            findings.append(finding(.renderFails, error, name: tree.name))
        }
        return findings
    }

    /// Every rendered file and path part compiled (cookiecutter: the project folder; copier: files with the suffix).
    private static func compileForeign(_ template: Template) -> [TemplateLintFinding] {
        var findings: [TemplateLintFinding] = []
        // The template's own environment (its extensions and delimiters decide what parses).
        var environment = JinjaEnvironment()
        if let copier = template.copier, let config = try? copier.config(),
           let made = try? copier.environment(config: config, file: copier.configPath) {
            environment = made
        } else if let cookiecutter = template.cookiecutter {
            environment = cookiecutter.environment(files: template.files)
        }
        let suffix = template.copier.map { _ in ".jinja" }
        for file in template.files where !file.isSymlink {
            if let cookiecutter = template.cookiecutter, !file.path.hasPrefix(cookiecutter.projectFolder + "/") && template.copier == nil { continue }
            for part in file.path.split(separator: "/") where part.contains("{") { compile(String(part), file.path, environment, into: &findings) }
            if let suffix, !file.path.hasSuffix(suffix) { continue }
            if file.data.contains(0) { continue }
            guard let text = String(validating: [UInt8](file.data), as: UTF8.self), text.contains("{") else { continue }
            compile(text, file.path, environment, into: &findings)
        }
        return findings
    }

    private static func compile(_ text: String, _ file: String, _ environment: JinjaEnvironment, into findings: inout [TemplateLintFinding]) {
        do { _ = try JinjaTemplate(source: text, name: file, environment: environment) } catch let error as JinjaError {
            let kind = error.kind.rawValue.lowercased()
            guard kind.contains("syntax") || kind.contains("assert") else { return }
            findings.append(TemplateLintFinding(.jinjaSyntax, file: file, line: error.line, column: max(1, error.column), "\(error.kind.rawValue): \(error.message)"))
        } catch {}
    }

    /// A load or render error as a finding at the file (and line and column) it names.
    private static func finding(_ code: TemplateLintCode, _ error: any Error, name: String) -> TemplateLintFinding {
        guard let error = error as? TemplateError else { return TemplateLintFinding(code, file: name, TemplateError.oneLine(error)) }
        var subject = error.subject
        if let colon = subject.firstRange(of: ": ") { subject = String(subject[colon.upperBound...]) }
        let parts = subject.split(separator: ":")
        if parts.count >= 3, let line = Int(parts[parts.count - 2]), let column = Int(parts[parts.count - 1]) {
            return TemplateLintFinding(code, file: parts.dropLast(2).joined(separator: ":"), line: line, column: column, error.message)
        }
        return TemplateLintFinding(code, file: subject, error.message)
    }
}
