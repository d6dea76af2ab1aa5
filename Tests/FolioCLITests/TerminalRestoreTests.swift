import FolioCLI
@testable import FolioTerminal
import FolioCLITestSupport
import Foundation
import XCTest

/// A crash of Folio's own process puts the terminal back. Each test runs a program in a tmux pane as
/// `stty -g >before; PROGRAM; echo FOLIO-EXIT=$?; stty -g >after; sleep 30`, makes it die, and checks what a user
/// would see: the settings as before, the main screen, the cursor shown, one line naming the crash report, and
/// never the Swift runtime's "Press space to interact" prompt. Every wait is bounded; tearDown kills the tmux server.
final class TerminalRestoreTests: TmuxTestCase {
    override var session: String { "r" }
    override var defaultTimeout: TimeInterval { 20 }
    override var capturesJoinedLines: Bool { true }  // a long report path wraps

    var crashes: URL { dir.path("home/.local/state/folio/crashes") }
    var trapExecutable: URL { productsDirectory.appendingPathComponent("folio-test-trap") }

    // MARK: Tests

    func testGivenTheLauncherWhenKilledWithSIGSEGVThenTheTerminalIsRestoredAndTheReportNamed() throws {
        try assertCrashOfTheLauncherRestoresTheTerminal(signal: SIGSEGV, name: "SIGSEGV", status: 139)
    }

    func testGivenTheLauncherWhenKilledWithSIGABRTThenTheTerminalIsRestoredAndTheReportNamed() throws {
        try assertCrashOfTheLauncherRestoresTheTerminal(signal: SIGABRT, name: "SIGABRT", status: 134)
    }

    func testGivenTheLauncherWhenKilledWithSIGBUSSIGFPESIGILLOrSIGTRAPThenEachRestoresTheTerminal() throws {
        for (number, name) in [(SIGBUS, "SIGBUS"), (SIGFPE, "SIGFPE"), (SIGILL, "SIGILL"), (SIGTRAP, "SIGTRAP")] {
            try assertCrashOfTheLauncherRestoresTheTerminal(signal: number, name: name, status: 128 + number)
            try restartTmux()
        }
    }

    func testGivenAFullScreenSessionWhenSwiftTrapsThenTheTerminalIsRestoredWithoutTheBacktracerPrompt() throws {
        guard FileManager.default.isExecutableFile(atPath: trapExecutable.path) else { throw XCTSkip("folio-test-trap is not built") }
        // A force-unwrapped nil and an index out of range are Swift traps (ud2: SIGILL on x86_64); a runaway recursion
        // overflows the stack of a pool thread and is caught on that thread's signal stack.
        for (mode, name, number) in [("nil", "SIGILL", SIGILL), ("index", "SIGILL", SIGILL), ("overflow", "SIGSEGV", SIGSEGV)] {
            let pane = try startPane([trapExecutable.path, mode])
            waitFor(text: "TRAP READY (\(mode))")
            XCTAssertEqual(display("#{alternate_on}"), "1", "the program is on the alternate screen before it crashes")
            try keys("x")
            let screen = assertRestored(pane, status: 128 + number, mode)
            assertOneLineNamesTheReport(screen, signal: name, restored: true, number: number, commandWord: mode)
            try restartTmux()
        }
    }

    /// The check above can fail: without Folio's handlers the runtime's backtracer holds the alternate screen.
    func testGivenNoFolioHandlersWhenSwiftTrapsThenTheRuntimeBacktracerHoldsTheScreen() throws {
        guard FileManager.default.isExecutableFile(atPath: trapExecutable.path) else { throw XCTSkip("folio-test-trap is not built") }
        guard let backtracer = runtimeBacktracer(), FileManager.default.isExecutableFile(atPath: backtracer) else {
            throw XCTSkip("this toolchain has no swift-backtrace beside its runtime")
        }
        env["SWIFT_BACKTRACE"] = "enable=yes,interactive=yes"
        _ = try startPane([trapExecutable.path, "nil", "--no-handlers"])
        waitFor(text: "TRAP READY (nil)")
        try keys("x")
        waitFor(text: "Press space to interact", timeout: 20)
        XCTAssertEqual(display("#{alternate_on}"), "1", "the runtime's prompt holds the alternate screen")
        XCTAssertFalse(capture().contains("FOLIO-EXIT="))
    }

    func testGivenTheLauncherWhenSIGINTOrSIGHUPArrivesThenTheTerminalIsRestoredWithoutACrashReport() throws {
        for number in [SIGINT, SIGHUP] {
            let pane = try startPane([folioExecutable.path, "launch", "--scene", "restore"])
            waitFor(text: "Choose a Template")
            XCTAssertEqual(kill(try folioPID(named: "folio"), number), 0)
            let screen = assertRestored(pane, status: 128 + number, "signal \(number)")
            XCTAssertFalse(screen.contains("folio crashed"), screen)
            try restartTmux()
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: crashes.path), "an interrupt is not a crash")
    }

    /// Outside the full-screen UI a crash still leaves a report and one line, and the change being made is not half-done.
    func testGivenAWriteWaitingForStandardInputWhenKilledWithSIGSEGVThenOneLineNamesTheReportAndTheDocumentIsUnchanged() throws {
        let docs = dir.path("docs")
        try FileManager.default.createDirectory(at: docs, withIntermediateDirectories: true)
        XCTAssertEqual(runFolio(["new", "Ada's notes", "--type", "public.plain-text"], environment: env, cwd: docs).status, 0)
        let document = docs.appendingPathComponent("Ada's notes")
        let process = Process()
        process.executableURL = folioExecutable
        process.arguments = ["write", document.path, "notes.txt"]
        process.environment = env
        let input = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data("half a line".utf8))
        XCTAssertTrue(waitUntilReadingStandardInput(process.processIdentifier), "folio never blocked reading its input")
        XCTAssertEqual(kill(process.processIdentifier, SIGSEGV), 0)
        process.waitUntilExit()
        let stderr = readToEnd(errors.fileHandleForReading.fileDescriptor)
        XCTAssertEqual(process.terminationReason, .uncaughtSignal, stderr)
        XCTAssertEqual(process.terminationStatus, SIGSEGV)
        let lines = stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, stderr)
        XCTAssertTrue(stderr.hasPrefix("folio crashed (SIGSEGV); report: \(crashes.path)/crash-"), stderr)
        XCTAssertFalse(stderr.contains("terminal"), "no terminal session was active: \(stderr)")
        let report = try reportText(from: stderr)
        let quotedPath = "'" + document.path.replacingOccurrences(of: "'", with: "'\\''") + "'"
        XCTAssertTrue(report.contains("\ncommand: \(folioExecutable.path) write \(quotedPath) notes.txt\n"), "the command line as a shell reads it back:\n\(report)")
        XCTAssertTrue(report.contains("terminal: not in full-screen mode"), report)
        let log = runFolio(["log", document.path], environment: env, cwd: docs)
        XCTAssertEqual(log.stdout.split(separator: "\n").count, 1, "the interrupted write committed nothing:\n\(log.stdout)")
    }

    func testGivenSecondsSinceTheEpochWhenConvertedThenTheUTCDateIsTheCalendarOne() {
        XCTAssertEqual(civil(0), [1970, 1, 1, 0, 0, 0])
        XCTAssertEqual(civil(-1), [1969, 12, 31, 23, 59, 59])
        XCTAssertEqual(civil(951_868_799), [2000, 2, 29, 23, 59, 59])
        XCTAssertEqual(civil(4_107_587_696), [2100, 3, 1, 12, 34, 56])
        XCTAssertEqual(civil(1_796_080_205), [2026, 11, 30, 23, 10, 5])
    }

    func testGivenAFixedBufferWhenNumbersAndTimesArePutThenTheTextIsExactAndNeverOverruns() {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
        defer { buffer.deallocate() }
        var text = SignalSafeText(buffer, capacity: 64)
        text.put(decimal: -42); text.put(" "); text.put(decimal: 7, width: 3); text.put(" 0x"); text.put(hex: 0xdead_beef)
        text.put(" "); text.putTimestamp(timespec(tv_sec: 951_868_799, tv_nsec: 5))
        XCTAssertEqual(String(decoding: UnsafeBufferPointer(start: buffer, count: text.count), as: UTF8.self),
                       "-42 007 0xdeadbeef 2000-02-29T23:59:59.000000005Z")
        var small = SignalSafeText(buffer, capacity: 4)
        small.put(decimal: Int.max)
        XCTAssertEqual(small.count, 4)
        XCTAssertTrue(small.truncated)
    }

    // MARK: Helpers

    /// Starts the launcher, checks it took the terminal, kills it with `signal`, and checks the terminal is back.
    func assertCrashOfTheLauncherRestoresTheTerminal(signal number: Int32, name: String, status: Int32,
                                                     file: StaticString = #filePath, line: UInt = #line) throws {
        let pane = try startPane([folioExecutable.path, "launch", "--scene", "restore"])
        waitFor(text: "Choose a Template", file: file, line: line)
        XCTAssertEqual(display("#{alternate_on} #{cursor_flag}"), "1 0", "the launcher is full screen", file: file, line: line)
        XCTAssertNotEqual(try runProgram("stty", ["-g", "-F", pane.tty]).stdout, try String(contentsOf: pane.before, encoding: .utf8),
                          "the launcher has the terminal in raw mode", file: file, line: line)
        let pid = try folioPID(named: "folio")
        XCTAssertEqual(kill(pid, number), 0, file: file, line: line)
        let screen = assertRestored(pane, status: status, name, file: file, line: line)
        assertOneLineNamesTheReport(screen, signal: name, restored: true, number: number, commandWord: "launch",
                                    sentBy: getpid(), file: file, line: line)
        // Bracketed paste is off: a paste reaches the shell's terminal without markers (echoed, since `sleep` does
        // not read it; with the mode left on the echo would show "^[[200~").
        let clip = dir.path("clip-\(UUID().uuidString.prefix(8))")
        try Data("after-crash".utf8).write(to: clip)
        try tmux(["load-buffer", "-b", "clip", clip.path])
        try tmux(["paste-buffer", "-p", "-d", "-b", "clip", "-t", "r:0"])
        let pasted = waitFor(text: "after-crash", file: file, line: line)
        XCTAssertFalse(pasted.contains("200~"), "bracketed paste was left on after \(name):\n\(pasted)", file: file, line: line)
    }

    struct Pane { let before: URL; let after: URL; let tty: String }

    /// Starts `command` in window 0 of a new session, with its terminal settings saved before and after it runs.
    func startPane(_ command: [String]) throws -> Pane {
        let tag = UUID().uuidString.prefix(8)
        let before = dir.path("stty-before-\(tag)"), after = dir.path("stty-after-\(tag)")
        let quoted = Self.shellQuoted(command)
        let script = "stty -g >'\(before.path)'; \(quoted); echo FOLIO-EXIT=$?; stty -g >'\(after.path)'; sleep 30"
        try startShell(script, width: 160, height: 30, cwd: dir.url)
        let tty = display("#{pane_tty}")
        return Pane(before: before, after: after, tty: tty)
    }

    /// Waits for the program to end and checks the terminal: same `stty -g`, main screen, cursor shown, no prompt.
    @discardableResult
    func assertRestored(_ pane: Pane, status: Int32, _ what: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        let started = Date()
        // The runtime's prompt would hold the screen for 30 s; the bound leaves room for a loaded machine.
        let screen = waitFor("the program to exit (\(what))", timeout: 20, file: file, line: line) { screen in
            screen.contains("FOLIO-EXIT=") && ((try? String(contentsOf: pane.after, encoding: .utf8)) ?? "").hasSuffix("\n")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 15, "nothing held the screen (\(what))", file: file, line: line)
        XCTAssertTrue(screen.contains("FOLIO-EXIT=\(status)"), "\(what):\n\(screen)", file: file, line: line)
        let before = try? String(contentsOf: pane.before, encoding: .utf8), after = try? String(contentsOf: pane.after, encoding: .utf8)
        XCTAssertNotNil(before, file: file, line: line)
        XCTAssertEqual(after, before, "stty -g after the crash differs from before (\(what))", file: file, line: line)
        XCTAssertEqual(display("#{alternate_on}"), "0", "the alternate screen is still on (\(what))", file: file, line: line)
        XCTAssertEqual(display("#{cursor_flag}"), "1", "the cursor is still hidden (\(what))", file: file, line: line)
        XCTAssertFalse(screen.contains("Press space"), "the runtime's backtracer prompted (\(what)):\n\(screen)", file: file, line: line)
        return screen
    }

    /// The pane shows `folio crashed (SIG…); the terminal was restored; report: PATH` once, and PATH is a report.
    func assertOneLineNamesTheReport(_ screen: String, signal name: String, restored: Bool, number: Int32, commandWord: String,
                                     sentBy sender: Int32? = nil, file: StaticString = #filePath, line: UInt = #line) {
        let prefix = "folio crashed (\(name))" + (restored ? "; the terminal was restored" : "") + "; report: "
        let lines = screen.split(separator: "\n").filter { $0.contains("folio crashed") }
        XCTAssertEqual(lines.count, 1, screen, file: file, line: line)
        guard let message = lines.first, message.hasPrefix(prefix) else { return XCTFail("no crash line in:\n\(screen)", file: file, line: line) }
        do {
            let report = try reportText(from: String(message))
            XCTAssertTrue(report.hasPrefix("folio crash report\nsignal: \(name) (\(number))\n"), report, file: file, line: line)
            if let sender { XCTAssertTrue(report.contains("cause: sent by process \(sender) "), report, file: file, line: line) }
            XCTAssertTrue(report.contains("\npid: "), report, file: file, line: line)
            XCTAssertTrue(report.contains("\ntime: 20"), report, file: file, line: line)
            XCTAssertTrue(report.contains("\ncommand: ") && report.contains(" \(commandWord)"), report, file: file, line: line)
            XCTAssertTrue(report.contains("terminal: restored"), report, file: file, line: line)
            let frames = report.components(separatedBy: "backtrace (").last?.split(separator: "\n").dropFirst() ?? []
            XCTAssertGreaterThan(frames.count, 3, "a backtrace follows:\n\(report)", file: file, line: line)
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
    }

    /// The report named at the end of a crash line, which must be a file in this test's crashes folder.
    func reportText(from message: String) throws -> String {
        guard let range = message.range(of: "report: ") else { throw NSError(domain: "no report in \(message)", code: 1) }
        let path = message[range.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(URL(fileURLWithPath: path).deletingLastPathComponent().path, crashes.path)
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// Where the Swift runtime looks for its backtracer: `usr/libexec/swift/linux/swift-backtrace` for the
    /// `usr/lib/swift/linux/libswiftCore.so` this process runs with.
    func runtimeBacktracer() -> String? {
        let maps = readProcFile("/proc/self/maps")
        guard let line = maps.split(separator: "\n").first(where: { $0.hasSuffix("/libswiftCore.so") }),
              let start = line.firstIndex(of: "/") else { return nil }
        let library = URL(fileURLWithPath: String(line[start...]))
        let usr = library.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return usr.appendingPathComponent("libexec/swift/linux/swift-backtrace").path
    }

    func folioPID(named name: String) throws -> Int32 {
        let panePID = display("#{pane_pid}")
        let children = try runProgram("pgrep", ["-P", panePID, "-x", name]).stdout.split(separator: "\n")
        guard let pid = children.first.flatMap({ Int32($0) }) else { throw NSError(domain: "no \(name) under pane \(panePID)", code: 1) }
        return pid
    }

    /// True once a thread of `pid` sits in read(0, …): the process has started and waits for its input.
    func waitUntilReadingStandardInput(_ pid: Int32) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            for task in tasks {
                let syscall = readProcFile("/proc/\(pid)/task/\(task)/syscall")
                if syscall.hasPrefix("0 0x0 ") { return true }
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    /// A /proc file, read with read(2) (they report size 0, which Foundation's file reading may trust).
    func readProcFile(_ path: String) -> String {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        return readToEnd(fd)
    }

    /// Reads a pipe to its end, retrying on EINTR (FileHandle.readDataToEndOfFile traps on it).
    func readToEnd(_ fd: Int32) -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Ends the tmux server and uses a new one (a new socket: the old server may still be going away).
    func restartTmux() throws {
        _ = try tmux(["kill-server"])
        socket = "folio-restore-\(getpid())-\(UUID().uuidString.prefix(8))"
    }

}

/// A UTC date as [year, month, day, hour, minute, second].
private func civil(_ seconds: Int) -> [Int] {
    let time = CivilTime(secondsSinceEpoch: seconds)
    return [time.year, time.month, time.day, time.hour, time.minute, time.second]
}
