import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
import FolioTerminal

/// One meaning per key: `q` closes the views tig and lazygit users close with it, `,` opens Settings on the launcher
/// and in the editor alike (^E stays "end of the line" in text fields), and the conflict screen's own `M` is said
/// in its help.
final class OneMeaningPerKeyTests: XCTestCase {
    let scene = LaunchScene.defaultScene

    func editor() -> EditorState {
        EditorState(path: "/d/groceries", title: "Groceries", contentType: "org.folio.checklist", commitID: "c1", commands: NumberedEditor().commands())
    }

    func run(_ keys: [Key], from state: AppState) -> AppState {
        var state = state
        for key in keys { state = state.handling(key, scene: scene).0 }
        return state
    }

    func testGivenTheHistoryBrowserTheMessageLogAndAFileInTheFileViewWhenQIsPressedThenEachCloses() {
        // The history browser: q goes back to the editor (from its diff pane, to the list first)
        var history = AppState()
        history.screen = .history(HistoryState(), editor())
        guard case .editor = run([.character("q")], from: history).screen else { return XCTFail("q leaves History") }
        var diff = HistoryState()
        diff.focus = .diff
        history.screen = .history(diff, editor())
        guard case let .history(back, _) = run([.character("q")], from: history).screen else { return XCTFail("q leaves the diff first") }
        XCTAssertEqual(back.focus, .list)
        // The message log
        var log = AppState()
        log.screen = .editor(editor())
        log.openMessageLog()
        XCTAssertFalse(run([.character("q")], from: log).messageLogOpen)
        // A file shown in the file view: back to the tree
        var files = GenericViewStateTests.view()
        files.focus = .file
        var state = AppState()
        state.screen = .generic(files)
        guard case let .generic(tree) = run([.character("q")], from: state).screen else { return XCTFail("file view") }
        XCTAssertEqual(tree.focus, .tree)
        // And the help says q for History
        XCTAssertTrue(history.helpLines(scene: scene).contains { $0.keys == "esc q" })
    }

    func testGivenTheLauncherTheEditorAndTheFileViewWhenCommaIsPressedThenSettingsOpensAndCtrlEIsEndOfLineInAField() {
        // The launcher and the editor: the same key
        guard case .settings = run([.character(",")], from: AppState()).screen else { return XCTFail("launcher ,") }
        var open = AppState()
        open.screen = .editor(editor())
        guard case .settings = run([.character(",")], from: open).screen else { return XCTFail("editor ,") }
        XCTAssertEqual(EditorState.hostCommands.first { $0.id == "folio.settings" }?.shortcut, ",")
        // ^E no longer opens Settings from the editor (it is "end of the line" where text is typed)
        guard case .editor = run([.ctrl("e")], from: open).screen else { return XCTFail("^E left the editor") }
        // The file view: , opens Settings, but typed into its filter it is text
        var state = AppState()
        state.screen = .generic(GenericViewStateTests.view())
        guard case .settings = run([.character(",")], from: state).screen else { return XCTFail("file view ,") }
        guard case let .generic(filtering) = run([.character("/"), .character(",")], from: state).screen else { return XCTFail("filter") }
        XCTAssertEqual(filtering.filter, ",")
    }

    func testGivenTheConflictScreenThenItsHelpSaysMIsAllMineThereAndTheMessageLogElsewhere() {
        var state = AppState()
        state.screen = .sharing(.conflicts(ConflictScreenState()), editor())
        let lines = state.helpLines(scene: scene)
        XCTAssertTrue(lines.contains { $0.keys == "M" && $0.text.hasPrefix("mine for every item (only here: M is the message log elsewhere)") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.keys == "M" && $0.text.hasPrefix("this screen's own") }, "\(lines)")
        // And elsewhere M is the log
        var elsewhere = AppState()
        elsewhere.screen = .editor(editor())
        XCTAssertTrue(elsewhere.helpLines(scene: scene).contains { $0.keys == "M" && $0.text.hasPrefix("the last 100 messages") })
    }
}
