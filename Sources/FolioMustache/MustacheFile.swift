import Foundation

/// Renders the template file at `templateURL` with JSON data from `dataJSON`, reading partials from
/// `partialsDirectory` (`x.mustache` for `{{>x}}`); errors name the offending file.
public func renderFile(
    at templateURL: URL, dataJSON: URL, partialsDirectory: URL?, strict: Bool = false, escapeHTML: Bool = true
) throws -> String {
    let templateName = templateURL.relativePath
    let source: String
    do {
        source = try String(contentsOf: templateURL, encoding: .utf8)
    } catch {
        throw MustacheError(file: templateName, message: "cannot read template: \(error.localizedDescription)")
    }
    let dataName = dataJSON.relativePath
    let bytes: Data
    do {
        bytes = try Data(contentsOf: dataJSON)
    } catch {
        throw MustacheError(file: dataName, message: "cannot read data file: \(error.localizedDescription)")
    }
    let data: MustacheValue
    do {
        data = try MustacheValue(json: bytes)
    } catch let error as MustacheError {
        throw MustacheError(file: dataName, message: error.message)
    }
    let template = try MustacheTemplate(source, name: templateName)
    let loader: any MustachePartialLoader = partialsDirectory.map { DirectoryPartialLoader(root: $0) } ?? NoPartials()
    return try template.render(data, partials: loader, options: MustacheRenderOptions(strict: strict, escapeHTML: escapeHTML))
}
