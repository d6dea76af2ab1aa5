import FolioCore

/// Why an editor was chosen for a content type.
public enum EditorChoiceReason: String, Sendable, Codable {
    /// `--editor ID` on the command line ("reopen with").
    case override
    /// The user's association in settings.
    case association
    /// Priority, then the most specific content type, then the editor id.
    case ranking
}

extension EditorRegistry {
    /// Editors that can edit `type` (it conforms to one of theirs), best first: default before option, then fewest
    /// conformance steps from `type` to the editor's type, then editor id.
    public func rankedEditors(for type: ContentType) -> [EditorManifest] {
        EditorRanking.rank(editors.map(\.editor), for: type, in: contentTypes)
    }

    /// The editor to open a document of `type` with: `override` first, then the user's association for `type`
    /// (or its nearest ancestor), then the ranking.
    public func chooseEditor(for type: ContentType, associations: [String: String] = [:], override: String? = nil) throws -> (editor: EditorManifest, reason: EditorChoiceReason) {
        let all = editors.map(\.editor)
        if let override {
            guard let editor = all.first(where: { $0.id == override }) else {
                throw PluginError.unknownEditor(id: override, known: all.map(\.id))
            }
            return (editor, .override)
        }
        if let (editor, _) = EditorRanking.associated(all, for: type, in: contentTypes, associations: associations) {
            return (editor, .association)
        }
        guard let best = rankedEditors(for: type).first else {
            throw PluginError.noEditor(contentType: "\(type)")
        }
        return (best, .ranking)
    }
}

/// The editor-choice rules, separate from discovery so they can be checked on their own.
public enum EditorRanking {
    /// `editors` that can edit `type`, best first (priority, then specificity, then id).
    public static func rank(_ editors: [EditorManifest], for type: ContentType, in registry: ContentTypeRegistry) -> [EditorManifest] {
        editors.compactMap { editor -> (EditorManifest, Int)? in
            let distances = editor.contentTypes.compactMap { registry.distance(from: type, to: $0) }
            return distances.min().map { (editor, $0) }
        }
        .sorted { lhs, rhs in
            if lhs.0.priority != rhs.0.priority { return lhs.0.priority < rhs.0.priority }
            if lhs.1 != rhs.1 { return lhs.1 < rhs.1 }
            return lhs.0.id < rhs.0.id
        }
        .map(\.0)
    }

    /// The editor the user associated with `type` or with its nearest ancestor that has an association, if installed.
    public static func associated(_ editors: [EditorManifest], for type: ContentType, in registry: ContentTypeRegistry,
                                  associations: [String: String]) -> (EditorManifest, ContentType)? {
        let candidates = associations.compactMap { key, editorID -> (EditorManifest, ContentType, Int)? in
            let associatedType = ContentType(key)
            guard let distance = registry.distance(from: type, to: associatedType),
                  let editor = editors.first(where: { $0.id == editorID }) else { return nil }
            return (editor, associatedType, distance)
        }
        return candidates.min { lhs, rhs in
            lhs.2 != rhs.2 ? lhs.2 < rhs.2 : lhs.1.identifier < rhs.1.identifier
        }.map { ($0.0, $0.1) }
    }
}
