import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore

/// Per-window state, like SwiftUI's SceneStorage: what a terminal window had open, restored when the scene is reopened.
public struct SceneState: Codable, Equatable, Sendable {
    public enum Panel: String, Codable, Sendable { case launch, picker, editor, history, settings }
    public var documentPath: String?
    public var selection: EditorSelection?
    public var scroll: Int
    public var panel: Panel
    /// The documents open in the window (its tabs) in order, each with where its cursor was; nil: none kept.
    public var tabs: [Tab]?

    enum CodingKeys: String, CodingKey, CaseIterable { case documentPath, selection, scroll, panel, tabs }

    public init(documentPath: String? = nil, selection: EditorSelection? = nil, scroll: Int = 0, panel: Panel = .launch, tabs: [Tab]? = nil) {
        self.documentPath = documentPath; self.selection = selection; self.scroll = scroll; self.panel = panel; self.tabs = tabs
    }

    /// One open document of the window and its cursor, selection and scroll.
    public struct Tab: Codable, Equatable, Sendable {
        public var path: String
        public var selection: EditorSelection?
        public var scroll: Int
        public init(path: String, selection: EditorSelection? = nil, scroll: Int = 0) { self.path = path; self.selection = selection; self.scroll = scroll }
    }
}

/// Saves and restores `SceneState` as JSON under `$XDG_STATE_HOME/folio/scenes/<id>.json`.
public struct SceneStore: Sendable {
    public let directory: URL

    public init(environment: [String: String]) {
        directory = FolioPaths(environment: environment).stateHome.appendingPathComponent("scenes")
    }

    public init(directory: URL) { self.directory = directory }

    /// Letters, marks and digits of any script (what `CharacterSet.alphanumerics` holds), `-`, `_` and `.`.
    static func isSceneNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber: return true
        default: return "-_.".unicodeScalars.contains(scalar)
        }
    }

    /// The scene id from `--scene NAME`, else a new one. Names are limited to letters, digits, `-`, `_` and `.`.
    public static func sceneID(requested: String?) throws -> String {
        guard let requested else { return "scene-" + UUID().uuidString.lowercased().prefix(8) }
        guard !requested.isEmpty, requested.count <= 64, !requested.hasPrefix("."), requested.unicodeScalars.allSatisfy(isSceneNameScalar) else {
            throw LaunchError.invalidSceneName(requested)
        }
        return requested
    }

    func url(_ id: String) -> URL { directory.appendingPathComponent(id + ".json") }

    /// The saved state of scene `id`, nil when there is none; a damaged file is an error naming it.
    public func load(_ id: String) throws -> SceneState? {
        try StrictJSON.load(SceneState.self, from: url(id))
    }

    /// Saves the state of scene `id` atomically.
    public func save(_ state: SceneState, id: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(try encoder.encode(state), to: url(id), sync: false)
    }

    /// Forgets scene `id`.
    public func remove(_ id: String) throws {
        if FileManager.default.fileExists(atPath: url(id).path) { try FileManager.default.removeItem(at: url(id)) }
    }
}
