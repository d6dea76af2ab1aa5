import FoundationEssentials
import Glibc
import Synchronization

extension LaunchApp {
    /// The number of the latest preview asked for: one superseded while it waits (or between its editor calls) is
    /// dropped.
    static let latestPreviewRequest = Mutex<UInt64>(0)

    /// Draws and compares two versions off the UI thread after the diff's short wait, unless a newer request came
    /// meanwhile; the work stops between editor calls once a newer one is asked for, and an answer that arrives after
    /// the selection moved on is dropped by the state.
    static func loadPreview(_ subject: HistoryPreview.Subject, document: any DocumentSession, mailbox: Mailbox) {
        let request = latestPreviewRequest.withLock { latest in latest &+= 1; return latest }
        guard let provider = document.history as? any HistoryPreviewProvider else {
            mailbox.post(.previewFailed(subject, "this document's versions cannot be drawn here"))
            return
        }
        let isStale: @Sendable () -> Bool = { latestPreviewRequest.withLock { $0 } != request }
        Task {
            try? await Task.sleep(for: diffDebounce)
            guard !isStale() else { return }
            do {
                let comparison = try await provider.comparison(from: subject.old, to: subject.new, width: subject.width, isStale: isStale)
                if !isStale() { mailbox.post(.preview(subject, comparison)) }
            } catch {
                if !isStale() { mailbox.post(.previewFailed(subject, oneLine(error))) }
            }
        }
    }
}

extension HistoryState {
    /// `effects` with only the last preview request kept (keys arriving together ask for one preview).
    package static func latestPreviewOnly(_ effects: [AppEffect]) -> [AppEffect] {
        func isPreview(_ effect: AppEffect) -> Bool { if case .loadPreview = effect { return true } else { return false } }
        guard let last = effects.lastIndex(where: isPreview) else { return effects }
        return effects.enumerated().filter { !isPreview($0.element) || $0.offset == last }.map(\.element)
    }
}

extension AppState {
    /// Asks for the preview again when the terminal's size changed its width (the editor draws at the pane's width).
    package mutating func followHistoryPreview() -> AppEffect? {
        var effect: AppEffect?
        guard case .history = screen else { return nil }
        updateHistory { effect = $0.followPreview() }
        return effect
    }
}
