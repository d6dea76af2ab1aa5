import FoundationEssentials
import FolioBasics
import Glibc
import FolioTemplates
import FolioCore

// What the launcher needs from documents, templates and plugins. The integration layer adapts FolioCore,
// FolioTemplates and FolioPlugins to these protocols; tests use in-memory fakes.

/// A template as the picker shows it.
package struct TemplateSummary: Equatable, Sendable {
    package var id: String
    package var name: String
    package var group: String
    package var contentType: ContentType
    package var summary: String
    package var variables: [TemplateVariable]
    package var files: [String]
    /// The template's own check of its form as it is filled in (a copier template's `when`, `validator` and
    /// defaults over earlier answers), when it has one.
    package var liveCheck: LiveFormCheck?
    package init(id: String, name: String, group: String = "", contentType: ContentType, summary: String = "",
                variables: [TemplateVariable] = [], files: [String] = [], liveCheck: LiveFormCheck? = nil) {
        self.id = id; self.name = name; self.group = group; self.contentType = contentType
        self.summary = summary; self.variables = variables; self.files = files; self.liveCheck = liveCheck
    }
}

/// A template's check of the answers typed so far: which questions to hide, which answers it refuses and why, and
/// each question's default now. Two checks are equal whatever they do (state comparisons look at what they gave).
package struct LiveFormCheck: Equatable, Sendable {
    package let evaluate: @Sendable ([String: String]) -> CopierFormCheck?
    package init(_ evaluate: @escaping @Sendable ([String: String]) -> CopierFormCheck?) { self.evaluate = evaluate }
    package static func == (a: LiveFormCheck, b: LiveFormCheck) -> Bool { true }
}

/// A variable a template asks for.
package struct TemplateVariable: Equatable, Sendable {
    package var name: String
    package var prompt: String
    package var defaultValue: String
    /// The allowed values, empty for free text.
    package var choices: [String]
    package var required: Bool
    /// A regular expression the answer must match, when given.
    package var pattern: String?
    /// The template's own declaration, when known: the form checks answers with it (type, choices, pattern, range).
    package var declaration: FolioTemplates.TemplateVariable?
    package init(name: String, prompt: String? = nil, defaultValue: String = "", choices: [String] = [], required: Bool = false, pattern: String? = nil,
                declaration: FolioTemplates.TemplateVariable? = nil) {
        self.name = name; self.prompt = prompt ?? name; self.defaultValue = defaultValue
        self.choices = choices; self.required = required; self.pattern = pattern; self.declaration = declaration
    }
}

/// How far a template source has got.
package enum SourceState: Equatable, Sendable {
    case loading
    case loaded([TemplateSummary])
    case failed(String)
}

/// One template source and its state.
package struct TemplateSourceStatus: Equatable, Sendable {
    package var name: String
    package var state: SourceState
    /// While loading: what it is doing, one line ("fetching URL", "12/40 objects, 3 KiB"), when known.
    package var progress: String?
    package init(name: String, state: SourceState) { self.name = name; self.state = state }
}

/// Template sources that resolve asynchronously, each on its own.
package protocol TemplateCatalog: Sendable {
    /// The names of the sources, in display order.
    func sourceNames() -> [String]
    /// Resolves one source: its templates, or throws with a one-line reason.
    func templates(in source: String) async throws -> [TemplateSummary]
    /// Resolves one source, telling `progress` what it is doing in one line ("fetching URL", "12/40 objects, 3 KiB");
    /// cancelling the task stops its fetch. Defaults to `templates(in:)`.
    func templates(in source: String, progress: @escaping @Sendable (String) -> Void) async throws -> [TemplateSummary]
    /// Checks a template source about to be added (`url` at `ref`): reachable and a template repository. Returns
    /// what it holds in a few words ("3 templates"), throws with a one-line reason; nil when this catalog cannot
    /// check sources (the default).
    func checkSource(name: String, url: String, ref: String?) async throws -> String?
}

extension TemplateCatalog {
    package func checkSource(name: String, url: String, ref: String?) async throws -> String? { nil }

    package func templates(in source: String, progress: @escaping @Sendable (String) -> Void) async throws -> [TemplateSummary] {
        try await templates(in: source)
    }
}

/// A document in the recent list.
package struct RecentDocument: Equatable, Sendable {
    package var path: String
    package var title: String
    /// A short note shown on the right (content type, age…), preformatted by the provider.
    package var detail: String
    package var pinned: Bool
    /// Whether the document is gone (moved or deleted): shown as missing, removable with `x`.
    package var missing: Bool
    /// The sharing badge shown before the detail (`✓`, `↑2`, `offline`, `conflict`), empty when not shared.
    package var badge: String
    package init(path: String, title: String? = nil, detail: String = "", pinned: Bool = false, missing: Bool = false, badge: String = "") {
        self.path = path; self.title = title ?? PathText.lastComponent(path); self.detail = detail; self.pinned = pinned
        self.missing = missing; self.badge = badge
    }
}

/// The recently opened documents, pinned first, then newest first.
package protocol RecentDocumentsProvider: Sendable {
    func recentDocuments(limit: Int) -> [RecentDocument]
    /// Pins or unpins `path` (pinned documents stay at the top of the list).
    func setPinned(_ pinned: Bool, path: String) throws
    /// Forgets `path` (the document itself is not touched).
    func remove(path: String) throws
    /// The sharing state last saved for the document at `path` (its badge in the list); `.notShared` when none.
    func sharingState(path: String) -> SharingState
}

extension RecentDocumentsProvider {
    package func setPinned(_ pinned: Bool, path: String) throws {}
    package func remove(path: String) throws {}
    package func sharingState(path: String) -> SharingState { .notShared }
}

/// What is selected in an editor: a range of lines/items, nil when nothing is.
package struct EditorSelection: Equatable, Sendable, Codable {
    package var start: Int
    package var end: Int
    package init(start: Int, end: Int) { self.start = start; self.end = end }
}

/// An editor plugin as the host frame sees it.
package protocol EditorViewProvider: Sendable {
    /// The document's content for `request`: at most `request.height` lines of at most `request.width` cells, with
    /// the cursor, range, scroll and pan of `request.selection` (views that number their items draw the cursor
    /// themselves), or the failure that stopped the editor.
    func render(_ request: RenderRequest) -> PluginView
    /// The commands the plugin offers.
    func commands() -> [EditorCommand]
    /// The layout of the view's items: how many there are and how many lines come before the first one;
    /// nil when the view does not number items (then the host draws the cursor).
    func itemLayout() -> ItemLayout?
}

/// How a view lays out numbered items.
package struct ItemLayout: Equatable, Sendable {
    package var count: Int
    package var headerLines: Int
    /// Each item's position as its line shows it ([3], or [1, 2] in an outline), when known; commands' leading
    /// whole-number arguments are suggested from the one under the cursor.
    package var paths: [[Int]]
    /// Each item's title as its line shows it (`ViewLines.itemTitle`), nil where it cannot be told whole; a
    /// rename's form starts from it.
    package var titles: [String?] = []
    package init(count: Int, headerLines: Int, paths: [[Int]] = []) { self.count = count; self.headerLines = headerLines; self.paths = paths }
}

/// How far a view is panned from where its editor puts it, in cells: columns right, rows down (negative: left, up).
package struct ViewPan: Equatable, Sendable {
    package var x: Int
    package var y: Int
    package init(x: Int = 0, y: Int = 0) { self.x = x; self.y = y }
    /// The farthest a pan goes either way (a plugin adds it to coordinates of its own).
    package static let limit = 1_000_000
    /// This pan moved by (`dx`, `dy`), kept within `limit`.
    package func moved(dx: Int, dy: Int) -> ViewPan {
        ViewPan(x: max(-Self.limit, min(Self.limit, x + dx)), y: max(-Self.limit, min(Self.limit, y + dy)))
    }
}

extension EditorViewProvider {
    package func itemLayout() -> ItemLayout? { nil }
}

/// A commit in a document's history.
package struct HistoryEntry: Equatable, Sendable {
    package var id: String
    package var message: String
    package var author: String
    package var date: String
    package var tags: [String]
    /// When it was made (the author's time): the timeline's days and the time on its row; nil when unknown.
    package var time: Date?
    package init(id: String, message: String, author: String = "", date: String = "", tags: [String] = [], time: Date? = nil) {
        self.id = id; self.message = message; self.author = author; self.date = date; self.tags = tags; self.time = time
    }
    /// The abbreviated commit id.
    package var shortID: String { String(id.prefix(7)) }
}

/// A page of history, newest first.
package struct HistoryPage: Equatable, Sendable {
    package var entries: [HistoryEntry]
    /// The cursor for the next (older) page, nil at the first commit.
    package var next: String?
    /// How many versions the whole history holds (`@N` numbers them from the first), when the provider knows.
    package var total: Int?
    package init(entries: [HistoryEntry], next: String?, total: Int? = nil) { self.entries = entries; self.next = next; self.total = total }
}

/// Loads a document's history lazily, a page at a time, and the diff of one commit.
package protocol HistoryPageProvider: Sendable {
    func page(after cursor: String?, limit: Int) async throws -> HistoryPage
    func diff(of commitID: String) async throws -> [String]
    /// The changes from version `a` to version `b`.
    func diff(between a: String, and b: String) async throws -> [String]
    /// The changes from `a` (nil: the parent of `b`) to `b`, with who described them: the editor's semantic diff
    /// when it has one, else the text diff and why.
    func describedDiff(from a: String?, to b: String) async throws -> HistoryDiff
    /// The versions that changed one item (numbered `item` in version `at`, nil: the newest), newest first.
    func itemHistory(item: String, at: String?) async throws -> ItemHistoryPage
}

extension HistoryPageProvider {
    package func diff(between a: String, and b: String) async throws -> [String] { try await diff(of: b) }
    package func describedDiff(from a: String?, to b: String) async throws -> HistoryDiff {
        let lines = if let a { try await diff(between: a, and: b) } else { try await diff(of: b) }
        return HistoryDiff(lines: lines, kind: .text(note: nil))
    }
}
