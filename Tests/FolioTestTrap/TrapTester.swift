// A program that crashes on purpose, for the terminal-restore tests: installs Folio's fatal-signal handlers (unless
// `--no-handlers`), enters a full-screen terminal session, shows `TRAP READY`, and on the first key does what its
// argument says: `nil` force-unwraps nil, `index` reads past an array, `overflow` recurses until the stack runs
// out, `null` writes through a null pointer, `abort` calls abort().
import FolioTerminal
#if canImport(Glibc)
import Glibc
#endif

@inline(never)
func recurse(_ depth: Int) -> Int {
    var padding = (depth, depth, depth, depth, depth, depth, depth, depth)
    return withUnsafeMutableBytes(of: &padding) { Int($0[0]) } + recurse(depth + 1)
}

@inline(never)
func crash(_ mode: String) {
    let nothing: Int? = mode.count > 1000 ? 1 : nil
    let numbers = [1, 2, 3]
    switch mode {
    case "nil": print(nothing!)
    case "index": print(numbers[mode.count + 3])
    case "overflow": print(recurse(0))
    case "null": UnsafeMutablePointer<Int>(bitPattern: mode.count * 2)?.pointee = 1; print("no fault")
    case "abort": abort()
    default: print("unknown mode \(mode)")
    }
}

func runSession(mode: String) async throws {
    try await TerminalSession.run { session in
            session.write("TRAP READY (\(mode))")
            while true {
                let events = session.nextEvents(timeoutMilliseconds: 100)
                if events.contains(where: { if case .key = $0 { return true } else { return false } }) { crash(mode) }
            }
    }
}

@main
struct TrapTester {
    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if !arguments.contains("--no-handlers") { FatalSignals.install() }
        try await runSession(mode: arguments.first(where: { !$0.hasPrefix("--") }) ?? "nil")
    }
}
