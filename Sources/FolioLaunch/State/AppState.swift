import FoundationEssentials
import FolioBasics
import Glibc
import FolioTemplates
import FolioCore
import FolioTerminal

/// Something the app state machine asks the runtime to do.
package enum AppEffect: Equatable, Sendable {
    case createBlank(ContentType, destination: String)
    case instantiate(templateID: String, answers: [String: String], destination: String)
    case open(path: String)
    case runCommand([String])
    /// Stop loading the template sources still loading (Esc on the launcher while they load).
    case stopLoadingTemplates
    /// An editor command with its arguments (host commands are `folio.undo` and `folio.redo`), made on version `base`
    /// (the commit the window showed when the command was started; nil: the newest), with the window's cursor and
    /// selection then (`selection`; nil for host commands).
    case runEditorCommand(String, arguments: [String] = [], base: String? = nil, selection: ViewSelection? = nil)
    case openHistory
    /// The next `limit` versions of the history after the cursor (nil: from the newest).
    case loadHistoryPage(after: String?, limit: Int = 50)
    case loadDiff(commitID: String)
    case restore(commitID: String)
    /// The versions that changed one item (as the view numbers it in version `at`; nil: the newest).
    case openItemHistory(item: String, at: String?)
    /// One item back as it was in version `commitID` (numbered `item` there), every other item as it is now.
    case restoreItem(item: String, commitID: String)
    case tag(commitID: String, name: String)
    case compare(String, String)
    /// Draw two versions as the editor does, compared, for the history browser's preview.
    case loadPreview(HistoryPreview.Subject)
    case openSettings
    /// The Open… form asks what a path is to complete it (Tab); the runtime answers at once with
    /// `AppState.browsed(_:listing:in:)` (as it does for the form's `.open`, which lists a folder of documents).
    case browse(BrowseRequest)
    case saveSettings(Settings)
    /// Check a template source being added in Settings, off the UI thread (the result comes back as a `SourceCheck`).
    case checkTemplateSource(SourceCheck)
    /// Stop the plugin call in progress (Esc while it runs); it ends with a one-line failure, nothing changed.
    case cancelPluginCall
    /// Edit the open form's text field in `$VISUAL`/`$EDITOR`, starting from `text`; the run loop gives the result to
    /// `AppState.editedArgumentText`.
    case editArgumentText(String)
    /// Ask the editor for the current values of the open form's command (off the UI thread); the answer comes back to
    /// `AppState.receiveArgumentValues`.
    case loadArgumentValues(command: String, base: String?, selection: ViewSelection?)
    /// A request of the generic document view (read a file, edit one in the user's editor).
    case generic(GenericViewRequest)
    /// Pin or unpin a recent document (kept in the recent list's file).
    case pinRecent(path: String, pinned: Bool)
    /// Forget a recent document (the document itself is untouched).
    case removeRecent(path: String)
    /// A request of the open document's sharing (sync, push, a remote, a conflict), carried out off the UI thread.
    case sharing(SharingRequest)
    /// Show the open document at this place in the tabs (the runtime switches to it).
    case switchTab(Int)
    /// Close the open document at this place in the tabs (the next one is shown, else the launcher).
    case closeTab(Int)
    /// Show the launcher to open another document, the open ones kept.
    case newTab
    case quit
}

/// A form being filled in: fields with values, the focused one, validation messages, and what it is for.
package struct FormState: Equatable, Sendable {
    /// What submitting the form does.
    package enum Purpose: Equatable, Sendable {
        case blank(ContentType)
        case template(TemplateSummary)
        case open
        case tag(commitID: String)
    }

    package struct Field: Equatable, Sendable {
        package var name: String
        package var label: String
        /// The value being edited: text, cursor and scroll.
        package var input: TextField
        package var choices: [String]
        package var required: Bool
        package var pattern: String?
        package var message: String?
        /// The template variable behind the field, when there is one: its own check is the one used.
        package var declaration: FolioTemplates.TemplateVariable? = nil
        /// The value the field opened with (a form whose values all still equal these has nothing to lose).
        package var initial: String
        /// The field's text (setting it puts the cursor at its end).
        package var value: String {
            get { input.text }
            set { input.set(newValue) }
        }
        package init(name: String, label: String, value: String, choices: [String], required: Bool, pattern: String?, message: String?,
                    declaration: FolioTemplates.TemplateVariable? = nil) {
            self.name = name; self.label = label; self.input = .suggesting(value); self.choices = choices; self.required = required
            self.pattern = pattern; self.message = message; self.declaration = declaration; self.initial = value
        }
    }

    package var title: String
    package var purpose: Purpose
    package var fields: [Field]
    package var focus: Int
    /// The first row of fields shown when they do not all fit (kept so the focused field stays visible).
    package var scroll = 0
    /// Where Esc and submitting go (the launch screen when nil).
    package var back: AppState.Screen?
    /// The Open… form's completions or the documents in the folder typed, when shown.
    package var browser: PathBrowser? = nil
    /// With a template's live check: the fields it hides now (kept, to come back as they were), every field's
    /// name in the template's order, each default it computed last, and the answers it refuses.
    package var parked: [Field] = []
    package var order: [String] = []
    package var suggested: [String: String] = [:]
    package var liveProblems: [String: String] = [:]
    package init(title: String, purpose: Purpose, fields: [Field], focus: Int, back: AppState.Screen? = nil) {
        self.title = title; self.purpose = purpose; self.fields = fields; self.focus = focus; self.back = back
    }

    /// The validation message for `field`, nil when its value is acceptable.
    static func validate(_ field: Field) -> String? {
        let empty = field.value.trimming(.whitespaces).isEmpty
        // An emptied field is an empty answer (the default is not used behind it): refused when the template needs at
        // least one character. A computed default never shown (opened empty, still empty) is the template's to fill.
        let needsText = (field.declaration?.min ?? 0) > 0 && !(field.initial.isEmpty && field.declaration?.default != nil)
        if empty, field.required || needsText { return "\(field.label) is required: it cannot be left empty" }
        if let declaration = field.declaration { return declaration.problem(withAnswer: field.value).map { worded($0, declaration) } }
        if !field.choices.isEmpty, !field.choices.contains(field.value) { return "choose one of: \(field.choices.joined(separator: ", "))" }
        if let pattern = field.pattern, !field.value.isEmpty {
            guard let regex = try? Regex("^(?:\(pattern))$") else { return "the template's pattern '\(pattern)' is invalid" }
            if (try? regex.wholeMatch(in: field.value)) == nil {
                return "'\(field.value)' is not accepted: \(field.label) \(notThePattern)"
            }
        }
        return nil
    }

    static let notThePattern = "is not in the form this template asks for"

    /// A template's refusal in words: a pattern mismatch says what the template's help says (or that the value is
    /// not in the form asked for), never the regular expression.
    static func worded(_ problem: String, _ variable: FolioTemplates.TemplateVariable) -> String {
        guard let pattern = variable.pattern, problem.hasSuffix("does not match the pattern \(pattern)") else { return problem }
        let value = problem.dropLast("does not match the pattern \(pattern)".count).trimming(.whitespaces)
        let why = variable.help?.trimming(.whitespaces) ?? ""
        return "\(value) is not accepted: " + (why.isEmpty ? "\(variable.question) \(notThePattern)" : why)
    }
}

/// The editor host: the open document, the cursor and selection, and the command palette.
package struct EditorState: Equatable, Sendable {
    package var path: String
    package var title: String
    package var contentType: ContentType
    package var commitID: String
    package var commitMessage: String
    package var commands: [EditorCommand]
    /// The editor's id ("tally"), for the spinner; nil when the document has no editor.
    package var editorName: String?
    package var cursor: Int = 0
    package var selectionAnchor: Int?
    package var scroll: Int = 0
    /// How far the user panned the view (shift+arrows) from where the editor puts it; back to zero when the cursor or
    /// the selection moves, so the view follows the cursor again. Editors without a plane ignore it.
    package var pan = ViewPan()
    package var paletteOpen = false
    /// The selected row among the palette's commands that match its filter.
    package var paletteIndex = 0
    /// What the user typed in the open palette: the commands are filtered by it.
    package var paletteFilter = TextField()
    /// The terminal's width (set by the run loop), for the prompt's horizontal scroll.
    package var columns: Int = 80
    /// The prompt (one argument) or form (several) asking a command's arguments, when open.
    package var prompt: EditorPrompt?
    /// A one-line message (an error from the plugin, a disabled command, a result), cleared by the next key.
    package var message: StatusLine?
    /// A one-line hint (how to close or quit), not an error; cleared by the next key.
    package var hint: String?
    /// The view's numbered items, nil when it does not number them.
    package var items: ItemLayout?
    /// The rows the view has for items (set by the run loop from the terminal size), for scrolling.
    package var viewRows: Int = 20
    /// The document's sharing state as of this frame (set by the run loop), nil when its session offers no sharing.
    package var sharing: SharingState?
    /// The marks the last version that arrived from elsewhere left on the items it touched, drawn until they expire.
    package var arrivalMarks: ArrivalMarks?
    package init(path: String, title: String, contentType: ContentType, commitID: String = "", commitMessage: String = "", commands: [EditorCommand] = []) {
        self.path = path; self.title = title; self.contentType = contentType
        self.commitID = commitID; self.commitMessage = commitMessage; self.commands = commands
    }
    /// The selected range, nil without a selection.
    package var selection: EditorSelection? {
        selectionAnchor.map { EditorSelection(start: min($0, cursor), end: max($0, cursor)) }
    }
    /// What commands act on: the selection, else the item under the cursor when the view numbers items.
    package var effectiveSelection: EditorSelection? {
        if let selection { return selection }
        if let items, items.count > 0, cursor < items.count { return EditorSelection(start: cursor, end: cursor) }
        return nil
    }
    /// Folio's own commands, offered beside the plugin's.
    package static let hostCommands: [EditorCommand] = [
        EditorCommand(id: "folio.undo", title: "Undo", shortcut: "^Z"),
        EditorCommand(id: "folio.redo", title: "Redo", shortcut: "^Y"),
        EditorCommand(id: "folio.history", title: "History", shortcut: "^G"),
        EditorCommand(id: "folio.item-history", title: "Item history", shortcut: "H"),
        EditorCommand(id: "folio.palette", title: "Commands", shortcut: "^P"),
        EditorCommand(id: "folio.settings", title: "Settings", shortcut: ","),
        EditorCommand(id: "folio.close", title: "Close", shortcut: "^W"),
    ]
    /// The palette: the plugin's commands then the host's.
    package var paletteCommands: [EditorCommand] {
        commands + Self.hostCommands.filter { $0.id != "folio.palette" } + sharingCommands + [Self.messagesCommand]
    }
    /// The message log, from the palette (and `M` where the editor does not bind it).
    package static let messagesCommand = EditorCommand(id: "folio.messages", title: "Message log", shortcut: "M")
}

/// The settings screen: the editable fields and where Esc goes back to.
package struct SettingsState: Equatable, Sendable {
    package enum Field: Int, CaseIterable, Sendable { case authorName, authorEmail, sync, syncInterval, color, source, association }
    /// The text fields being edited, by field (`sync` is a choice, not text).
    package var inputs: [Field: TextField] = [:]
    package var sync: SyncMode
    package var focus: Field = .authorName
    /// A one-line note for the whole screen ("Saved").
    package var message: StatusLine?
    /// The problem with a field's value, shown under that field; the value is kept.
    package var problems: [Field: String] = [:]
    /// The first row shown when the fields do not all fit.
    package var scroll = 0
    /// The values as the screen opened or was last saved: a screen whose values equal them has nothing unsaved.
    package var savedInputs: [Field: String] = [:]
    package var savedSync: SyncMode
    /// The check of the template source being added, started when the field is left (nil before).
    package var sourceCheck: SourceCheck?
    /// The editor to return to, when opened from one.
    package var returnTo: EditorState?
    /// The ids of the installed editors (empty when unknown: then any id is accepted).
    package var knownEditors: [String] = []
    /// The home folder, for `~/` in a template source.
    package var home: String?
    package var authorName: String { get { text(.authorName) } set { inputs[.authorName] = TextField(newValue) } }
    package var authorEmail: String { get { text(.authorEmail) } set { inputs[.authorEmail] = TextField(newValue) } }
    /// Whole seconds between two looks at a shared document's remote; empty keeps Folio's default (30 s).
    package var syncInterval: String { get { text(.syncInterval) } set { inputs[.syncInterval] = TextField(newValue) } }
    /// `PART=COLOR` (an empty color removes it; see `ColorSlots`).
    package var colorEntry: String { get { text(.color) } set { inputs[.color] = TextField(newValue) } }
    /// `NAME URL [REF]` adds or replaces a template source; `-NAME` removes it.
    package var sourceEntry: String { get { text(.source) } set { inputs[.source] = TextField(newValue) } }
    /// `CONTENT.TYPE=EDITOR` associates an editor; `CONTENT.TYPE=` removes the association.
    package var associationEntry: String { get { text(.association) } set { inputs[.association] = TextField(newValue) } }
    func text(_ field: Field) -> String { inputs[field]?.text ?? "" }
    package init(settings: Settings, returnTo: EditorState? = nil) {
        sync = settings.sync; savedSync = settings.sync; self.returnTo = returnTo
        authorName = settings.author?.name ?? ""; authorEmail = settings.author?.email ?? ""
        syncInterval = settings.syncInterval.flatMap { Int(exactly: $0.rounded()) }.map(String.init) ?? ""
        markSaved()
    }
    /// `base` with the edited fields applied.
    package func applied(to base: Settings) -> Settings {
        var settings = base
        let name = authorName.trimming(.whitespaces), email = authorEmail.trimming(.whitespaces)
        settings.author = name.isEmpty && email.isEmpty ? nil : Settings.Author(name: name, email: email)
        settings.sync = sync
        let seconds = syncInterval.trimming(.whitespaces)
        settings.syncInterval = seconds.isEmpty ? nil : Int(seconds).map(Double.init) ?? base.syncInterval
        func pair(_ entry: String) -> (String, String)? {
            guard let eq = entry.firstIndex(of: "=") else { return nil }
            let key = entry[..<eq].trimming(.whitespaces), value = entry[entry.index(after: eq)...].trimming(.whitespaces)
            return key.isEmpty ? nil : (key, value)
        }
        if let (key, value) = pair(colorEntry) { settings.colors[key] = value.isEmpty ? nil : value }
        if let (type, editor) = pair(associationEntry) { settings.editorAssociations[type] = editor.isEmpty ? nil : editor }
        let words = sourceEntry.split(separator: " ").map(String.init)
        if words.count == 1, words[0].hasPrefix("-") {
            settings.templateSources.removeAll { $0.name == String(words[0].dropFirst()) }
        } else if words.count == 2 || words.count == 3 {
            settings.templateSources.removeAll { $0.name == words[0] }
            settings.templateSources.append(TemplateSourceSetting(name: words[0], url: words[1], ref: words.count == 3 ? words[2] : nil))
        }
        return settings
    }

    /// Whether the entry fields hold something `applied(to:)` cannot use, with the reason.
    package var entryProblem: String? {
        if !colorEntry.isEmpty, !colorEntry.contains("=") { return "Color: write PART=COLOR" }
        if !associationEntry.isEmpty, !associationEntry.contains("=") { return "Editor: write CONTENT.TYPE=EDITOR" }
        let words = sourceEntry.split(separator: " ")
        if !sourceEntry.isEmpty, !(words.count == 1 && words[0].hasPrefix("-")), !(2...3).contains(words.count) {
            return "Source: write NAME URL [REF], or -NAME to remove"
        }
        return nil
    }
}

/// Where the app is and what each screen holds.
package struct AppState: Equatable, Sendable {
    package indirect enum Screen: Equatable, Sendable {
        case launch
        case picker(PickerState)
        case form(FormState)
        case editor(EditorState)
        case history(HistoryState, EditorState)
        case settings(SettingsState)
        /// The generic document view, for a document no editor opens.
        case generic(GenericViewState)
        /// The remote settings or conflict screen of the open document, over its editor.
        case sharing(SharingScreen, EditorState)
    }

    package var screen: Screen = .launch
    /// The focused row of the launch screen (actions, then recent documents).
    package var selection = 0
    /// The first recent document the launch screen shows (it scrolls to keep the selected one shown).
    package var recentScroll = 0
    /// The recent-list filter while typing after `/`.
    package var filterField: TextField?
    /// The filter's text, nil when not filtering.
    package var filter: String? {
        get { filterField?.text }
        set { filterField = newValue.map { TextField($0) } }
    }
    /// A question waiting for its answer (quit with unsaved text, remove a recent document).
    package var confirming: Confirmation?
    /// Whether the help overlay is open over the launch, picker, form or settings screen.
    package var helpOpen = false
    /// The first row of the help overlay shown (a drawn row: long lines wrap).
    package var helpScroll = 0
    /// What was typed in the open help overlay: only the keys that match it are listed.
    package var helpFilter = TextField()
    /// The ids of the installed editors, for checking an editor association (empty when unknown).
    package var knownEditors: [String] = []
    /// The home folder, for `~/` in a template source path.
    package var home: String?
    /// The folder a new document's destination is resolved in (the process's current folder; set by the run loop).
    package var currentFolder: String?
    /// The terminal's size, set by the run loop before each key (for fields and lists that scroll).
    package var columns = 80
    package var rows = 24
    package var recent: [RecentDocument] = []
    package var templates: [TemplateSourceStatus] = []
    package var tick = 0
    /// The settings as loaded (the settings screen edits a copy).
    package var settings = Settings()
    /// A one-line message on the launch screen (a command's output or an error), cleared by the next key.
    package var message: StatusLine?
    /// The call into the open document running off the UI thread, if any.
    package var call: PluginCall?
    /// Keys typed while a command ran, replayed in order once it succeeds (dropped when it fails or is cancelled).
    package var typeAhead: [Key] = []
    /// The generic view the history or settings screen was opened from, to come back to.
    package var genericReturn: GenericViewState?
    /// The sharing action running off the UI thread (sync now, push, settle…), if any: Esc stops it.
    package var sharingActivity: SharingActivity?
    /// The messages shown so far (kept across screens), and whether the log overlay is open, from which line.
    package var messageLog = MessageLog()
    package var messageLogOpen = false
    package var messageLogScroll = 0
    /// The time now (set by the run loop before each key): when a message appeared.
    package var now = Date()
    /// The documents open in this `folio` (tabs) and the tab list overlay.
    package var tabs = TabBar()

    package init(recent: [RecentDocument] = [], templates: [TemplateSourceStatus] = []) { self.recent = recent; self.templates = templates }

    /// The launch-screen context for layout.
    package var launchContext: LaunchContext {
        LaunchContext(recent: recent, templates: templates, selection: selection, tick: tick, filterField: filterField, recentScroll: recentScroll,
                      home: home)
    }
}
