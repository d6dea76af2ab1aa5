import Foundation
import FolioCore
import Synchronization
@testable import FolioLaunch
@testable import FolioTerminal

/// An in-memory `DocumentSharing` that records what the editor host asks of it. `perform` can block until it is
/// cancelled (the Esc tests) after reporting a progress line.
final class FakeSharing: DocumentSharing {
    struct Failure: Error, CustomStringConvertible { var description: String }
    struct Calls {
        var state = SharingState.notShared
        var remotes: [SharingRemote] = []
        var interval: Int?
        var conflicts: [SharingConflict] = []
        var performed: [SharingAction] = []
        var settled: [(ref: String, choices: [String: ItemChoice])] = []
        var previews: [ConflictPreviewSubject] = []
        /// Block `perform` (after its progress line) until `isCancelled` says true.
        var blocks = false
        var progress = "3/10 objects, 1 KiB"
        /// Each foreground interval given (`setForeground`), in order.
        var foreground: [Int?] = []
    }
    let calls: Mutex<Calls>
    init(_ calls: Calls = Calls()) { self.calls = Mutex(calls) }

    func state() -> SharingState { calls.withLock { $0.state } }
    func remotes() -> [SharingRemote] { calls.withLock { $0.remotes } }
    func syncInterval() -> Int? { calls.withLock { $0.interval } }
    func setForeground(_ longest: Int?) { calls.withLock { $0.foreground.append(longest) } }

    func perform(_ action: SharingAction, progress: @escaping @Sendable (String) -> Void, isCancelled: @escaping @Sendable () -> Bool) throws -> String {
        let (blocks, line) = calls.withLock { calls in calls.performed.append(action); return (calls.blocks, calls.progress) }
        progress(line)
        if blocks {
            let deadline = Date().addingTimeInterval(10)
            while !isCancelled() {
                if Date() > deadline { throw Failure(description: "never cancelled") }
                Thread.sleep(forTimeInterval: 0.01)
            }
            throw Failure(description: "sync cancelled: nothing was sent")
        }
        return "synced with origin: sent 2 versions"
    }

    func conflicts() throws -> [SharingConflict] { calls.withLock { $0.conflicts } }

    func preview(ref: String, choices: [String: ItemChoice], width: Int) throws -> [String] {
        calls.withLock { $0.previews.append(ConflictPreviewSubject(ref: ref, choices: choices, width: width)) }
        return choices.sorted { $0.key < $1.key }.map { "item \($0.key): \($0.value.rawValue)" }
    }

    func settle(ref: String, choices: [String: ItemChoice]) throws -> String {
        calls.withLock { $0.settled.append((ref, choices)) }
        return "settled \(ref.split(separator: "/").last ?? ""): 1 merge commit"
    }
}

enum SharingFixtures {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static let checklistConflict = SharingConflict(ref: "refs/folio/conflicts/1", summary: "Ben: checked Milk, renamed Eggs", items: [
        ItemConflict(key: "2", base: "[ ] Milk", mine: "[ ] Oat milk", theirs: "[x] Milk",
                     mineChange: "renamed 'Milk' to 'Oat milk'", theirsChange: "checked 'Milk'"),
        ItemConflict(key: "4", base: "[ ] Eggs", mine: nil, theirs: "[ ] Free-range eggs",
                     mineChange: "deleted 'Eggs'", theirsChange: "renamed 'Eggs' to 'Free-range eggs'"),
    ])

    static let wholeFileConflict = SharingConflict(ref: "refs/folio/conflicts/2", summary: "Ben: edited notes.txt", items: [])

    /// An editor on a checklist whose session offers sharing in `state`.
    static func editor(_ state: SharingState?) -> EditorState {
        var editor = EditorState(path: "lists/groceries", title: "Groceries", contentType: "org.folio.checklist",
                                 commitID: "4f2a9c81d3e0b7aa", commitMessage: "checked 'Bread'", commands: FakeEditor().commands())
        editor.sharing = state
        return editor
    }

    static func app(_ state: SharingState?) -> AppState {
        var app = AppState()
        app.screen = .editor(editor(state))
        return app
    }

    static let synced = SharingState(phase: .synced, remote: "origin", lastSynced: now.addingTimeInterval(-5), continuous: true)
    static let conflicted = SharingState(phase: .conflict, remote: "origin", ahead: 1, behind: 1, conflicts: ["refs/folio/conflicts/1"], continuous: true)
}

extension AppState {
    /// The state after `keys`, with every effect they asked for.
    func pressing(_ keys: [Key]) -> (AppState, [AppEffect]) {
        keys.reduce((self, [AppEffect]())) { result, key in
            let (next, effects) = result.0.handling(key, scene: .defaultScene)
            return (next, result.1 + effects)
        }
    }

    var remotesScreen: RemoteSettingsState? { if case let .sharing(.remotes(remotes), _) = screen { return remotes } else { return nil } }
    var conflictScreen: ConflictScreenState? { if case let .sharing(.conflicts(conflicts), _) = screen { return conflicts } else { return nil } }
    var editorShown: EditorState? { if case let .editor(editor) = screen { return editor } else { return nil } }
}

func typing(_ text: String) -> [Key] { text.map(Key.character) }
