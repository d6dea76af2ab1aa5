import FoundationEssentials
import Glibc
import FolioCore
import FolioTerminal

/// What the conflict screen's preview draws: the conflict, the choices so far, at a render width.
package struct ConflictPreviewSubject: Equatable, Hashable, Sendable {
    package var ref: String
    package var choices: [String: ItemChoice]
    package var width: Int
    package init(ref: String, choices: [String: ItemChoice], width: Int) { self.ref = ref; self.choices = choices; self.width = width }
}

extension SharingConflict {
    /// The choice key of a conflict without items (the editor cannot list them): the whole file is mine or theirs.
    package static let wholeFile = "*"
}

/// The conflict screen: the oldest kept conflict, its items with a choice each, and the document as the choices
/// would make it.
package struct ConflictScreenState: Equatable, Sendable {
    /// The conflicts are being read (off the UI thread).
    package var loading = true
    package var conflicts: [SharingConflict] = []
    /// Why they could not be read.
    package var error: String?
    /// The selected item.
    package var selection = 0
    /// The choice made for each item (by key); every item needs one to settle.
    package var choices: [String: ItemChoice] = [:]
    /// The preview shown, which belongs to `previewSubject`; the one asked for last is `previewWanted`.
    package var preview: [String] = []
    package var previewSubject: ConflictPreviewSubject?
    package var previewWanted: ConflictPreviewSubject?
    package var previewError: String?
    /// A one-line note ("✗ 2 items have no choice yet…").
    package var message: StatusLine?
    package init() {}

    /// The conflict settled here: the oldest.
    package var current: SharingConflict? { conflicts.first }

    /// The keys to choose for: each item's, or the whole file's when the editor cannot list items.
    package var keys: [String] {
        guard let current else { return [] }
        return current.items.isEmpty ? [SharingConflict.wholeFile] : current.items.map(\.key)
    }

    /// The keys still without a choice.
    package var unchosen: [String] { keys.filter { choices[$0] == nil } }

    /// Whether what the preview shows is what was asked for last.
    package var previewIsCurrent: Bool { previewWanted != nil && previewSubject == previewWanted }

    mutating func loaded(_ list: [SharingConflict]) {
        loading = false; conflicts = list; error = nil; selection = 0; choices = [:]
        preview = []; previewSubject = nil; previewWanted = nil; previewError = nil
        if list.isEmpty { message = .note("Nothing left to settle") }
    }

    /// Asks for the preview of the choices so far at `width`, unless it is asked for already.
    package mutating func followPreview(width: Int) -> AppEffect? {
        guard !loading, let current else { return nil }
        let subject = ConflictPreviewSubject(ref: current.ref, choices: choices, width: max(1, width))
        guard subject != previewWanted else { return nil }
        previewWanted = subject
        previewError = nil
        return .sharing(.preview(subject))
    }

    /// Takes a preview drawn for `subject`; one for anything but the subject asked for last is dropped.
    @discardableResult
    package mutating func receivePreview(_ lines: [String], for subject: ConflictPreviewSubject) -> Bool {
        guard subject == previewWanted else { return false }
        preview = lines; previewSubject = subject; previewError = nil
        return true
    }

    @discardableResult
    package mutating func receivePreviewFailure(_ text: String, for subject: ConflictPreviewSubject) -> Bool {
        guard subject == previewWanted else { return false }
        previewError = text
        return true
    }

    /// Chooses `choice` for the selected item (`both` is not offered for the whole file).
    mutating func choose(_ choice: ItemChoice) {
        guard keys.indices.contains(selection) else { return }
        if choice == .both, current?.items.isEmpty == true { message = .failure("The whole file is either mine (m) or theirs (t)"); return }
        choices[keys[selection]] = choice
    }
}

/// What a key does on the conflict screen.
package enum ConflictKeyAction: Sendable, Equatable { case up, down, mine, theirs, both, allMine, allTheirs, settle, back }

extension AppState {
    package static let conflictKeys: [KeyBinding<ConflictKeyAction>] = [
        .init([.up, .character("k")], .up, "↑ k", "previous item"),
        .init([.down, .character("j")], .down, "↓ j", "next item"),
        .init([.character("m")], .mine, "m", "keep mine for this item"),
        .init([.character("t")], .theirs, "t", "keep theirs for this item"),
        .init([.character("b")], .both, "b", "keep both: mine, then theirs after it"),
        .init([.character("M")], .allMine, "M", "mine for every item (only here: M is the message log elsewhere)"),
        .init([.character("T")], .allTheirs, "T", "theirs for every item"),
        .init([.enter], .settle, "⏎", "settle: one merge commit with these choices (each item needs one)"),
        .init([.escape], .back, "esc", "back to the editor (nothing settled)"),
    ]

    /// Keys on the conflict screen.
    mutating func conflictKey(_ key: Key, conflicts: inout ConflictScreenState, editor: EditorState, effects: inout [AppEffect]) {
        conflicts.message = nil
        let last = max(0, conflicts.keys.count - 1)
        switch Self.conflictKeys.action(for: key) {
        case .up?: conflicts.selection = max(0, conflicts.selection - 1)
        case .down?: conflicts.selection = min(last, conflicts.selection + 1)
        case .mine?: conflicts.choose(.mine)
        case .theirs?: conflicts.choose(.theirs)
        case .both?: conflicts.choose(.both)
        case .allMine?: for item in conflicts.keys { conflicts.choices[item] = .mine }
        case .allTheirs?: for item in conflicts.keys { conflicts.choices[item] = .theirs }
        case .settle?: settle(&conflicts, effects: &effects)
        case .back?: screen = .editor(editor)
        case nil: break
        }
    }

    /// ⏎: settles the conflict when every item has a choice; otherwise says which have none and selects the first.
    private mutating func settle(_ conflicts: inout ConflictScreenState, effects: inout [AppEffect]) {
        guard !conflicts.loading, let current = conflicts.current else { return }
        let missing = conflicts.unchosen
        if let first = missing.first {
            conflicts.selection = conflicts.keys.firstIndex(of: first) ?? conflicts.selection
            let count = missing.count == 1 ? "1 item has" : "\(missing.count) items have"
            conflicts.message = .failure("\(count) no choice yet: m, t or b on each (M or T for all)")
            return
        }
        let choices = conflicts.choices.filter { conflicts.keys.contains($0.key) }
        if let busy = beginSharing(.settle(ref: current.ref, choices: choices), label: "settle", cancellable: false, effects: &effects) {
            conflicts.message = .failure(busy)
        }
    }

    /// Asks for the conflict screen's preview when the choices or the width changed (`width` is the terminal's).
    package mutating func followConflictPreview(columns: Int, rows: Int) -> AppEffect? {
        var effect: AppEffect?
        let width = Screens.conflictLayout(width: columns, height: rows).previewWidth
        updateConflicts { effect = $0.followPreview(width: width) }
        return effect
    }
}
