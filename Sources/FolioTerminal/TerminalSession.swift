#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Something that happened at the terminal.
public enum TerminalEvent: Hashable, Sendable {
    case key(Key)
    /// The window changed size (columns, rows).
    case resize(width: Int, height: Int)
    /// The process was resumed after a stop: redraw everything.
    case redraw
}

/// A failure setting up the terminal.
public struct TerminalError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }

    /// Standard input and output are not a terminal, and a terminal is needed.
    public static let needsTerminal = TerminalError("a terminal is needed (stdin and stdout must be a TTY)")
}

// State shared with signal handlers: only plain values, touched with async-signal-safe calls.
/// The terminal's modes before the session, and the session's raw modes.
/// `nonisolated(unsafe)` is safe: both are written only in `begin` before the handlers that read them are installed
/// (`sigaction` orders the writes before any handler runs) and not written again while a session runs; a handler may
/// not take a lock, and a `termios` is too large for an `Atomic`, so a `Mutex` is not an option.
nonisolated(unsafe) private var savedTermios = termios()
nonisolated(unsafe) private var rawTermios = termios()
/// 1 while a session has the terminal in raw mode on the alternate screen; read by the signal handlers.
private let sessionActive = Atomic<Int32>(0)
/// The self-pipe a handler writes to wake `nextEvents` (-1 when there is no session).
private let wakeReadFD = Atomic<Int32>(-1)
private let wakeWriteFD = Atomic<Int32>(-1)
/// Set by the handlers (lock-free atomics are async-signal-safe), taken by `nextEvents`.
private let resizePending = Atomic<Bool>(false)
private let redrawPending = Atomic<Bool>(false)

/// The alternate screen, the hidden cursor, a cleared screen and bracketed paste (a paste arrives as one event).
private let enterSequence = Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J\u{1B}[?2004h".utf8)
/// Undoes everything Folio turns on: attributes, synchronized output (a frame cut short), bracketed paste, the hidden
/// cursor, the alternate screen. Folio enables no mouse reporting, so there is nothing more to undo.
private let leaveSequence = Array("\u{1B}[0m\u{1B}[?2026l\u{1B}[?2004l\u{1B}[?25h\u{1B}[?1049l".utf8)
/// The same after a crash, first cancelling (CAN) an escape sequence the dying process may have cut in half.
private let crashLeaveSequence = [0x18] + leaveSequence

private func writeAll(_ bytes: [UInt8], to fd: Int32 = STDOUT_FILENO) {
    // Async-signal-safe: the arrays are built before any handler can run, and this only reads them.
    bytes.withUnsafeBytes { buffer in
        guard var base = buffer.baseAddress else { return }
        var remaining = buffer.count
        while remaining > 0 {
            let written = write(fd, base, remaining)
            if written < 0 { if errno == EINTR { continue } else { return } }
            remaining -= written
            base = base.advanced(by: written)
        }
    }
}

/// Puts the terminal back as it was. Async-signal-safe: write(2) and tcsetattr(3) only.
private func restoreTerminal() {
    guard sessionActive.load(ordering: .acquiring) == 1 else { return }
    writeAll(leaveSequence)
    _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &savedTermios)
}

/// Initializes the globals the crash handler reads (Swift globals are initialized lazily, on first use, which must
/// not happen inside a signal handler).
func prepareTerminalRestoreForSignals() {
    _ = sessionActive.load(ordering: .relaxed)
    _ = crashLeaveSequence.count
    _ = withUnsafePointer(to: &savedTermios) { $0.pointee.c_lflag }
}

/// Puts the terminal back for a dying process, once; returns whether there was a session to restore.
/// Async-signal-safe. TCSANOW rather than TCSAFLUSH: a crash must not wait for output to drain.
func restoreTerminalAfterCrash() -> Bool {
    guard sessionActive.exchange(0, ordering: .acquiringAndReleasing) == 1 else { return false }
    // Another thread may be drawing a frame: from here on its writes to standard output go to /dev/null, so no rest
    // of a frame lands on the restored screen (a write already in the terminal's lock finishes before ours starts).
    // open, dup and dup2 are async-signal-safe.
    let terminal = dup(STDOUT_FILENO)
    let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
    if terminal >= 0, null >= 0 { _ = dup2(null, STDOUT_FILENO) }
    if null >= 0 { _ = close(null) }
    writeAll(crashLeaveSequence, to: terminal >= 0 ? terminal : STDOUT_FILENO)
    _ = tcsetattr(STDIN_FILENO, TCSANOW, &savedTermios)
    return true
}

/// Re-enters raw mode and the alternate screen (after a resume).
private func reenterTerminal() {
    guard sessionActive.load(ordering: .acquiring) == 1 else { return }
    _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &rawTermios)
    writeAll(enterSequence)
}

private func wake() {
    var byte: UInt8 = 1
    let fd = wakeWriteFD.load(ordering: .acquiring)
    if fd >= 0 { _ = write(fd, &byte, 1) }
}

private func install(_ signalNumber: Int32, _ handler: @convention(c) (Int32) -> Void) {
    setSignalAction(signalNumber, .plain(handler))
}


private func unblock(_ signalNumber: Int32) {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, signalNumber)
    _ = sigprocmask(SIG_UNBLOCK, &set, nil)
}

/// SIGINT, SIGTERM, SIGHUP, SIGQUIT: restore the terminal, then die of the same signal with its default action.
private let fatalHandler: @convention(c) (Int32) -> Void = { signalNumber in
    restoreTerminal()
    sessionActive.store(0, ordering: .releasing)
    setDefaultAction(signalNumber)
    unblock(signalNumber)
    _ = raise(signalNumber)
}

/// SIGTSTP: restore the terminal, stop; when continued, re-enter raw mode and ask for a redraw.
private let stopHandler: @convention(c) (Int32) -> Void = { _ in
    let errnoSaved = errno
    restoreTerminal()
    setDefaultAction(SIGTSTP)
    unblock(SIGTSTP)
    _ = raise(SIGTSTP)
    // Execution resumes here after SIGCONT.
    install(SIGTSTP, stopHandlerRef)
    reenterTerminal()
    redrawPending.store(true, ordering: .releasing)
    wake()
    errno = errnoSaved
}
/// `stopHandler` itself, for its own re-installation (a `let` cannot name itself in its initializer).
/// `nonisolated(unsafe)` is safe: it is written once, by its initializer, and only read afterwards.
nonisolated(unsafe) private var stopHandlerRef: @convention(c) (Int32) -> Void = stopHandler

/// SIGCONT (also after an external SIGSTOP): re-enter raw mode and redraw.
private let continueHandler: @convention(c) (Int32) -> Void = { _ in
    let errnoSaved = errno
    reenterTerminal()
    redrawPending.store(true, ordering: .releasing)
    wake()
    errno = errnoSaved
}

private let resizeHandler: @convention(c) (Int32) -> Void = { _ in
    let errnoSaved = errno
    resizePending.store(true, ordering: .releasing)
    wake()
    errno = errnoSaved
}

/// A full-screen terminal session: raw mode, alternate screen, hidden cursor, and the terminal restored on every
/// exit path (return, thrown error, SIGINT/SIGTERM/SIGHUP/SIGQUIT, and around SIGTSTP/SIGCONT).
///
/// `@unchecked Sendable` is safe: its mutable state (the key decoder, events handed back, the time of the last input)
/// is used only by the one body `run` or `withSession` gives it to, one call at a time; it is Sendable so that an
/// async body may hold it across suspension points. The state signal handlers share lives outside, in atomics.
public final class TerminalSession: @unchecked Sendable {
    private var decoder = KeyDecoder()
    private var queued: [TerminalEvent] = []
    /// When input last arrived: a paste whose end marker does not come within `pasteQuietLimit` of it is ended.
    private var lastInput = ContinuousClock.now
    /// How long a paste may go without bytes before it is taken as ended (its end marker lost).
    static let pasteQuietLimit: Duration = .seconds(1)

    private init() {}

    /// Runs `body` in a session; the terminal is restored however `body` ends. Fails when stdin is not a terminal.
    public static func run<T>(_ body: (TerminalSession) async throws -> T) async throws -> T {
        let session = try TerminalSession.begin()
        defer { session.end() }
        return try await body(session)
    }

    /// `run` for a synchronous program: one session around all of `body`, however many screens it shows. The
    /// whole interactive program runs in one, so the terminal stays in raw mode on the alternate screen between
    /// screens: a key typed while the next screen opens waits in the session for it (never echoed, never a signal).
    public static func withSession<T>(_ body: (TerminalSession) throws -> T) throws -> T {
        let session = try TerminalSession.begin()
        defer { session.end() }
        return try body(session)
    }

    /// Hands `events` (read but not acted on by a screen that has closed) to the next `nextEvents`, before anything
    /// read after them: keys typed while one screen gives way to the next are kept, in order.
    public func unread(_ events: [TerminalEvent]) {
        queued = events + queued
    }

    private static func begin() throws -> TerminalSession {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw TerminalError.needsTerminal
        }
        guard sessionActive.load(ordering: .acquiring) == 0 else { throw TerminalError("a terminal session is already running") }
        guard tcgetattr(STDIN_FILENO, &savedTermios) == 0 else {
            throw TerminalError("cannot read the terminal settings: \(String(cString: strerror(errno)))")
        }
        var raw = savedTermios
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        rawTermios = raw
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw TerminalError("cannot create a pipe: \(String(cString: strerror(errno)))") }
        wakeReadFD.store(fds[0], ordering: .releasing)
        wakeWriteFD.store(fds[1], ordering: .releasing)
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        // Marked active first, so that a crash from here on restores the saved settings.
        sessionActive.store(1, ordering: .releasing)
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &rawTermios) == 0 else {
            sessionActive.store(0, ordering: .releasing)
            throw TerminalError("cannot enter raw mode: \(String(cString: strerror(errno)))")
        }
        writeAll(enterSequence)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { install(signalNumber, fatalHandler) }
        install(SIGTSTP, stopHandler)
        install(SIGCONT, continueHandler)
        install(SIGWINCH, resizeHandler)
        atexit { restoreTerminal(); sessionActive.store(0, ordering: .releasing) }
        return TerminalSession()
    }

    private func end() {
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGCONT, SIGWINCH] { setDefaultAction(signalNumber) }
        restoreTerminal()
        sessionActive.store(0, ordering: .releasing)
        let readFD = wakeReadFD.exchange(-1, ordering: .acquiringAndReleasing)
        if readFD >= 0 { close(readFD) }
        let writeFD = wakeWriteFD.exchange(-1, ordering: .acquiringAndReleasing)
        if writeFD >= 0 { close(writeFD) }
    }

    /// Gives the terminal back while `body` runs another full-screen program (the user's editor): the saved
    /// settings, the main screen, the cursor; then raw mode and the alternate screen again, and the next events
    /// start with `.redraw` and the size (which may have changed meanwhile).
    public func suspended<T>(_ body: () throws -> T) rethrows -> T {
        restoreTerminal()
        sessionActive.store(0, ordering: .releasing)
        defer {
            sessionActive.store(1, ordering: .releasing)
            reenterTerminal()
            decoder = KeyDecoder()
            let (width, height) = Self.currentSize()
            queued += [.redraw, .resize(width: width, height: height)]
        }
        return try body()
    }

    /// The terminal size in columns and rows (80×24 when it cannot be read).
    public var size: (width: Int, height: Int) { Self.currentSize() }

    /// The size of the terminal on stdout, when it is one.
    public static func currentSize() -> (width: Int, height: Int) {
        var ws = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 {
            return (Int(ws.ws_col), Int(ws.ws_row))
        }
        return (80, 24)
    }

    /// Writes text (escape sequences included) to the terminal. Nothing is written while the session has given the
    /// terminal back (after `end`, inside `suspended`): a frame never lands on the shell's screen.
    public func write(_ text: String) {
        guard !text.isEmpty, sessionActive.load(ordering: .acquiring) == 1 else { return }
        writeAll(Array(text.utf8))
    }

    /// Waits up to `timeoutMilliseconds` for input or a signal and returns what happened (possibly nothing).
    public func nextEvents(timeoutMilliseconds: Int32) -> [TerminalEvent] {
        if !queued.isEmpty { defer { queued.removeAll() }; return queued }
        FatalSignals.coverCurrentThread()
        var events: [TerminalEvent] = []
        var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeReadFD.load(ordering: .acquiring), events: Int16(POLLIN), revents: 0)]
        let timeout = decoder.hasPending ? min(timeoutMilliseconds, KeyDecoder.escapeTimeoutMilliseconds)
            : decoder.isPasting ? min(timeoutMilliseconds, 250) : timeoutMilliseconds
        let ready = poll(&fds, 2, timeout)
        if ready > 0, fds[1].revents != 0 {
            var drain = [UInt8](repeating: 0, count: 64)
            while read(fds[1].fd, &drain, drain.count) > 0 {}
        }
        if redrawPending.exchange(false, ordering: .acquiringAndReleasing) { events.append(.redraw) }
        if resizePending.exchange(false, ordering: .acquiringAndReleasing) {
            let (w, h) = Self.currentSize()
            events.append(.resize(width: w, height: h))
        }
        if ready > 0, fds[0].revents & Int16(POLLIN) != 0 {
            var buffer = [UInt8](repeating: 0, count: 1024)
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count > 0 { lastInput = .now; events += decoder.feed(Array(buffer[0..<count])).map(TerminalEvent.key) }
        } else if ready == 0, decoder.hasPending {
            events += decoder.flush().map(TerminalEvent.key)
        } else if ready == 0, decoder.isPasting, ContinuousClock.now - lastInput > Self.pasteQuietLimit {
            events += decoder.abandonPaste().map(TerminalEvent.key)
        }
        return events
    }
}
