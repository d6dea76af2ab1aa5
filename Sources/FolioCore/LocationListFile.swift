import FoundationEssentials

/// A JSON file holding a list of template source locations (the sources trusted for a document, or whose hooks
/// the user agreed to run): read strictly, appended to atomically.
package struct LocationListFile {
    package let url: URL

    package init(_ url: URL) { self.url = url }

    /// The locations; none when the file is missing. A file that is not an array of strings is an error naming it.
    package func read() throws -> [String] {
        guard let data = try ConfigFile.read(url) else { return [] }
        let node: JSONNode
        do { node = try JSONNode.parse(data) } catch { throw FolioError.invalidFile(path: url.path, problem: JSONKeys.describe(error)) }
        let values = node.value.arrayValue ?? []
        let locations = values.compactMap(\.stringValue)
        guard node.value.arrayValue != nil, locations.count == values.count else {
            throw FolioError.invalidFile(path: url.path, problem: "expected an array of template source locations")
        }
        return locations
    }

    /// Adds `location` unless it is there already.
    package func append(_ location: String) throws {
        var locations = try read()
        guard !locations.contains(location) else { return }
        locations.append(location)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        // A list of strings: JSONEncoder's layout without its first-use cost at the end of folio new.
        try AtomicFile.write(JSONValue.array(locations.map(JSONValue.string)).prettyEncoded() ?? Data("[]".utf8), to: url, sync: false)
    }
}
