import FolioCore
import FoundationEssentials
import FolioBasics
import Glibc

extension PluginValidator {
    /// Hostile documents every editor must open or refuse cleanly.
    static let documentCases: [(name: String, bytes: Data)] = [
        ("empty", Data()),
        ("malformed", Data(#"{"title": "unterminated, "items": [{"title": 1, "checked": "yes"}, {"kind": ]]] }}} "#.utf8)
            + Data([0x0A, 0x23, 0x20, 0x00, 0x01, 0x1B, 0x5B, 0x32, 0x4A, 0x0A]) + Data("{\"shapes\": [{\"kind\": \"circle\", \"x\": 1e999}".utf8)),
        ("huge", Data(String(repeating: #"{"title": "item", "checked": false}, # Act heading, line of text"# + "\n", count: 65_536).utf8)),
        ("invalid-utf8", Data("valid start ".utf8) + Data([0xFF, 0xFE, 0xC3, 0x28, 0xED, 0xA0, 0x80, 0xF4, 0x90, 0x80, 0x80, 0xC0, 0xAF, 0x0A])),
    ]

    /// Bad arguments for every command: `n` copies of a value (n = the arguments its usage names, at least one).
    static func argumentCases(count n: Int) -> [(name: String, arguments: [String])] {
        [
            ("missing", []),
            ("wrong-type", Array(repeating: "x", count: n)),
            ("out-of-range-zero", Array(repeating: "0", count: n)),
            ("out-of-range-negative", Array(repeating: "-1", count: n)),
            ("out-of-range-overflow", Array(repeating: "99999999999999999999999", count: n)),
            ("huge", Array(repeating: String(repeating: "9", count: 1 << 20), count: n)),
            ("wide-text", Array(repeating: String(repeating: "日本語🥚e\u{301} ", count: 30), count: n)),
        ]
    }

    /// Every test after the descriptor's, for the editors and commands it reported.
    func tests(_ plan: ValidationPlan, samples: [URL]) -> [PlannedTest] {
        let sample = ["--document", samples[0].path]
        // The manifest beside the library, when there is one: the extensions it declares must be answered.
        let manifest = try? PluginManifest.load(from: ManifestLocator.besideManifest(for: library))
        var tests: [PlannedTest] = []
        for editor in plan.editors {
            let e = editor.id
            for document in Self.documentCases {
                let input = reproducers.appendingPathComponent(Self.fileName("documents/\(e)/\(document.name)") + ".bin")
                tests.append(PlannedTest(name: "documents/\(e)/\(document.name)", kind: "document", editor: e, inputs: [(input, document.bytes)],
                                         options: ["--document", input.path]))
            }
            tests.append(PlannedTest(name: "samples/\(e)", kind: "sample", editor: e, options: samples.flatMap { ["--document", $0.path] }))
            tests.append(PlannedTest(name: "round-trip/\(e)", kind: "round-trip", editor: e, options: samples.flatMap { ["--document", $0.path] }))
            for (width, height) in [(1, 1), (500, 200)] {
                tests.append(PlannedTest(name: "render/\(e)/\(width)x\(height)", kind: "render", editor: e,
                                         options: sample + ["--width", "\(width)", "--height", "\(height)"]))
            }
            for command in editor.commands {
                let count = max(1, command.usage.split(separator: " ").count - 1)
                for argumentCase in Self.argumentCases(count: count) {
                    tests.append(commandTest(e, command.id, argumentCase.name, argumentCase.arguments, sample: sample))
                }
            }
            tests.append(commandTest(e, "folio-validate-no-such-command", "unknown", ["1"], sample: sample))
            let declared = manifest?.editors.first { $0.id == e }?.extensions ?? []
            tests.append(PlannedTest(name: "extensions/\(e)", kind: "extensions", editor: e, options: sample + declared.flatMap { ["--declared", $0] }))
            tests.append(PlannedTest(name: "buffers/\(e)", kind: "buffers", editor: e, options: sample))
            tests.append(itemsTest(e, sample: sample))
            tests.append(argumentValuesTest(e, commands: editor.commands, sample: sample))
            tests += callsTests(e, editor.commands, samples: samples, userSamples: !self.samples.isEmpty)
        }
        return tests
    }

    /// `folio.items/1` (when the editor has it): lists of the sample and of every hostile document, the sample matched
    /// against itself, and take round trips (everything into an empty document and into itself, nothing, an unknown key).
    private func itemsTest(_ editor: String, sample: [String]) -> PlannedTest {
        let inputs = Self.documentCases.map { document in
            (url: reproducers.appendingPathComponent(Self.fileName("items/\(editor)/\(document.name)") + ".bin"), bytes: document.bytes)
        }
        return PlannedTest(name: "items/\(editor)", kind: "items", editor: editor, inputs: inputs,
                           options: sample + inputs.flatMap { ["--document", $0.url.path] })
    }

    private func commandTest(_ editor: String, _ command: String, _ name: String, _ arguments: [String], sample: [String]) -> PlannedTest {
        let testName = "commands/\(editor)/\(command)/\(name)"
        let input = reproducers.appendingPathComponent(Self.fileName(testName) + ".json")
        let json = (try? JSONEncoder().encode(arguments)) ?? Data("[]".utf8)
        return PlannedTest(name: testName, kind: "command", editor: editor, command: command, inputs: [(input, json)],
                           options: ["--command", command, "--arguments", input.path] + sample)
    }

    /// A test name as a file name.
    static func fileName(_ test: String) -> String {
        String(test.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "_" }.prefix(120))
    }

    /// Runs one test in its own host process; the plan is what the descriptor test reported.
    func runTest(_ test: PlannedTest) -> (PluginValidationTest, ValidationPlan) {
        let (result, plan, _) = runHost(test)
        return (result, plan)
    }

    /// The limits passed to every test process: the deadlines and the largest answer real use applies (`limits`,
    /// Folio's own: 5 s a call, 1 s a render, 64 MiB a buffer), the deadlines overridden only by `callDeadline`,
    /// `renderDeadline` (or `timeout`, both); the process confines itself as a real plugin host does.
    func limitOptions() -> [String] {
        func milliseconds(_ duration: Duration) -> String {
            String(max(1, duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000))
        }
        let call = callDeadline ?? timeout ?? limits.call
        let render = renderDeadline ?? timeout ?? limits.render
        return ["--call-deadline", milliseconds(call), "--render-deadline", milliseconds(render), "--buffer", String(limits.buffer)]
    }

    /// Runs one test in its own host process: its result, the plan the descriptor test reported and the lines it printed.
    func runHost(_ test: PlannedTest) -> (PluginValidationTest, ValidationPlan, [Substring]) {
        var result = PluginValidationTest(name: test.name, status: "fail", details: "", editor: test.editor, command: test.command, inputs: [],
                                          signal: nil, rerun: nil)
        let arguments = ["--validate", test.kind, library.path] + (test.editor.map { ["--editor", $0] } ?? []) + test.options + limitOptions()
        result.rerun = ([hostExecutable.path] + arguments).map(Self.shellQuoted).joined(separator: " ")
        result.inputs = test.inputs.map(\.url.path) + stride(from: 0, to: test.options.count - 1, by: 1).compactMap { index in
            test.options[index] == "--document" && !test.inputs.contains { $0.url.path == test.options[index + 1] } ? test.options[index + 1] : nil
        }
        var plan = ValidationPlan()
        var lines: [Substring] = []
        do {
            for input in test.inputs { try input.bytes.write(to: input.url) }
            let child = try ChildProcess.run(executable: hostExecutable.path, arguments: arguments, environment: environment,
                                             timeout: Self.processTimeout, keepErrors: true)
            lines = String(decoding: child.output, as: UTF8.self).split(separator: "\n")
            result.stderr = Self.lastLines(child.errors)
            let step = lines.last { $0.hasPrefix("step ") }.map { String($0.dropFirst(5)) } ?? "starting"
            if child.timedOut {
                result.details = "timed out: did not finish within \(PluginLimits.describe(Self.processTimeout)) (while \(step))"
            } else if child.signal == SIGALRM {
                let deadline = lines.last { $0.hasPrefix("deadline ") }.flatMap { Int64($0.dropFirst(9)) } ?? 0
                result.details = "timed out: did not finish within \(PluginLimits.describe(.milliseconds(deadline))) (while \(step))"
            } else if let signal = child.signal {
                let name = ChildProcess.signalName(signal) ?? "signal \(signal)"
                result.signal = name
                result.details = "crashed (\(name)) while \(step)"
            } else if let line = lines.last(where: { $0.hasPrefix("result ") }), let object = Self.object(line.dropFirst(7)) {
                result.status = object["status"]?.stringValue == "pass" ? "pass" : "fail"
                result.details = object["details"]?.stringValue ?? ""
                plan = Self.plan(object)
            } else {
                result.details = "exited with status \(child.status) without a result (while \(step))"
            }
        } catch {
            result.details = "cannot run the test: \(error)"
        }
        if result.passed {
            for input in test.inputs { try? FileManager.default.removeItem(at: input.url) }
            result.inputs = []
            result.rerun = nil
            result.stderr = []
        }
        return (result, plan, lines)
    }

    /// How many of the plugin's last lines on standard error a failed test shows.
    public static let stderrLines = 10

    /// The last `stderrLines` lines of what a test process wrote on standard error, each as text fit to show (control
    /// characters as escapes, at most 200 characters); a first line cut by the kept tail is dropped.
    static func lastLines(_ errors: Data) -> [String] {
        var lines = errors.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        if errors.count >= ChildProcess.errorTailBytes, !lines.isEmpty { lines.removeFirst() }
        return lines.suffix(stderrLines).map { line in
            let text = PluginText.viewLine(String(decoding: line, as: UTF8.self), width: 200)
            return text
        }
    }

    private static func object(_ text: Substring) -> [String: JSONValue]? {
        (try? JSONNode.parse(Data(text.utf8)))?.value.objectValue
    }

    /// The editors and commands from the descriptor test's result.
    private static func plan(_ object: [String: JSONValue]) -> ValidationPlan {
        var plan = ValidationPlan()
        for editor in object["editors"]?.arrayValue?.compactMap(\.stringValue) ?? [] {
            let commands = (object["commands/\(editor)"]?.arrayValue?.compactMap(\.stringValue) ?? []).map { entry -> (id: String, usage: String) in
                let parts = entry.split(separator: "\t", maxSplits: 1).map(String.init)
                return (parts.first ?? entry, parts.count > 1 ? parts[1] : entry)
            }
            plan.editors.append((editor, commands))
        }
        return plan
    }

    /// `word` as one shell word (quoted when it needs to be).
    public static func shellQuoted(_ word: String) -> String {
        word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:".contains($0) } ? word : "'" + word.replacing("'", with: #"'\''"#) + "'"
    }
}
