@testable import FolioLaunch
import FolioTerminal
import XCTest

/// Shared set-up for the state tests: pressing keys as the run loop does, and an app showing a given editor.
extension AppState {
    /// The state after `keys`, each handled in turn as the run loop does, and every effect they asked for, in order.
    func pressing(_ keys: [Key], scene: LaunchScene = .defaultScene) -> (AppState, [AppEffect]) {
        var state = self
        var effects: [AppEffect] = []
        for key in keys {
            let (next, produced) = state.handling(key, scene: scene)
            state = next
            effects += produced
        }
        return (state, effects)
    }

    /// A new app state showing `editor`, its items laid out as `items` and its cursor on `cursor`.
    static func showing(_ editor: EditorState, items: ItemLayout? = nil, cursor: Int = 0) -> AppState {
        var editor = editor
        editor.items = items
        editor.cursor = cursor
        var state = AppState()
        state.screen = .editor(editor)
        return state
    }
}

extension HistoryState {
    /// An empty history browser whose view is `width` columns by `height` rows.
    init(viewWidth width: Int, viewHeight height: Int) {
        self.init()
        viewWidth = width
        viewHeight = height
    }
}

extension AppState {
    /// A new app state showing `history`, the browser of `editor`'s document.
    static func showing(_ history: HistoryState, of editor: EditorState) -> AppState {
        var state = AppState()
        state.screen = .history(history, editor)
        return state
    }
}

extension XCTestCase {
    /// The history browser `state` shows; an empty one, and a failure, when it shows another screen.
    func history(_ state: AppState) -> HistoryState {
        guard case let .history(history, _) = state.screen else { XCTFail("expected the history browser"); return HistoryState() }
        return history
    }

    /// The form `state` shows; nil, and a failure, when it shows another screen.
    func form(_ state: AppState, file: StaticString = #filePath, line: UInt = #line) -> FormState? {
        guard case let .form(form) = state.screen else { XCTFail("expected the form, got \(state.screen)", file: file, line: line); return nil }
        return form
    }
}
