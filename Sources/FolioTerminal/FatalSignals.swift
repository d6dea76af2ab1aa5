#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CBacktrace
import FolioBasics
import Synchronization

/// What Folio does when its own process dies of a fatal signal (SIGSEGV, SIGBUS, SIGILL — a Swift trap on x86_64 —,
/// SIGFPE, SIGABRT, SIGTRAP): put the terminal back when a `TerminalSession` is active, write a crash report under
/// `$XDG_STATE_HOME/folio/crashes/`, print one line naming it, and die of the same signal with its default action so
/// the parent sees the signal. The restore bytes are precomputed (`crashLeaveSequence`) and turn bracketed paste off. The handlers replace the Swift runtime's backtracer, so it never holds the screen.
///
/// Everything the handler needs is prepared by `install()`; in the handler only async-signal-safe calls run
/// (write, open, mkdir, close, tcsetattr, clock_gettime, alarm, sigaction, pthread_sigmask, raise) — plus the
/// unwinder linked into the program (`folio_backtrace`, libgcc's `_Unwind_Backtrace`: what glibc's `backtrace` runs,
/// without loading libgcc_s.so.1) and glibc's `backtrace_symbols_fd`. `install()` runs one short unwind, so the
/// unwinder's one-time set-up is done before any signal.
/// Stack overflows are caught on threads with an alternate signal stack: the main thread and every thread that has
/// run the terminal session's event loop. Another thread whose stack overflows dies of SIGSEGV without the handler
/// (signal stacks are per thread), so the terminal is left as it is in that one case.
public enum FatalSignals {
    /// The signals handled: the ones that mean a bug in this process.
    public static let handled: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

    /// Installs the handlers (once; later calls do nothing). Call it first thing in `main`.
    public static func install() {
        guard installState.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged else { return }
        // SIGQUIT (^\ outside the full-screen UI) is the runtime backtracer's too: its plain default, a core dump.
        setDefaultAction(SIGQUIT)
        crashPlan = CrashPlan.prepare(arguments: processArguments(), directory: crashDirectory())
        warmUp()
        alternateStackKey = makeAlternateStackKey()
        installAlternateStack()
        for signalNumber in handled { installCrashHandler(signalNumber) }
        installState.store(2, ordering: .releasing)
    }

    /// Puts the default actions back (a helper process whose crash its parent reports, such as a plugin host, wants
    /// to die of the signal plainly: no report, no line). The Swift runtime's backtracer stays off.
    public static func restoreDefaultActions() {
        for signalNumber in handled { setDefaultAction(signalNumber) }
    }

    /// The folder crash reports go to: `$XDG_STATE_HOME/folio/crashes`, by default `~/.local/state/folio/crashes`.
    public static func crashDirectory() -> String? {
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") { return state + "/folio/crashes" }
        if let home = environment("HOME"), home.hasPrefix("/") { return home + "/.local/state/folio/crashes" }
        return nil
    }

    /// The process's arguments as `CommandLine.arguments` gives them (invalid UTF-8 repaired), read from argv by a
    /// plain loop: `CommandLine.arguments` builds itself with a generic map whose first use cost more than the rest
    /// of `install()`, and nothing else in `folio` reads it.
    private static func processArguments() -> [String] {
        var words: [String] = []
        for index in 0..<Int(max(Swift.CommandLine.argc, 0)) {
            guard let pointer = Swift.CommandLine.unsafeArgv[index] else { continue }
            words.append(String(cString: pointer))
        }
        return words
    }

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// Does what the handler would otherwise do first: the unwinder's one-time set-up (a two-frame unwind, on the
    /// linked-in unwinder: no library is loaded) and touching the globals.
    private static func warmUp() {
        guard let plan = crashPlan else { return }
        _ = folio_backtrace(plan.frames, min(2, plan.frameCapacity))
        prepareTerminalRestoreForSignals()
        _ = handlingThread.load(ordering: .relaxed)
    }

    /// Gives the calling thread an alternate signal stack if it has none, so that its stack overflowing reaches the
    /// handler too. The terminal session calls it from its event loop, which runs on pool threads.
    static func coverCurrentThread() {
        guard installState.load(ordering: .acquiring) == 2 else { return }
        var current = stack_t()
        guard sigaltstack(nil, &current) == 0, current.ss_flags & Int32(SS_DISABLE) != 0 else { return }
        installAlternateStack()
    }

    /// 64 KiB of signal stack for the calling thread, freed when the thread ends.
    private static func installAlternateStack() {
        let size = 64 * 1024
        guard let memory = malloc(size) else { return }
        var stack = stack_t()
        stack.ss_sp = memory
        stack.ss_size = size
        stack.ss_flags = 0
        guard sigaltstack(&stack, nil) == 0 else { free(memory); return }
        if let key = alternateStackKey { _ = pthread_setspecific(key, memory) }
    }

    private static func installCrashHandler(_ signalNumber: Int32) {
        // Keep the other crash signals out while the report is written; a second fault of the same kind in the
        // handler gets the default action (SA_RESETHAND) instead of a loop.
        setSignalAction(signalNumber, .withInfo(crashHandler), blocking: handled,
                        flags: SA_ONSTACK | Int32(truncatingIfNeeded: SA_RESETHAND))
    }
}

/// A thread-specific key whose destructor switches the ending thread's signal stack off and frees it.
private func makeAlternateStackKey() -> pthread_key_t? {
    var key = pthread_key_t()
    let made = pthread_key_create(&key) { memory in
        var off = stack_t()
        off.ss_flags = Int32(SS_DISABLE)
        _ = sigaltstack(&off, nil)
        free(memory)
    }
    return made == 0 ? key : nil
}

// MARK: - State prepared before any signal

/// Written once by `FatalSignals.install()`, before `installState` reads 2 to other threads.
/// `nonisolated(unsafe)` is safe: the single write happens-before every read (the atomic store of `installState`
/// publishes it), and a signal handler may not take a lock, so a `Mutex` is not an option.
nonisolated(unsafe) private var alternateStackKey: pthread_key_t?

/// 0 before `install()`, 1 while it runs, 2 once the handlers are in place.
private let installState = Atomic<Int32>(0)
/// The thread handling a crash (`pthread_self` as a number), 0 while none is.
private let handlingThread = Atomic<UInt>(0)

/// Written once by `FatalSignals.install()` before the handlers exist, only read by them afterwards.
/// `nonisolated(unsafe)` is safe: the write precedes `sigaction`, which orders it before any handler runs, and an
/// async-signal-safe handler cannot take a lock to read it through a `Mutex`.
nonisolated(unsafe) private var crashPlan: CrashPlan?

/// Buffers and functions the handler uses, all allocated up front (never freed: they live as long as the process).
private struct CrashPlan {
    typealias BacktraceSymbolsFD = @convention(c) (UnsafePointer<UnsafeMutableRawPointer?>?, Int32, Int32) -> Void

    /// NUL-terminated folder path, or nil when there is no place for reports.
    let directory: UnsafeMutablePointer<UInt8>?
    let directoryLength: Int
    /// Scratch for the report file's path: the folder, `/crash-…txt`, NUL.
    let path: UnsafeMutablePointer<UInt8>
    let pathCapacity: Int
    /// The `command: …` line (the arguments, shell-quoted).
    let commandLine: UnsafeMutablePointer<UInt8>
    let commandLineLength: Int
    /// Scratch for formatting report lines.
    let text: UnsafeMutablePointer<UInt8>
    let textCapacity: Int
    let frames: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    let frameCapacity: Int32
    let backtraceSymbolsFD: BacktraceSymbolsFD?

    static func prepare(arguments: [String], directory: String?) -> CrashPlan {
        let folder = directory.map { Array($0.utf8) }
        let folderBuffer = folder.map { copy($0 + [0]) }
        let pathCapacity = (folder?.count ?? 0) + 96
        // Plain byte loops: `joined` and interpolation would do first-use runtime work at this point.
        var lines = Array("command:".utf8)
        for word in arguments {
            lines.append(UInt8(ascii: " "))
            appendShellQuoted(word, to: &lines)
        }
        lines.append(UInt8(ascii: "\n"))
        let frameCapacity = 128
        let frames = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: frameCapacity)
        frames.initialize(repeating: nil, count: frameCapacity)
        return CrashPlan(
            directory: folderBuffer, directoryLength: folder?.count ?? 0,
            path: zeroed(pathCapacity), pathCapacity: pathCapacity,
            commandLine: copy(lines), commandLineLength: lines.count,
            text: zeroed(512), textCapacity: 512,
            frames: frames, frameCapacity: Int32(frameCapacity),
            backtraceSymbolsFD: symbol("backtrace_symbols_fd", as: BacktraceSymbolsFD.self))
    }

    private static func copy(_ bytes: [UInt8]) -> UnsafeMutablePointer<UInt8> {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(bytes.count, 1))
        buffer.initialize(from: bytes, count: bytes.count)
        return buffer
    }

    private static func zeroed(_ count: Int) -> UnsafeMutablePointer<UInt8> {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
        buffer.initialize(repeating: 0, count: count)
        return buffer
    }

    /// glibc's execinfo function, looked up at run time (the Glibc module does not export execinfo.h).
    private static func symbol<F>(_ name: String, as type: F.Type) -> F? {
        guard let address = dlsym(nil, name) else { return nil }
        // Escape hatch: dlsym returns an untyped address; the C signature of these glibc functions is fixed.
        return unsafeBitCast(address, to: type)
    }

    /// The word as a shell reads it back: as is when plain, else in single quotes (a quote inside as `'\''`).
    private static func appendShellQuoted(_ word: String, to bytes: inout [UInt8]) {
        var plain = !word.isEmpty
        for byte in word.utf8 where !isPlain(byte) { plain = false }
        if plain { bytes.append(contentsOf: word.utf8); return }
        bytes.append(UInt8(ascii: "'"))
        for byte in word.utf8 {
            if byte == UInt8(ascii: "'") { bytes.append(contentsOf: [0x27, 0x5C, 0x27, 0x27]) } else { bytes.append(byte) }
        }
        bytes.append(UInt8(ascii: "'"))
    }

    private static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"): return true
        case UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "="), UInt8(ascii: ":"),
             UInt8(ascii: ","), UInt8(ascii: "+"), UInt8(ascii: "@"), UInt8(ascii: "%"): return true
        default: return false
        }
    }
}

// MARK: - The handler (async-signal-safe from here on)

private let crashHandler: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = { signalNumber, info, _ in
    let me = UInt(pthread_self())
    let owner = handlingThread.compareExchange(expected: 0, desired: me, ordering: .acquiringAndReleasing)
    if !owner.exchanged {
        // Another thread is writing the report and will end the process; a fault inside our own handler ends it now.
        if owner.original != me { sleepMilliseconds(3000) }
        dieWithDefaultAction(signalNumber)
    }
    // If a write blocks (a terminal that stopped reading), SIGALRM's default action ends the process all the same.
    _ = alarm(10)
    let restored = restoreTerminalAfterCrash()
    if let plan = crashPlan {
        var report = ReportFile(plan: plan)
        report.write(signalNumber: signalNumber, info: info, terminalRestored: restored)
        tellTheUser(plan: plan, signalNumber: signalNumber, terminalRestored: restored, report: report)
    }
    dieWithDefaultAction(signalNumber)
}

/// Puts back the default action of `signalNumber`. Async-signal-safe (also used by `TerminalSession`).
func setDefaultAction(_ signalNumber: Int32) {
    setSignalAction(signalNumber, .plain(SIG_DFL))
}

private func dieWithDefaultAction(_ signalNumber: Int32) -> Never {
    setDefaultAction(signalNumber)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, signalNumber)
    _ = pthread_sigmask(SIG_UNBLOCK, &set, nil)
    _ = raise(signalNumber)
    // A signal whose default action is to ignore it cannot reach here; SIGKILL as the last word all the same.
    _ = kill(getpid(), SIGKILL)
    _exit(128 + signalNumber)
}

private func sleepMilliseconds(_ milliseconds: Int) {
    var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}

/// `folio crashed (SIGSEGV); the terminal was restored; report: /path` on standard error.
private func tellTheUser(plan: CrashPlan, signalNumber: Int32, terminalRestored: Bool, report: ReportFile) {
    var line = SignalSafeText(plan.text, capacity: plan.textCapacity)
    line.put("folio crashed (")
    line.put(signalName(signalNumber))
    line.put(")")
    if terminalRestored { line.put("; the terminal was restored") }
    if report.written {
        line.put("; report: ")
        line.put(plan.path, report.pathLength)
    } else if let directory = plan.directory {
        line.put("; no report (cannot write in ")
        line.put(directory, plan.directoryLength)
        line.put(")")
    } else {
        line.put("; no report (neither XDG_STATE_HOME nor HOME is set)")
    }
    line.put("\n")
    line.write(to: STDERR_FILENO)
}

/// The crash report: a new file `crash-YYYYMMDD-HHMMSS-PID.txt` in the crashes folder (folders made as needed).
private struct ReportFile {
    let plan: CrashPlan
    private(set) var pathLength = 0
    private(set) var written = false

    init(plan: CrashPlan) { self.plan = plan }

    mutating func write(signalNumber: Int32, info: UnsafeMutablePointer<siginfo_t>?, terminalRestored: Bool) {
        var now = timespec()
        _ = clock_gettime(CLOCK_REALTIME, &now)
        let fd = create(at: now)
        guard fd >= 0 else { return }
        defer { _ = close(fd) }
        var text = SignalSafeText(plan.text, capacity: plan.textCapacity)
        text.put("folio crash report\nsignal: ")
        text.put(signalName(signalNumber))
        text.put(" (")
        text.put(decimal: Int(signalNumber))
        text.put(")\n")
        text.write(to: fd)
        writeCause(signalNumber: signalNumber, info: info, to: fd)
        text.put("pid: ")
        text.put(decimal: Int(getpid()))
        text.put("\ntime: ")
        text.putTimestamp(now)
        text.put("\n")
        text.write(to: fd)
        writeAll(fd, plan.commandLine, plan.commandLineLength)
        text.put(terminalRestored ? "terminal: restored (raw mode, the alternate screen and bracketed paste were on)\n" : "terminal: not in full-screen mode\n")
        text.put("backtrace (addresses inside each object; `swift demangle` reads the symbols):\n")
        text.write(to: fd)
        if let symbols = plan.backtraceSymbolsFD {
            let count = folio_backtrace(plan.frames, plan.frameCapacity)
            symbols(plan.frames, count, fd)
        } else {
            text.put("(backtrace() is not available)\n")
            text.write(to: fd)
        }
        written = true
    }

    /// Why the signal came: a fault at an address, or sent by a process.
    private func writeCause(signalNumber: Int32, info: UnsafeMutablePointer<siginfo_t>?, to fd: Int32) {
        guard let info else { return }
        var text = SignalSafeText(plan.text, capacity: plan.textCapacity)
        let code = info.pointee.si_code
        if code <= 0 {
            // SI_USER, SI_TKILL, SI_QUEUE…: sent, not a fault.
            text.put("cause: sent by process ")
            text.put(decimal: Int(info.pointee._sifields._kill.si_pid))
            text.put(" (si_code ")
            text.put(decimal: Int(code))
            text.put(")\n")
        } else if signalNumber == SIGSEGV || signalNumber == SIGBUS || signalNumber == SIGILL || signalNumber == SIGFPE || signalNumber == SIGTRAP {
            text.put("cause: fault at address 0x")
            text.put(hex: UInt(bitPattern: info.pointee._sifields._sigfault.si_addr))
            text.put(" (si_code ")
            text.put(decimal: Int(code))
            text.put(")\n")
        } else {
            text.put("cause: si_code ")
            text.put(decimal: Int(code))
            text.put("\n")
        }
        text.write(to: fd)
    }

    /// Makes the folders and creates the file; -1 when that is not possible.
    private mutating func create(at now: timespec) -> Int32 {
        guard let directory = plan.directory else { return -1 }
        makeDirectories(directory, length: plan.directoryLength)
        var name = SignalSafeText(plan.path, capacity: plan.pathCapacity - 1)
        name.put(directory, plan.directoryLength)
        name.put("/crash-")
        name.putCompactTimestamp(now)
        name.put("-")
        name.put(decimal: Int(getpid()))
        name.put(".txt")
        guard !name.truncated else { return -1 }
        plan.path[name.count] = 0
        pathLength = name.count
        return plan.path.withMemoryRebound(to: CChar.self, capacity: plan.pathCapacity) {
            open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        }
    }

    /// `mkdir -p` with mode 0700, one component at a time, in the path scratch buffer.
    private func makeDirectories(_ directory: UnsafeMutablePointer<UInt8>, length: Int) {
        guard length + 1 <= plan.pathCapacity else { return }
        plan.path.update(from: directory, count: length)
        plan.path[length] = 0
        plan.path.withMemoryRebound(to: CChar.self, capacity: plan.pathCapacity) { path in
            for index in 1..<max(length, 1) where plan.path[index] == UInt8(ascii: "/") {
                plan.path[index] = 0
                _ = mkdir(path, 0o700)
                plan.path[index] = UInt8(ascii: "/")
            }
            _ = mkdir(path, 0o700)
        }
    }
}

private func signalName(_ signalNumber: Int32) -> StaticString {
    switch signalNumber {
    case SIGSEGV: return "SIGSEGV"
    case SIGBUS: return "SIGBUS"
    case SIGILL: return "SIGILL"
    case SIGFPE: return "SIGFPE"
    case SIGABRT: return "SIGABRT"
    case SIGTRAP: return "SIGTRAP"
    default: return "signal"
    }
}

private func writeAll(_ fd: Int32, _ base: UnsafePointer<UInt8>, _ count: Int) {
    var offset = 0
    while offset < count {
        let written = write(fd, base + offset, count - offset)
        if written < 0 { if errno == EINTR { continue } else { return } }
        if written == 0 { return }
        offset += written
    }
}

/// Text built in a fixed buffer without allocating: static strings, decimals, hex, UTC timestamps.
struct SignalSafeText {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int
    private(set) var count = 0
    private(set) var truncated = false

    init(_ base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    mutating func put(_ byte: UInt8) {
        guard count < capacity else { truncated = true; return }
        base[count] = byte
        count += 1
    }

    mutating func put(_ bytes: UnsafePointer<UInt8>, _ length: Int) {
        for index in 0..<length { put(bytes[index]) }
    }

    mutating func put(_ text: StaticString) {
        // withUTF8Buffer also copes with a one-scalar literal, which has no pointer representation.
        text.withUTF8Buffer { buffer in
            for byte in buffer { put(byte) }
        }
    }

    /// A decimal number, zero-padded to `width` digits.
    mutating func put(decimal value: Int, width: Int = 1) {
        if value < 0 { put(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var length = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[length] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                length += 1
            } while magnitude > 0 && length < buffer.count
            while length < min(width, buffer.count) { buffer[length] = UInt8(ascii: "0"); length += 1 }
        }
        withUnsafeBytes(of: &digits) { buffer in
            for index in stride(from: length - 1, through: 0, by: -1) { put(buffer[index]) }
        }
    }

    mutating func put(hex value: UInt) {
        var shift = UInt.bitWidth - 4
        var started = false
        while shift >= 0 {
            let nibble = UInt8((value >> UInt(shift)) & 0xF)
            if nibble != 0 || started || shift == 0 {
                started = true
                put(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
            }
            shift -= 4
        }
    }

    /// `2026-11-30T23:10:05.123456789Z`.
    mutating func putTimestamp(_ time: timespec) {
        let civil = CivilTime(secondsSinceEpoch: Int(time.tv_sec))
        put(decimal: civil.year, width: 4); put(UInt8(ascii: "-"))
        put(decimal: civil.month, width: 2); put(UInt8(ascii: "-"))
        put(decimal: civil.day, width: 2); put(UInt8(ascii: "T"))
        put(decimal: civil.hour, width: 2); put(UInt8(ascii: ":"))
        put(decimal: civil.minute, width: 2); put(UInt8(ascii: ":"))
        put(decimal: civil.second, width: 2); put(UInt8(ascii: "."))
        put(decimal: Int(time.tv_nsec), width: 9); put(UInt8(ascii: "Z"))
    }

    /// `20261130-231005`.
    mutating func putCompactTimestamp(_ time: timespec) {
        let civil = CivilTime(secondsSinceEpoch: Int(time.tv_sec))
        put(decimal: civil.year, width: 4)
        put(decimal: civil.month, width: 2)
        put(decimal: civil.day, width: 2)
        put(UInt8(ascii: "-"))
        put(decimal: civil.hour, width: 2)
        put(decimal: civil.minute, width: 2)
        put(decimal: civil.second, width: 2)
    }

    /// Writes the text and starts over.
    mutating func write(to fd: Int32) {
        writeAll(fd, base, count)
        count = 0
        truncated = false
    }
}

/// A UTC date and time from seconds since 1970, by integer arithmetic only (gmtime is not async-signal-safe).
struct CivilTime: Equatable {
    let year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int

    init(secondsSinceEpoch seconds: Int) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        hour = secondOfDay / 3600
        minute = secondOfDay % 3600 / 60
        second = secondOfDay % 60
        (year, month, day) = FolioBasics.CivilTime.civil(days)
    }
}
