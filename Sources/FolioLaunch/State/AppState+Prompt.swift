import FolioCore
import FoundationEssentials
import FolioBasics
import Glibc
import FolioTerminal

/// A question the state machine waits on: the same key again confirms, any other key takes it back.
package enum Confirmation: Equatable, Sendable {
    /// ^Q with typed text that would be lost (a prompt, a form, unsaved settings).
    case quit
    /// Esc on settings with unsaved changes.
    case discardSettings
    /// Esc on a form whose values were changed.
    case discardForm
    /// `x` on a recent document: `x` again removes it from the list (the document itself is untouched).
    case removeRecent(path: String)
    /// `r` on a version in the history: `r` again restores it as a new version.
    case restoreVersion(commitID: String, version: String, summary: String)
    /// ⏎ on a form whose destination resolves outside the current folder: `y` creates it there, any other key goes
    /// back to the form (and does nothing else).
    case createOutside(resolved: String)
    /// The held remote version that changes the content type (another plugin would open the document): `y` takes it.
    case acceptContentType(summary: String)

    /// Whether any other key only takes the question back (a y/n question), rather than also doing what it does.
    var otherKeysOnlyCancel: Bool {
        switch self {
        case .createOutside, .acceptContentType: true
        default: false
        }
    }

    /// The key that confirms.
    var key: Key {
        switch self {
        case .quit: .ctrl("q")
        case .discardSettings, .discardForm: .escape
        case .removeRecent: .character("x")
        case .restoreVersion: .character("r")
        case .createOutside, .acceptContentType: .character("y")
        }
    }

    /// The question as the status line asks it.
    var question: String {
        switch self {
        case .quit: "unsaved text will be lost: ^Q again quits, any other key stays"
        case .discardSettings: "unsaved settings: esc again discards them, ⏎ saves"
        case .discardForm: "esc again discards what you typed in this form"
        case let .removeRecent(path): "x again removes “\(PathText.lastComponent(path))” from the list (the document stays)"
        case let .restoreVersion(_, version, summary): "r again restores \(version) “\(summary)” as a new version (u undoes it) · any other key cancels"
        case let .createOutside(resolved): "y/n: create it outside the current folder? \(resolved)"
        case .acceptContentType: "y/n: take the remote version? It changes the content type: another plugin will open it"
        }
    }
}

extension EditorPrompt {
    /// A prompt with `text` ready to edit, the cursor at its end.
    package init(command: EditorCommand, values: [String?], names: [String], text: String, asking: Int, base: String? = nil,
                selection: ViewSelection? = nil) {
        self.init(command: command, values: values, names: names, input: TextField(text), asking: asking, base: base, selection: selection)
    }

    /// The answer typed so far (setting it puts the cursor at its end).
    package var text: String {
        get { input.text }
        set { input.set(newValue) }
    }
}

extension AppState {
    /// The prompt's text-editing keys (characters, ←/→, Home/End, ^A/^E, ^U, ^W, ^K, ⌫, Del); false for other keys.
    static func editPromptText(_ key: Key, editor: inout EditorState) -> Bool {
        guard var prompt = editor.prompt, prompt.argument(prompt.asking).choices.isEmpty else { return false }
        let before = prompt.input.text
        guard prompt.input.handle(key) else { return false }
        prompt.input.reveal(width: max(1, editor.promptFieldWidth))
        prompt.discardAsked = false
        if prompt.input.text != before { prompt.problems[prompt.asking] = nil }
        editor.prompt = prompt
        return true
    }
}

extension EditorState {
    /// The cells the prompt's answer has on the command bar (the label takes the rest); set from the terminal width.
    var promptFieldWidth: Int {
        guard let prompt else { return 0 }
        if prompt.isForm { return Screens.commandFormLayout(prompt, width: columns, height: max(viewRows + 3, 8)).valueWidth }
        return max(1, columns - DisplayWidth.width(of: Screens.promptLabel(prompt)))
    }
}
