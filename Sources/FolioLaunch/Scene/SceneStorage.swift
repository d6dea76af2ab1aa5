import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore

/// Per-window state, like SwiftUI's SceneStorage: what a terminal window had open, restored when the scene is reopened.
package struct SceneState: Codable, Equatable, Sendable {
    package enum Panel: String, Codable, Sendable { case launch, picker, editor, history, settings }
    package var documentPath: String?
    package var selection: EditorSelection?
    package var scroll: Int
    package var panel: Panel
    /// The documents open in the window (its tabs) in order, each with where its cursor was; nil: none kept.
    package var tabs: [Tab]?

    enum CodingKeys: String, CodingKey, CaseIterable { case documentPath, selection, scroll, panel, tabs }

    package init(documentPath: String? = nil, selection: EditorSelection? = nil, scroll: Int = 0, panel: Panel = .launch, tabs: [Tab]? = nil) {
        self.documentPath = documentPath; self.selection = selection; self.scroll = scroll; self.panel = panel; self.tabs = tabs
    }

    /// One open document of the window and its cursor, selection and scroll.
    package struct Tab: Codable, Equatable, Sendable {
        package var path: String
        package var selection: EditorSelection?
        package var scroll: Int
        package init(path: String, selection: EditorSelection? = nil, scroll: Int = 0) { self.path = path; self.selection = selection; self.scroll = scroll }
    }
}

/// Saves and restores `SceneState` as JSON under `$XDG_STATE_HOME/folio/scenes/<id>.json`.
package struct SceneStore: Sendable {
    package let directory: URL

    package init(environment: [String: String]) {
        directory = FolioPaths(environment: environment).stateHome.appendingPathComponent("scenes")
    }

    package init(directory: URL) { self.directory = directory }

    /// Letters, marks and digits of any script (what `CharacterSet.alphanumerics` holds), `-`, `_` and `.`.
    static func isSceneNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber: return true
        default: return "-_.".unicodeScalars.contains(scalar)
        }
    }

    /// The scene id from `--scene NAME`, else a new one. Names are limited to letters, digits, `-`, `_` and `.`.
    package static func sceneID(requested: String?) throws -> String {
        guard let requested else { return "scene-" + UUID().uuidString.lowercased().prefix(8) }
        guard !requested.isEmpty, requested.count <= 64, !requested.hasPrefix("."), requested.unicodeScalars.allSatisfy(isSceneNameScalar) else {
            throw LaunchError.invalidSceneName(requested)
        }
        return requested
    }

    func url(_ id: String) -> URL { directory.appendingPathComponent(id + ".json") }

    /// The saved state of scene `id`, nil when there is none; a damaged file is an error naming it.
    package func load(_ id: String) throws -> SceneState? {
        try StrictJSON.load(SceneState.self, from: url(id))
    }

    /// Saves the state of scene `id` atomically.
    package func save(_ state: SceneState, id: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(try encoder.encode(state), to: url(id), sync: false)
    }

    /// Forgets scene `id`.
    package func remove(_ id: String) throws {
        if FileManager.default.fileExists(atPath: url(id).path) { try FileManager.default.removeItem(at: url(id)) }
    }
}
