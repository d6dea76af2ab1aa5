import FolioCore
import FolioDisplayWidth
import FoundationEssentials
import FolioBasics
import Glibc

/// A plugin not loaded because another one on the search path has its plugin id or one of its editor ids.
public struct PluginDuplicate: Sendable, Equatable {
    /// The copy that is not loaded.
    public let refused: DiscoveredPlugin
    /// What clashed: `plugin id 'X'` or `editor id 'Y'`.
    public let clash: String
    /// The library that is used instead.
    public let kept: URL
    /// Whether `kept` is a linked build (`plugins link`), which shadows the other copy on purpose.
    public let linked: Bool
}

/// Something the user of a document must be told when its editor is chosen (`EditorRegistry.usageNotices`).
public enum PluginUsageNotice: Sendable, Equatable, CustomStringConvertible {
    /// A linked build is used; `shadowed` (an installed or bundled copy of the same id) is not loaded.
    case linked(id: String, library: URL, shadowed: URL)
    /// A copy of the plugin (or of one of its editors) was refused as a duplicate; `kept` is used.
    case duplicate(refused: URL, clash: String, kept: URL)
    /// No editor is loaded for the type, and this plugin, which has one, is not loaded (disabled or changed).
    case inactive(id: String, type: String, state: PluginState)

    public var description: String {
        switch self {
        case let .linked(id, library, shadowed):
            return "using the linked build \(library.path.shownAsText) of \(id.shownAsText); the copy at \(shadowed.path.shownAsText) is not loaded until it is unlinked"
        case let .duplicate(refused, clash, kept):
            return "\(refused.path.shownAsText): plugin refused: duplicate \(clash.shownAsText), already provided by \(kept.path.shownAsText) (which is used)"
        case let .inactive(id, type, state):
            return "no editor for \(type.shownAsText): the plugin \(id.shownAsText) that edits it is \(state.explanation ?? state.word)"
        }
    }
}

extension EditorRegistry {
    /// What the user of a document of `type` must be told, in one line each: the linked build that is used instead
    /// of an installed copy, any copy of the chosen editor's plugin (or of an editor for `type`) refused as a
    /// duplicate, and — when no editor is loaded for `type` — each disabled or changed plugin that has one, so a type
    /// never silently loses its editor. Empty when there is nothing to say.
    public func usageNotices(for type: ContentType, associations: [String: String] = [:], override: String? = nil) -> [PluginUsageNotice] {
        var notices: [PluginUsageNotice] = []
        let chosen = try? chooseEditor(for: type, associations: associations, override: override).editor
        let plugin = chosen.flatMap { editor in plugins.first { $0.manifest.editors.contains { $0.id == editor.id } } }
        for duplicate in duplicates {
            let concernsType = !EditorRanking.rank(duplicate.refused.manifest.editors, for: type, in: contentTypes).isEmpty
            guard duplicate.kept == plugin?.library || concernsType else { continue }
            if duplicate.linked {
                notices.append(.linked(id: duplicate.refused.manifest.id, library: duplicate.kept, shadowed: duplicate.refused.library))
            } else {
                notices.append(.duplicate(refused: duplicate.refused.library, clash: duplicate.clash, kept: duplicate.kept))
            }
        }
        if chosen == nil {
            for entry in inactive where !EditorRanking.rank(entry.plugin.manifest.editors, for: type, in: Self.registry(adding: entry.plugin, to: contentTypes)).isEmpty {
                notices.append(.inactive(id: entry.plugin.manifest.id, type: type.identifier, state: entry.state))
            }
        }
        return notices
    }

    /// `registry` with the types `plugin` declares (an inactive plugin's types are not in the host's registry).
    static func registry(adding plugin: DiscoveredPlugin, to registry: ContentTypeRegistry) -> ContentTypeRegistry {
        var registry = registry
        for editor in plugin.manifest.editors {
            for declared in editor.declaredTypes where registry.declaration(of: declared.identifier) == nil {
                registry.declare(declared.declaration(by: plugin.manifest.id))
            }
        }
        return registry
    }
}
