import FolioCore
import FoundationEssentials

/// The plugin host's description of the library it loaded (the `.loaded` reply: id, name, version, ABI major and
/// minor, and the editors as manifest JSON), read in one place for both who read it: generating a manifest for a
/// library without one, and checking a loaded library against its manifest. Outside data: the editors are decoded
/// strictly (unknown keys refused, as in a manifest file) and the ABI numbers through failable conversions.
struct PluginDescription {
    let id: String
    let name: String
    let version: String
    let abiMajor: Int
    let abiMinor: Int
    let editors: [EditorManifest]

    /// The editors' paths where unknown keys are refused: those of a manifest's `editors`, from the list's root.
    static let strictEditorPaths: Set<[String]> = Set(PluginManifest.strictPaths.compactMap { path in
        path.first == "editors" ? Array(path.dropFirst()) : nil
    })

    init(_ message: PluginWire.Message) throws {
        id = try message.string(1)
        name = try message.string(2)
        version = try message.string(3)
        let major = try message.integer(4), minor = try message.integer(5)
        guard let abiMajor = Int(exactly: major), let abiMinor = Int(exactly: minor), abiMajor >= 0, abiMinor >= 0 else {
            throw PluginWire.WireError.violation("the library's descriptor states ABI \(major).\(minor)")
        }
        self.abiMajor = abiMajor
        self.abiMinor = abiMinor
        editors = try StrictJSON.decode([EditorManifest].self, from: try message.field(6), strictAt: Self.strictEditorPaths)
    }
}
