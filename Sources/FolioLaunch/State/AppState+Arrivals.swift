import FoundationEssentials
import Glibc

extension AppState {
    /// Takes a head the poll read (another window, another process, a collaborator's change merged by sync): a
    /// version that arrived on the version the window shows is a line in the message log (who, and what in the
    /// editor's words) and marks on the items it touched for `ArrivalMarks.duration`; an open history browser lists
    /// it (the list reloads, the selection kept). Returns the effects to run (the history's first page).
    package mutating func receivingSnapshot(_ snapshot: DocumentSnapshot) -> [AppEffect] {
        guard let shown = shownEditor, snapshot.commitID != shown.commitID else { applying(snapshot); return [] }
        if let arrival = snapshot.arrival, arrival.from == shown.commitID, arrival.to == snapshot.commitID {
            messageLog.append(.note(arrival.logLine), at: now)
            let marks = Self.marks(of: arrival, at: now)
            updateShownEditor { $0.arrivalMarks = marks }
        }
        applying(snapshot)
        return reloadingHistoryAfterArrival()
    }

    /// The editor the window shows and follows the document with (the editor host or the history browser over it).
    var shownEditor: EditorState? {
        switch screen {
        case let .editor(editor), let .history(_, editor): return editor
        default: return nil
        }
    }

    private mutating func updateShownEditor(_ change: (inout EditorState) -> Void) {
        switch screen {
        case var .editor(editor): change(&editor); screen = .editor(editor)
        case .history(let history, var editor): change(&editor); screen = .history(history, editor)
        default: break
        }
    }

    /// The marks an arrival leaves: its added, changed and moved items, until `duration` from `now`; nil when it
    /// touched no item the editor lists.
    static func marks(of arrival: DocumentArrival, at now: Date) -> ArrivalMarks? {
        guard let marks = arrival.marks, !marks.new.isEmpty else { return nil }
        return ArrivalMarks(items: marks.new, until: now.addingTimeInterval(ArrivalMarks.duration))
    }

    /// The history browser's list read again from the newest version, the selected version kept (the newest stays
    /// the newest); an item's history and a list still loading are left as they are.
    private mutating func reloadingHistoryAfterArrival() -> [AppEffect] {
        guard case let .history(history, editor) = screen, history.item == nil, !history.loading else { return [] }
        var fresh = history.reloaded()
        fresh.preview.shown = history.preview.shown
        fresh.focus = history.focus
        fresh.timeline.change = .arrived(keeping: history.selection == 0 ? nil : history.selectedID)
        screen = .history(fresh, editor)
        return [.loadHistoryPage(after: nil)]
    }
}
