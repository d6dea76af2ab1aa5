import Foundation

/// Where a command's time goes, for people measuring Folio: with `FOLIO_TRACE_PHASES=1` in the environment, each
/// `mark` writes one line to standard error, `phase <ms since the first mark> <label>` (wall clock, monotonic).
/// Off (the default) a mark costs one load of a flag. Used by `folio-bench` and by hand; nothing depends on it.
public enum PhaseTrace {
    private static let enabled = ProcessInfo.processInfo.environment["FOLIO_TRACE_PHASES"] == "1"
    private static let start = now()

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
    }

    /// Notes that `label` has just finished.
    public static func mark(_ label: @autoclosure () -> String) {
        guard enabled else { return }
        let line = "phase \(String(format: "%.2f", now() - start)) \(label())\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }
}
