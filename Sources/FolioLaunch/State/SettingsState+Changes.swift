import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioTerminal

extension SettingsState {
    /// Whether a value differs from the one the screen opened with (or last saved): typing then clearing a field
    /// leaves nothing unsaved.
    package var edited: Bool {
        sync != savedSync || Field.allCases.contains { $0 != .sync && text($0) != (savedInputs[$0] ?? "") }
    }

    /// Takes the current values as the saved ones.
    mutating func markSaved() {
        savedSync = sync
        savedInputs = Dictionary(uniqueKeysWithValues: Field.allCases.filter { $0 != .sync }.map { ($0, text($0)) })
    }
}

/// The check of a template source being added in Settings: reachable, and a template repository.
package struct SourceCheck: Equatable, Sendable {
    package enum State: Equatable, Sendable {
        case checking
        /// What the source holds ("3 templates").
        case found(String)
        case failed(String)
    }
    /// The entry checked (`NAME URL [REF]`): a result for another entry is not shown.
    package var entry: String
    package var name: String
    package var url: String
    package var ref: String?
    package var state: State
    package init(entry: String, name: String, url: String, ref: String?, state: State = .checking) {
        self.entry = entry; self.name = name; self.url = url; self.ref = ref; self.state = state
    }
}

/// The colors the settings' `colors` can set: the slots of the screens' theme, and the color names.
package enum ColorSlots {
    /// The parts of the screens that have a color of their own (`Theme`'s slots), as `colors` names them.
    package static var names: [String] { Theme.slots.map(\.name) }
    /// The color names `TerminalColor(parsing:)` accepts (besides `#rrggbb`).
    package static var colorNames: [String] { ["default"] + TerminalColor.NamedColor.allCases.map(\.name) }
}

extension SourceCheck.State {
    /// The catalog could not check sources: nothing is shown, saving goes ahead.
    static let unchecked = SourceCheck.State.found("")
}

extension SettingsState {
    /// The check to start for the source being added (and now recorded as running), nil when the entry is empty, a
    /// removal, not well formed, or the one already checked.
    mutating func sourceCheckToStart() -> SourceCheck? {
        let entry = sourceEntry.trimming(.whitespaces)
        let words = entry.split(separator: " ").map(String.init)
        guard (2...3).contains(words.count), problem(.source) == nil, sourceCheck?.entry != entry else { return nil }
        let check = SourceCheck(entry: entry, name: words[0], url: words[1], ref: words.count == 3 ? words[2] : nil)
        sourceCheck = check
        return check
    }

    /// Whether saving waits for the source check, with the note saying why (nil: save).
    mutating func sourceCheckHoldingSave() -> String? {
        let entry = sourceEntry.trimming(.whitespaces)
        guard !entry.isEmpty, !entry.hasPrefix("-"), let check = sourceCheck, check.entry == entry else { return nil }
        switch check.state {
        case .checking: return "Not saved yet: checking the template source (⏎ again once it is found)"
        case .found: return nil
        case let .failed(why):
            problems[.source] = why
            focus = .source
            return "Not saved: the template source could not be used (fix it, or clear the field)"
        }
    }
}

extension AppState {
    /// Takes the result of a template source check into the settings screen, if it still shows that entry.
    package mutating func receiveSourceCheck(_ check: SourceCheck) {
        guard case var .settings(settings) = screen, settings.sourceCheck?.entry == check.entry else { return }
        settings.sourceCheck = check
        screen = .settings(settings)
    }
}
