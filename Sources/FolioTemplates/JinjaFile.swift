import FoundationEssentials
import FolioBasics
import FolioJinja
import Glibc

/// One Jinja file rendered with JSON data (`folio render FILE.j2 --data DATA.json`): Jinja2's `Environment` options
/// from a JSON file of their Jinja2 names (`trim_blocks`, `undefined: "StrictUndefined"`, `extensions: [...]`, as the
/// Jinja spec writes them), includes, imports and `extends` from a partials folder by relative name. No name can
/// read outside that folder (`..`, absolute names and links leading out are refused); every error is one line.
public enum JinjaFile {
    /// The rendered text of the file at `templateURL`.
    public static func render(at templateURL: URL, dataJSON: URL, partialsDirectory: URL?, optionsJSON: URL?, strict: Bool = false,
                              maxFileBytes: Int = RegularFile.defaultMaxBytes) throws -> String {
        let name = templateURL.relativePath
        let source = try text(templateURL, what: "template", maxBytes: maxFileBytes)
        let data = try json(dataJSON, what: "data file", maxBytes: maxFileBytes)
        guard case .dict = data else { throw TemplateError(dataJSON.relativePath, "the data must be one JSON object", kind: .invalidFile) }
        var options = JinjaOptions()
        if let optionsJSON {
            guard case let .dict(names) = try json(optionsJSON, what: "options file", maxBytes: maxFileBytes) else {
                throw TemplateError(optionsJSON.relativePath, "the options must be one JSON object of Jinja2 Environment names", kind: .invalidFile)
            }
            do { options = try JinjaOptions(jinjaNames: names) } catch { throw TemplateError(optionsJSON.relativePath, "\(error)", kind: .unsupported) }
        }
        if strict { options.undefined = .strict }
        let loader: JinjaLoader?
        if let partialsDirectory {
            let root = try folder(partialsDirectory)
            loader = { try partial($0, root: root, maxBytes: maxFileBytes) }
        } else {
            loader = nil
        }
        do {
            let environment = JinjaEnvironment(options: options, loader: loader)
            return try JinjaTemplate(source: source, name: name, environment: environment).render(context: data)
        } catch let error as JinjaError {
            throw TemplateError(name, "\(error)", kind: .invalidFile)
        }
    }

    /// The partial `name` under `root` (its real path), nil when there is none.
    static func partial(_ name: String, root: String, maxBytes: Int) throws -> String? {
        func refuse(_ why: String) -> TemplateError { TemplateError(name, "template name '\(name)' \(why)", kind: .refusedPath) }
        guard !name.isEmpty else { throw refuse("is empty") }
        if name.hasPrefix("/") || name.hasPrefix("~") { throw refuse("is absolute") }
        if name.contains("\\") { throw refuse("contains a backslash") }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "\u{7F}" }) { throw refuse("contains a control character") }
        if name.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) {
            throw refuse("would leave the partials folder")
        }
        let path = root + "/" + name
        guard let real = realpath(path, nil) else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw TemplateError(path, "cannot read: " + String(cString: strerror(errno)), kind: .unreadable)
        }
        defer { free(real) }
        guard String(cString: real).hasPrefix(root + "/") else { throw refuse("leads outside the partials folder through a link") }
        return try text(URL(fileURLWithPath: path), what: "template", maxBytes: maxBytes)
    }

    /// The real path of the partials folder; an error when it is missing or not a folder.
    static func folder(_ url: URL) throws -> String {
        guard let real = realpath(url.path, nil) else {
            throw TemplateError(url.relativePath, "cannot use the partials folder: " + String(cString: strerror(errno)), kind: .unreadable)
        }
        defer { free(real) }
        var info = stat()
        guard stat(real, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw TemplateError(url.relativePath, "cannot use the partials folder: it is not a folder", kind: .invalidFile)
        }
        return String(cString: real)
    }

    static func bytes(_ url: URL, what: String, maxBytes: Int) throws -> [UInt8] {
        do { return try RegularFile.read(url.path, maxBytes: maxBytes) } catch {
            throw TemplateError(url.relativePath, "cannot read the \(what): \(error)", kind: .unreadable)
        }
    }

    static func text(_ url: URL, what: String, maxBytes: Int) throws -> String {
        guard let text = String(validating: try bytes(url, what: what, maxBytes: maxBytes), as: UTF8.self) else {
            throw TemplateError(url.relativePath, "the \(what) is not valid UTF-8", kind: .notUTF8)
        }
        return text
    }

    static func json(_ url: URL, what: String, maxBytes: Int) throws -> JinjaValue {
        do { return try JinjaValue(json: try bytes(url, what: what, maxBytes: maxBytes)) } catch let error as TemplateError { throw error } catch {
            throw TemplateError(url.relativePath, "the \(what) is not valid JSON: \(error)", kind: .invalidFile)
        }
    }
}
