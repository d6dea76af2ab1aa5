import FoundationEssentials
import FolioBasics
import Glibc
import Synchronization

/// Where a command's time goes, for people measuring Folio: with `FOLIO_TRACE_PHASES=1` in the environment, each
/// `mark` writes one line to standard error, `phase <ms since the first mark> <label>` (wall clock, monotonic).
/// When `FOLIO_TRACE_T0` holds the `CLOCK_MONOTONIC` time in milliseconds at which the measuring program started
/// `folio` (as `folio-bench` does), the first line also says how long the process took to reach `main`.
/// Off (the default) a mark costs one load of a flag. Used by `folio-bench` and by hand; nothing depends on it.
public enum PhaseTrace {
    // getenv, not ProcessInfo.environment: building the whole environment dictionary at every start costs (Benchmarks/README.md).
    private static let enabled = getenv("FOLIO_TRACE_PHASES").map { String(cString: $0) == "1" } ?? false
    private static let start = now()

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
    }

    /// Notes that `label` has just finished.
    public static func mark(_ label: @autoclosure () -> String) {
        guard enabled else { return }
        if !reportedLaunch.withLock({ done in defer { done = true }; return done }) {
            let launched = getenv("FOLIO_TRACE_T0").flatMap { Double(String(cString: $0)) }.map { start - $0 }
            if let launched, launched.isFinite, launched >= 0 { emit("phase \(format(-launched)) launched (before main)\n") }
        }
        emit("phase \(format(now() - start)) \(label())\n")
    }

    private static let reportedLaunch = Mutex(false)
    private static func format(_ milliseconds: Double) -> String { NumberText.fixed(milliseconds, digits: 2) }
    private static func emit(_ line: String) { _ = line.withCString { write(2, $0, strlen($0)) } }
}
