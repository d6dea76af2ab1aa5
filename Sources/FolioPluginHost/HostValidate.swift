import FolioPluginABI
#if canImport(Glibc)
import Glibc
#endif

/// `folio-plugin-host --validate TEST LIBRARY [--editor ID] [--command ID] [--arguments FILE] [--document FILE]...
/// [--width W --height H] [--calls FILE --state FILE --output FILE] [--call-deadline MS --render-deadline MS] [--buffer BYTES]`:
/// one test of `folio plugins validate`, run in its own process so that a crash, a signal or a hang ends only this
/// test. Once the library is loaded (and the test's files read or opened) the process confines itself as a plugin
/// host does. Before each risky step a `step …` line is written to stdout (unbuffered), so that the parent can say
/// where a crash happened; at the end one `result {"status": "pass"|"fail", "details": …}` line. Each plugin call runs
/// under a deadline (Folio's own by default, 5 s a call, 1 s a render): past it SIGALRM ends the process, after a
/// `deadline MS` line saying which deadline was armed; a buffer over `--buffer` (64 MiB) ends the test as over the
/// limit. Exits 1 when the test failed, so a rerun shows it.
/// The document and arguments files are the parent's reproducer files, fed to the plugin byte for byte.
public enum HostValidate {
    /// Runs one test; the exit code is 0 when it passed, 1 when it failed, 2 for bad usage.
    public static func run(_ arguments: [String]) -> Int32 {
        guard arguments.count >= 2 else {
            writeLine("folio-plugin-host --validate TEST LIBRARY [options]: runs one test of folio plugins validate", fd: 2)
            return 2
        }
        setlocale(LC_ALL, "C.UTF-8")
        signal(SIGPIPE, SIG_IGN)
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
        var memory = rlimit(rlim_cur: 4 << 30, rlim_max: 4 << 30)  // a runaway allocation fails here instead of swapping
        _ = setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &memory)
        let options = Options(arguments)
        Deadline.configure(call: options.callDeadline, render: options.renderDeadline)
        AnswerLimit.state.withLock { $0.cap = options.bufferCap }
        var extra: [(String, [String])] = []
        do {
            step("loading \(options.library)")
            let library = try loadLibrary(options.library)
            try Files.prepare(inputs: options.documents + [options.arguments, options.calls].compactMap { $0 },
                              outputs: [options.state, options.output].compactMap { $0 })
            let entry = options.test == "descriptor" ? try bindNow(library) : nil
            do { _ = try HostConfinement.confine(library: options.library) } catch { throw ValidationFailure("refused at load: \(error.reason)") }
            if let entry { extra = try descriptor(library, entry: entry) } else { try run(options, library) }
            report(pass: true, details: "", extra: extra)
            return 0
        } catch let failure as ValidationFailure {
            report(pass: false, details: failure.message, extra: [])
        } catch {
            report(pass: false, details: "\(error)", extra: [])
        }
        return 1
    }

    struct Options {
        var test = "", library = "", editor = "", command = ""
        var arguments: String?
        /// The generated calls (`calls` test) and where the input of each call is written before it runs.
        var calls: String?, state: String?
        /// Where the `calls` test writes the document its first walk made (a generated sample).
        var output: String?
        /// Whether the `calls` test may find its sample refused (the empty document, added to the user's samples).
        var refusable = false
        var documents: [String] = []
        /// Extension ids the plugin's manifest declares for this editor.
        var declared: [String] = []
        var width: UInt32 = 80, height: UInt32 = 24
        /// Deadlines in milliseconds (Folio's defaults are the parent's to pass).
        var callDeadline = 5000, renderDeadline = 1000
        /// The most bytes a plugin's buffer may hold (Folio's own limit unless the parent says otherwise).
        var bufferCap = 64 << 20

        init(_ words: [String]) {
            test = words[0]
            library = words[1]
            var index = 2
            while index + 1 < words.count {
                let value = words[index + 1]
                switch words[index] {
                case "--editor": editor = value
                case "--command": command = value
                case "--arguments": arguments = value
                case "--document": documents.append(value)
                case "--declared": declared.append(value)
                case "--width": width = UInt32(value) ?? 80
                case "--height": height = UInt32(value) ?? 24
                case "--calls": calls = value
                case "--state": state = value
                case "--output": output = value
                case "--refusable": refusable = value == "yes"
                case "--call-deadline": callDeadline = Int(value).map { max(1, $0) } ?? callDeadline
                case "--render-deadline": renderDeadline = Int(value).map { max(1, $0) } ?? renderDeadline
                case "--buffer": bufferCap = Int(value).map { max(1, $0) } ?? bufferCap
                default: break
                }
                index += 2
            }
        }
    }

    static func loadLibrary(_ path: String) throws -> HostLibrary {
        do { return try HostLibrary.load(path) } catch { throw ValidationFailure("refused at load: \(error.reason)") }
    }

    private static func run(_ options: Options, _ library: HostLibrary) throws {
        guard let editor = library.editors.first(where: { $0.id == options.editor }) else {
            throw ValidationFailure("the library does not provide editor '\(options.editor)'")
        }
        let raw = RawEditor(table: editor.table, id: editor.id)
        let documents = try options.documents.map(readFile)
        let sample = documents.first ?? []
        switch options.test {
        case "sample":
            for (index, document) in documents.enumerated() {
                step("open sample \(index + 1)")
                raw.release(try raw.openAccepted(document, what: "sample \(index + 1)"))
            }
        case "document": try document(raw, sample)
        case "round-trip": try roundTrip(raw, documents.isEmpty ? [[]] : documents)
        case "render": try render(raw, sample, width: options.width, height: options.height)
        case "command":
            let arguments = try options.arguments.map(readFile) ?? Array("[]".utf8)
            try command(raw, editor, options.command, arguments: arguments, sample: sample)
        case "extensions": try extensions(raw, editor, sample, declared: options.declared)
        case "buffers": try buffers(raw, editor, sample)
        case "items": try items(raw, editor, documents.isEmpty ? [[]] : documents)
        case "argument-values": try argumentValues(raw, editor, sample, output: options.output)
        case "calls":
            let calls = try readFile(options.calls ?? "").split(separator: 0x0A).map { try GeneratedCall(line: Array($0)) }
            try generatedCalls(raw, sample, calls, files: (options.state, options.output), refusable: options.refusable)
        default: throw ValidationFailure("unknown test '\(options.test)'")
        }
    }

    // MARK: Output

    static func writeLine(_ text: String, fd: Int32 = 1) {
        var line = text + "\n"
        line.withUTF8 { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, base + offset, buffer.count - offset)
                if n < 0 { if errno == EINTR { continue }; return }
                offset += n
            }
        }
    }

    /// Says what is about to run (the parent names the last step when the process dies) and arms its deadline.
    static func step(_ text: String, deadline: Deadline.Kind = .call) {
        Deadline.arm(deadline)
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        AnswerLimit.state.withLock { $0.step = line }
        writeLine("step " + line)
    }

    /// Reports a failure found outside the test's own flow (a buffer over the limit) as the test's result.
    static func reportFailure(_ details: String) { report(pass: false, details: details, extra: []) }

    private static func report(pass: Bool, details: String, extra: [(String, [String])]) {
        var json = HostJSON()
        json.object { json in
            json.member("status", pass ? "pass" : "fail")
            json.member("details", details)
            for (key, values) in extra { json.member(key, strings: values) }
        }
        writeLine("result " + String(decoding: json.bytes, as: UTF8.self))
    }

    /// An input file's bytes (read before confinement: `Files`).
    static func readFile(_ path: String) throws -> [UInt8] { try Files.read(path) }
}
