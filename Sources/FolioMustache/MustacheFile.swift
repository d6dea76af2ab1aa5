import FoundationEssentials
import FolioBasics
import Glibc

/// Renders the template file at `templateURL` with JSON data from `dataJSON`, reading partials from
/// `partialsDirectory` (`x.mustache` for `{{>x}}`); errors name the offending file. Files are read only when they
/// are regular files of at most `maxFileBytes`; the render stays within `limits`.
public func renderFile(
    at templateURL: URL, dataJSON: URL, partialsDirectory: URL?, strict: Bool = false, escapeHTML: Bool = true,
    limits: MustacheLimits = MustacheLimits(), maxFileBytes: Int = RegularFile.defaultMaxBytes
) throws -> String {
    let templateName = templateURL.relativePath
    let source = try readText(templateURL, what: "template", maxBytes: maxFileBytes)
    let dataName = dataJSON.relativePath
    let bytes = try readBytes(dataJSON, what: "data file", maxBytes: maxFileBytes)
    let data: MustacheValue
    do {
        data = try MustacheValue(json: Data(bytes))
    } catch let error as MustacheError {
        throw MustacheError(file: dataName, message: error.message)
    }
    let template = try MustacheTemplate(source, name: templateName)
    var loader: any MustachePartialLoader = NoPartials()
    if let partialsDirectory {
        try checkFolder(partialsDirectory)
        loader = DirectoryPartialLoader(root: partialsDirectory, maxFileBytes: maxFileBytes)
    }
    let options = MustacheRenderOptions(strict: strict, escapeHTML: escapeHTML, limits: limits)
    return try template.render(data, partials: loader, options: options)
}

/// Reads a regular file's bytes; errors name the file and the cause.
func readBytes(_ url: URL, what: String, maxBytes: Int) throws -> [UInt8] {
    do {
        return try RegularFile.read(url.path, maxBytes: maxBytes)
    } catch {
        throw MustacheError(file: url.relativePath, message: "cannot read the \(what): \(error)")
    }
}

/// Reads a regular file as UTF-8 text; errors name the file and the cause.
func readText(_ url: URL, what: String, maxBytes: Int) throws -> String {
    let bytes = try readBytes(url, what: what, maxBytes: maxBytes)
    guard let text = String(bytes: bytes, encoding: .utf8) else {
        throw MustacheError(file: url.relativePath, message: "the \(what) is not valid UTF-8")
    }
    return text
}

/// Refuses a partials folder that is missing or not a folder (a typo would otherwise render every partial empty).
private func checkFolder(_ url: URL) throws {
    var info = stat()
    guard stat(url.path, &info) == 0 else {
        throw MustacheError(file: url.relativePath, message: "cannot use the partials folder: " + String(cString: strerror(errno)).lowercasedFirst)
    }
    guard info.st_mode & S_IFMT == S_IFDIR else {
        throw MustacheError(file: url.relativePath, message: "cannot use the partials folder: it is not a folder")
    }
}
