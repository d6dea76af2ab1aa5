import FolioCore

/// Why Folio could not find or use an editor plugin; each case carries what a caller branches on.
/// (A plugin that loaded but failed a call is a `PluginHostFailure`; one refused at load is a `PluginRefusal`.)
public enum PluginError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A manifest's values are unusable: its plugin id is empty, its library is not a plain file name, or an
    /// editor's id is empty.
    case invalidManifest(ManifestProblem)
    /// No plugin on the search path has this id.
    case unknownPlugin(id: String)
    /// No plugin and no editor has this id.
    case unknownPluginOrEditor(id: String)
    /// No installed editor has this id; `known` lists the ids there are.
    case unknownEditor(id: String, known: [String])
    /// No installed editor opens this content type.
    case noEditor(contentType: String)
    /// The plugin host executable is in none of the folders Folio looks in.
    case hostExecutableMissing(name: String, looked: [String])
    /// There is no state folder to keep the quarantine record in.
    case noStateFolder

    /// What is wrong with a manifest's values.
    public enum ManifestProblem: Sendable, Equatable {
        case emptyPluginID
        case libraryNotAFileName(String)
        case emptyEditorID
        /// Its `permissions` cannot be granted (the problem).
        case permissions(String)
    }

    public var description: String {
        switch self {
        case .invalidManifest(.emptyPluginID): return "empty plugin id"
        case let .invalidManifest(.libraryNotAFileName(library)): return "'library' must be a file name, got '\(library)'"
        case .invalidManifest(.emptyEditorID): return "an editor has an empty id"
        case let .invalidManifest(.permissions(problem)): return problem
        case let .unknownPlugin(id): return "no plugin '\(id)'"
        case let .unknownPluginOrEditor(id): return "no plugin or editor '\(id)'"
        case let .unknownEditor(id, known):
            return "no editor '\(id)' (editors: \(known.isEmpty ? "none" : known.sorted().joined(separator: ", ")))"
        case let .noEditor(type): return "no editor for content type \(type)"
        case let .hostExecutableMissing(name, looked):
            return "cannot find \(name) to run plugins in (looked in \(looked.joined(separator: ", ")) and their ../libexec/folio)"
        case .noStateFolder: return "no state folder to keep the plugin quarantine in"
        }
    }
}
