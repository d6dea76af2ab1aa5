import Foundation
import FolioCore
import FolioTerminal

/// Something the app state machine asks the runtime to do.
public enum AppEffect: Equatable, Sendable {
    case createBlank(ContentType, destination: String)
    case instantiate(templateID: String, answers: [String: String], destination: String)
    case open(path: String)
    case runCommand([String])
    case runEditorCommand(String)
    case openHistory
    case loadHistoryPage(after: String?)
    case loadDiff(commitID: String)
    case restore(commitID: String)
    case tag(commitID: String, name: String)
    case compare(String, String)
    case openSettings
    case quit
}

/// A form being filled in: fields with values, the focused one, validation messages, and what it is for.
public struct FormState: Equatable, Sendable {
    /// What submitting the form does.
    public enum Purpose: Equatable, Sendable {
        case blank(ContentType)
        case template(TemplateSummary)
        case open
        case tag(commitID: String)
    }

    public struct Field: Equatable, Sendable {
        public var name: String
        public var label: String
        public var value: String
        public var choices: [String]
        public var required: Bool
        public var pattern: String?
        public var message: String?
    }

    public var title: String
    public var purpose: Purpose
    public var fields: [Field]
    public var focus: Int

    /// The validation message for `field`, nil when its value is acceptable.
    static func validate(_ field: Field) -> String? {
        if field.required, field.value.trimmingCharacters(in: .whitespaces).isEmpty { return "\(field.label) is required" }
        if !field.choices.isEmpty, !field.choices.contains(field.value) { return "choose one of: \(field.choices.joined(separator: ", "))" }
        if let pattern = field.pattern, !field.value.isEmpty {
            guard let regex = try? NSRegularExpression(pattern: "^(?:\(pattern))$") else { return "the template's pattern '\(pattern)' is invalid" }
            if regex.firstMatch(in: field.value, range: NSRange(field.value.startIndex..., in: field.value)) == nil {
                return "must match \(pattern)"
            }
        }
        return nil
    }
}

/// The template picker: sources as they resolve, a filter typed by the user, and the selected template.
public struct PickerState: Equatable, Sendable {
    public var group: String?
    public var contentType: ContentType?
    public var filter: String = ""
    public var selection: Int = 0

    /// The templates shown, grouped (group order, then name), after the scope and the filter.
    public func visible(_ sources: [TemplateSourceStatus]) -> [TemplateSummary] {
        let all = sources.flatMap { source -> [TemplateSummary] in if case let .loaded(list) = source.state { return list } else { return [] } }
        let needle = filter.lowercased()
        return all.filter { template in
            (group == nil || template.group == group) && (contentType == nil || template.contentType == contentType)
                && (needle.isEmpty || template.name.lowercased().contains(needle) || template.summary.lowercased().contains(needle)
                    || template.group.lowercased().contains(needle))
        }.sorted { ($0.group, $0.name) < ($1.group, $1.name) }
    }
}

/// The editor host: the open document, the cursor and selection, and the command palette.
public struct EditorState: Equatable, Sendable {
    public var path: String
    public var title: String
    public var contentType: ContentType
    public var commitID: String
    public var commitMessage: String
    public var commands: [EditorCommand]
    public var cursor: Int = 0
    public var selectionAnchor: Int?
    public var scroll: Int = 0
    public var paletteOpen = false
    public var paletteIndex = 0
    public init(path: String, title: String, contentType: ContentType, commitID: String = "", commitMessage: String = "", commands: [EditorCommand] = []) {
        self.path = path; self.title = title; self.contentType = contentType
        self.commitID = commitID; self.commitMessage = commitMessage; self.commands = commands
    }
    /// The selected range, nil without a selection.
    public var selection: EditorSelection? {
        selectionAnchor.map { EditorSelection(start: min($0, cursor), end: max($0, cursor)) }
    }
    /// The palette: the plugin's commands then the host's.
    public var paletteCommands: [EditorCommand] { commands + [EditorCommand(id: "folio.history", title: "Show History", shortcut: "^G")] }
}

/// The history browser: commits loaded so far (newest first), the cursor for more, the selection and its diff.
public struct HistoryState: Equatable, Sendable {
    public var entries: [HistoryEntry] = []
    public var next: String?
    public var exhausted = false
    public var loading = true
    public var selection = 0
    public var diff: [String] = []
    public var compareMark: String?
    public var error: String?
    public init() {}
}

/// Where the app is and what each screen holds.
public struct AppState: Equatable, Sendable {
    public enum Screen: Equatable, Sendable {
        case launch
        case picker(PickerState)
        case form(FormState)
        case editor(EditorState)
        case history(HistoryState, EditorState)
        case settings
    }

    public var screen: Screen = .launch
    /// The focused row of the launch screen (actions, then recent documents).
    public var selection = 0
    /// The recent-list filter while typing after `/`.
    public var filter: String?
    public var recent: [RecentDocument] = []
    public var templates: [TemplateSourceStatus] = []
    public var tick = 0

    public init(recent: [RecentDocument] = [], templates: [TemplateSourceStatus] = []) { self.recent = recent; self.templates = templates }

    /// The launch-screen context for layout.
    public var launchContext: LaunchContext {
        LaunchContext(recent: recent, templates: templates, selection: selection, filter: filter, tick: tick)
    }
}
