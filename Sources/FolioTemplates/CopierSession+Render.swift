import FoundationEssentials
import FolioBasics
import FolioCore
import FolioJinja

extension CopierSession {
    /// The files copier 9 writes for the answers asked: every file under `_subdirectory`, its path rendered part
    /// by part (a part rendering empty skips it; one rendering to the answers file's path is that file), the
    /// templates suffix dropped from rendered files and a plain file skipped beside its templated twin, `_exclude`
    /// matched against the rendered path, contents rendered only for files with the suffix. Folders are not written
    /// on their own (git holds none); links are followed inside the template unless `_preserve_symlinks`.
    func render() throws -> [(file: DocumentFile, source: String)] {
        let suffix = config.settings["templates_suffix"].flatMap { if case .none = $0 { nil } else { $0.pythonString } } ?? ".jinja"
        let subdirectory = (config.settings["subdirectory"]?.pythonString ?? "").split(separator: "/").filter { $0 != "." }.joined(separator: "/")
        let root = subdirectory.isEmpty ? "" : subdirectory + "/"
        let exclude = try exclusions(subdirectory: subdirectory)
        let answersPath = try answersFile()
        let byPath = Dictionary(template.files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let context = try self.context()
        var out: [(file: DocumentFile, source: String)] = []
        var planned: [(String, Bool, String)] = []
        for file in template.files.sorted(by: { $0.path < $1.path }) where file.path.hasPrefix(root) {
            let where_ = template.describe(file.path)
            guard let path = try destination(of: file, root: root, suffix: suffix, answersPath: answersPath, files: byPath, where_: where_),
                  !CopierPaths.matches(exclude, path) else { continue }
            try Template.checkPath(path, where_: where_)
            let made = try contents(of: file, at: path, suffix: suffix, files: byPath, context: context, where_: where_)
            planned.append((path, made.symlinkTarget != nil, where_))
            out.append((made, file.path))
        }
        try Template.checkLayout(planned)
        try Template.checkLinkChains(out.map(\.file)) { $0 }
        return out
    }

    /// `_exclude` (or copier's defaults when there is neither it nor `_subdirectory`), each rendered and split into
    /// lines, as gitignore patterns.
    private func exclusions(subdirectory: String) throws -> [CopierPaths.Wildmatch] {
        var raw: [String] = subdirectory.isEmpty ? CopierTemplate.defaultExclude : []
        if let given = config.settings["exclude"] {
            guard case let .list(list) = given else { throw TemplateError(file, "_exclude must be a list", kind: .invalidFile) }
            raw = list.items.map(\.pythonString)
        }
        return try raw.flatMap { pattern in
            try renderString(pattern, what: "_exclude").split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
        }.compactMap { CopierPaths.Wildmatch(String($0)) }
    }

    /// Where `file` is written, or nil when copier would not write it.
    private func destination(of file: TemplateFile, root: String, suffix: String, answersPath: String, files: [String: TemplateFile],
                             where_: String) throws -> String? {
        let relative = String(file.path.dropFirst(root.count))
        var parts = relative.split(separator: "/").map(String.init)
        guard let name = parts.last else { return nil }
        let isTemplate = name.hasSuffix(suffix)
        if !suffix.isEmpty {
            if files[file.path + suffix] != nil { return nil }  // the templated twin is written instead
            if isTemplate { parts[parts.count - 1] = CopierPaths.withoutSuffix(name) }
        }
        var rendered: [String] = []
        for part in parts {
            if part.contains("yield") && part.contains("{%") {
                throw TemplateError(where_, "{% yield %} in a file name (copier's one file per item) is not supported by Folio", kind: .unsupported)
            }
            let text = try renderString(part, what: "path \(relative)")
            if text.isEmpty { return nil }
            if text == answersPath { return answersPath }
            rendered.append(text)
        }
        let path = rendered.joined(separator: "/")
        if !isTemplate, files[path + suffix] != nil { return nil }  // copier looks for the twin from the template's root
        return path
    }

    private func contents(of file: TemplateFile, at path: String, suffix: String, files: [String: TemplateFile],
                          context: [(String, JinjaValue)], where_: String) throws -> DocumentFile {
        let isTemplate = (file.path.split(separator: "/").last.map(String.init) ?? "").hasSuffix(suffix)
        var source = file
        if file.isSymlink {
            let target = String(decoding: file.data, as: UTF8.self)
            if CopierValues.castToBool(config.settings["preserve_symlinks"] ?? .bool(false)) {
                let shown = isTemplate ? try renderString(target, what: "link \(file.path)") : target
                try Template.checkLink(target: shown, sourcePath: file.path, outputPath: path, where_: where_)
                return DocumentFile(path: path, data: Data(), symlinkTarget: shown)
            }
            guard let followed = Self.follow(file.path, target: target, files: files) else {
                throw TemplateError(where_, "links to \(target.debugDescription), which is not a file inside the template", kind: .refusedPath)
            }
            source = followed
        }
        let executable = source.mode == 0o100755
        guard isTemplate else { return DocumentFile(path: path, data: source.data, executable: executable) }
        guard let text = String(validating: [UInt8](source.data), as: UTF8.self) else {
            if suffix.isEmpty { return DocumentFile(path: path, data: source.data, executable: executable) }
            throw TemplateError(where_, "is not valid UTF-8, so it cannot be rendered", kind: .notUTF8)
        }
        let rendered = try template.renderJinjaText(text, context: context, environment: environment, where_: where_)
        return DocumentFile(path: path, data: Data(rendered.utf8), executable: executable)
    }

    /// The file a link inside the template leads to (links followed up to 8 times), nil when it leaves it.
    static func follow(_ path: String, target: String, files: [String: TemplateFile], hops: Int = 8) -> TemplateFile? {
        guard hops > 0, !target.hasPrefix("/") else { return nil }
        var parts = path.split(separator: "/").dropLast().map(String.init)
        for part in target.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { guard !parts.isEmpty else { return nil }; parts.removeLast(); continue }
            parts.append(String(part))
        }
        let resolved = parts.joined(separator: "/")
        guard let found = files[resolved] else { return nil }
        if found.isSymlink { return follow(resolved, target: String(decoding: found.data, as: UTF8.self), files: files, hops: hops - 1) }
        return found
    }
}
