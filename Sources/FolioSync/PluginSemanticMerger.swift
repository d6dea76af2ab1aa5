import FoundationEssentials
import Glibc
import FolioCore
import FolioPlugins

/// The semantic merge of the editor plugins (`folio.semantic-merge/1`): the editor chosen for a content type
/// merges item by item when it offers the capability.
public struct PluginSemanticMerger: SemanticMerging, Sendable {
    private let host: EditorRegistry
    private let associations: [String: String]

    /// A merger over the plugins `host` found, with the user's editor associations.
    public init(host: EditorRegistry, associations: [String: String] = [:]) {
        self.host = host
        self.associations = associations
    }

    public func mergesByMeaning(_ contentType: ContentType) -> Bool {
        guard let chosen = try? host.chooseEditor(for: contentType, associations: associations).editor else { return false }
        return chosen.extensions.contains(FolioExtensionID.semanticMerge)
    }

    public func merge(contentType: ContentType, base: Data, ours: Data, theirs: Data) throws -> Data? {
        try mergeExplained(contentType: contentType, base: base, ours: ours, theirs: theirs).merged
    }

    public func mergeExplained(contentType: ContentType, base: Data, ours: Data, theirs: Data) throws -> (merged: Data?, conflicts: [String]) {
        guard let chosen = try? host.chooseEditor(for: contentType, associations: associations).editor,
              chosen.extensions.contains(FolioExtensionID.semanticMerge) else { return (nil, []) }
        switch try host.backend(chosen.id).merge(base: base, ours: ours, theirs: theirs) {
        case let .merged(data)?: return (data, [])
        case let .conflicts(lines)?: return (nil, lines)
        case nil: return (nil, [])
        }
    }
}

extension PluginSemanticMerger: ItemMerging {
    public func itemEditor(for contentType: ContentType) throws -> (any EditorBackend)? {
        guard let chosen = try? host.chooseEditor(for: contentType, associations: associations).editor,
              chosen.extensions.contains(FolioExtensionID.items), chosen.extensions.contains(FolioExtensionID.semanticMerge) else { return nil }
        return try host.backend(chosen.id)
    }
}
