import FoundationEssentials
import Glibc

/// Whether the run loop draws a frame this pass. Building a frame (the screen's cells, the diff) is most of what an
/// idle window costs, and the loop wakes every 80 ms to read keys and results; so an idle window draws only when
/// something it shows may have changed: the state (the animation tick aside), the size, a finished render, while
/// something animates (a call, a load, a sharing action), and once a second for the clocks ("synced 5 s ago").
struct FrameGate {
    private var last: (state: AppState, width: Int, height: Int, generation: UInt64?, at: Date)?
    /// The longest an idle window goes without a frame.
    static let idleRedraw: TimeInterval = 1
    /// How long an idle pass waits for a key (keys end the wait at once; results from the worker and the head poll
    /// are then seen within this).
    static let idleWaitMilliseconds: Int32 = 250

    /// True when a frame is due; the caller then draws it.
    mutating func needsFrame(_ state: AppState, width: Int, height: Int, renderGeneration: UInt64?, animating: Bool, now: Date) -> Bool {
        if !animating, let last, last.width == width, last.height == height, last.generation == renderGeneration,
           now.timeIntervalSince(last.at) < Self.idleRedraw, Self.sameApart(fromTick: state, last.state) {
            return false
        }
        last = (state, width, height, renderGeneration, now)
        return true
    }

    /// Whether two states draw the same, their animation tick and clock aside (a spinner only shows while
    /// `animating`; what the clock shows is redrawn once a second).
    private static func sameApart(fromTick a: AppState, _ b: AppState) -> Bool {
        var a = a
        a.tick = b.tick
        a.now = b.now
        return a == b
    }
}

extension LaunchApp {
    /// Whether something on screen moves on its own this pass: a plugin call or render under way, history loading, a
    /// command button's command, a template source loading, a sharing action (their spinners follow the tick).
    static func isAnimating(_ state: AppState, calls: EditorCalls?, background: BackgroundCommand?) -> Bool {
        calls?.isBusy == true || calls?.cache.isCurrent == false || state.historyIsLoading || background != nil
            || state.call != nil || state.sharingActivity != nil
            || state.templates.contains { if case .loading = $0.state { true } else { false } }
    }
}
