import FolioCore
import FolioBasics
import FoundationEssentials
import Dispatch
import Glibc
import Synchronization

/// One conformance test of `folio plugins validate` and how it ended.
public struct PluginValidationTest: Codable, Sendable, Equatable {
    /// `descriptor`, `documents/EDITOR/empty`, `commands/EDITOR/COMMAND/huge`, `render/EDITOR/1x1`, `buffers/EDITOR`,
    /// `calls/EDITOR/empty` (the generated calls), `generated/EDITOR/render/7x3` (the sample they made)…
    public var name: String
    /// `pass` or `fail`.
    public var status: String
    /// What was wrong: the plugin's wrong result, or how its process ended (`crashed (SIGSEGV) while apply 'toggle'`).
    public var details: String
    public var editor: String?
    public var command: String?
    /// The reproducer files fed to the plugin (kept only for failures).
    public var inputs: [String]
    /// The signal that ended the test's process, if one did.
    public var signal: String?
    /// The command line that runs this test again on the reproducer files.
    public var rerun: String?
    /// The last lines the plugin wrote on standard error in this test (kept only for failures), shown as text.
    public var stderr: [String] = []

    public var passed: Bool { status == "pass" }
}

/// Everything `folio plugins validate` found.
public struct PluginValidationReport: Codable, Sendable {
    public var library: String
    public var tests: [PluginValidationTest]
    /// Where failing tests' inputs were kept (nil when everything passed and the folder was removed).
    public var reproducers: String?

    public var passed: Int { tests.filter(\.passed).count }
    public var failed: Int { tests.count - passed }
    public var ok: Bool { failed == 0 }
}

/// A conformance suite for a plugin library in the spirit of clap-validator: each test runs in its own
/// `folio-plugin-host --validate` process (a crash, a signal or a hang past the deadline ends only that test and is
/// named), fed from reproducer files written first, so that a failure names the test, the command, the input file and
/// the signal or wrong result.
public struct PluginValidator: Sendable {
    public var library: URL
    /// Sample documents for the round trip, render, command, extension and buffer tests (none: the empty document).
    public var samples: [URL] = []
    /// The deadline of each plugin call and render the tests make; nil for Folio's own (`limits`).
    public var timeout: Duration?
    /// The deadline of each call (open, apply, serialize…), over `timeout`; nil for `limits.call`.
    public var callDeadline: Duration?
    /// The deadline of each render, over `timeout`; nil for `limits.render`.
    public var renderDeadline: Duration?
    /// What real use allows a plugin (deadlines, the largest answer): the same in every test.
    public var limits = PluginLimits()
    /// Only the tests with this name, or whose name starts with it and a `/` (nil: every test). The descriptor test
    /// always runs (it lists the editors), and is reported only when selected or failed.
    public var only: String?
    /// The seed of the generated calls: the same seed (and plugin) makes the same calls.
    public var seed: UInt64 = .random(in: 1...999_999_999)
    /// How many calls are generated for each editor and sample.
    public var callCount = PluginValidator.defaultCallCount
    /// 200: four walks of `HostWire.validateWalkLength` calls; a bundled plugin's calls take a fraction of a second.
    public static let defaultCallCount = 200
    /// A whole test process's backstop (each plugin call in it has its own deadline).
    static let processTimeout: Duration = .seconds(300)
    /// How many tests run at once (each in its own process).
    public var jobs: Int = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
    /// The `folio-plugin-host` to run the tests in.
    public var hostExecutable: URL
    /// The environment the tests run with.
    public var environment: [String: String]
    /// Where the reproducer files go (a new folder; removed when every test passed).
    public var reproducers: URL

    /// A validator of `library` running tests in `hostExecutable`.
    public init(library: URL, hostExecutable: URL, environment: [String: String], reproducers: URL? = nil) {
        self.library = library
        self.hostExecutable = hostExecutable
        self.environment = environment
        self.reproducers = reproducers ?? FileManager.default.temporaryDirectory.appendingPathComponent("folio-validate-\(getpid())-\(UUID().uuidString.prefix(8))")
    }

    /// The validator of `library` with the plugin host found as Folio finds it.
    public static func standard(library: URL, environment: [String: String]) throws -> PluginValidator {
        let temporary = environment["TMPDIR"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory
        return PluginValidator(library: library, hostExecutable: try PluginIsolation(environment: environment).hostExecutable(), environment: environment,
                               reproducers: temporary.appendingPathComponent("folio-validate-\(getpid())-\(UUID().uuidString.prefix(8))"))
    }

    /// Runs the suite; `progress` sees each test as it ends.
    public func run(progress: @Sendable (PluginValidationTest) -> Void = { _ in }) throws -> PluginValidationReport {
        // A FIFO or a device would block the plugin host's dlopen (and any read of it) forever: only a regular file
        // (through links) is a library.
        var status = stat()
        guard stat(library.path, &status) == 0 else { throw PluginRefusal(file: library.path, reason: "no such file") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw PluginRefusal(file: library.path, reason: "not a regular file") }
        try FileManager.default.createDirectory(at: reproducers, withIntermediateDirectories: true)
        var report = PluginValidationReport(library: library.path, tests: [], reproducers: reproducers.path)
        let sampleFiles = try samplesCopied()
        let (descriptor, plan) = runTest(PlannedTest(name: "descriptor", kind: "descriptor"))
        if only == nil || selects("descriptor") || !descriptor.passed {
            progress(descriptor)
            report.tests.append(descriptor)
        }
        if descriptor.passed {
            // First the tests that need no sample (documents, and opening the samples), then the rest for the editors
            // that accept their sample: tests that start from a refused sample would all fail the same way.
            let planned = tests(plan, samples: sampleFiles).filter(isSelected)
            if let only, planned.isEmpty, !selects("descriptor") { throw UnknownValidationTest(name: only, library: library.path) }
            let first = planned.filter { $0.kind == "document" || $0.kind == "sample" }
            var results = runAll(first, progress: progress)
            var refused: Set<String> = []
            for index in results.indices where first[index].kind == "sample" && !results[index].passed {
                let editor = first[index].editor ?? ""
                refused.insert(editor)
                results[index].details += "; the round-trip, render, command, extension and buffer tests of '\(editor)' need a sample document it accepts"
            }
            let rest = planned.filter { $0.kind != "document" && $0.kind != "sample" && !refused.contains($0.editor ?? "") }
            report.tests += results + runAll(rest, progress: progress)
            // Then the samples the generated calls made from the empty document.
            let editors = plan.editors.map(\.id).filter { !refused.contains($0) }
            report.tests += runAll(generatedSampleTests(editors).filter { selects($0.name) }, progress: progress)
        }
        if report.ok {
            try? FileManager.default.removeItem(at: reproducers)
            report.reproducers = nil
        }
        return report
    }

    /// The names of every test a run makes, in order, without running them (but the descriptor test, which says
    /// which editors and commands there are; its failure is thrown as the refusal it reports). The generated tests
    /// run only when an editor's calls made a sample.
    public func testNames() throws -> [String] {
        try FileManager.default.createDirectory(at: reproducers, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: reproducers) }
        let (descriptor, plan) = runTest(PlannedTest(name: "descriptor", kind: "descriptor"))
        guard descriptor.passed else { throw PluginRefusal(file: library.path, reason: "the descriptor test failed: \(descriptor.details)") }
        let editors = plan.editors.filter { !$0.commands.isEmpty }.map(\.id)
        return ["descriptor"] + tests(plan, samples: copiedSampleNames()).map(\.name) + editors.flatMap(Self.generatedTestNames)
    }

    /// Whether `name` is the selected test, or in the selected group (`render` selects `render/…`).
    func selects(_ name: String) -> Bool {
        guard let only else { return true }
        return name == only || name.hasPrefix(only.hasSuffix("/") ? only : only + "/")
    }

    /// Whether a planned test runs: selected, or the calls from the empty document that make a selected generated
    /// test's sample.
    private func isSelected(_ test: PlannedTest) -> Bool {
        if selects(test.name) { return true }
        guard let editor = test.editor, test.name == "calls/\(editor)/empty" else { return false }
        return Self.generatedTestNames(editor).contains(where: selects)
    }

    /// Runs `tests`, `jobs` at a time (each in its own process); results and progress in the order of `tests`.
    private func runAll(_ tests: [PlannedTest], progress: @Sendable (PluginValidationTest) -> Void) -> [PluginValidationTest] {
        let state = Mutex<(next: Int, results: [PluginValidationTest?])>((0, Array(repeating: nil, count: tests.count)))
        let reported = Mutex<Int>(0)  // held while calling progress: one worker at a time, in order
        _ = parallelMap(max(1, min(jobs, tests.count))) { _ in
            while true {
                let index: Int? = state.withLock { state in
                    guard state.next < tests.count else { return nil }
                    defer { state.next += 1 }
                    return state.next
                }
                guard let index else { return }
                let result = runPlanned(tests[index])
                state.withLock { $0.results[index] = result }
                reported.withLock { reported in
                    // Emit every finished result whose predecessors are all out.
                    while reported < tests.count, let ready = state.withLock({ [reported] in $0.results[reported] }) {
                        progress(ready)
                        reported += 1
                    }
                }
            }
        }
        return state.withLock { $0.results.compactMap { $0 } }
    }

    /// Where the samples are copied in the reproducer folder (the empty document when none was given): the names the
    /// tests made from them carry.
    private func copiedSampleNames() -> [URL] {
        guard !samples.isEmpty else { return [reproducers.appendingPathComponent("sample-empty")] }
        return samples.enumerated().map { index, sample in reproducers.appendingPathComponent("sample-\(index + 1)-\(sample.lastPathComponent)") }
    }

    /// The samples copied into the reproducer folder (the empty document when none was given).
    private func samplesCopied() throws -> [URL] {
        if samples.isEmpty {
            let empty = reproducers.appendingPathComponent("sample-empty")
            try Data().write(to: empty)
            return [empty]
        }
        return try zip(samples, copiedSampleNames()).map { sample, copy in
            guard let data = FileManager.default.contents(atPath: sample.path) else {
                throw FolioError.unreadableFile(path: sample.path, reason: "cannot read the sample document")
            }
            try data.write(to: copy)
            return copy
        }
    }
}

/// One test to run: its name, the host's test kind and options, and the reproducer inputs to write first.
struct PlannedTest: Sendable {
    var name: String
    var kind: String
    var editor: String?
    var command: String?
    /// Files written before the test (reproducers), with their contents.
    var inputs: [(url: URL, bytes: Data)] = []
    /// Options passed to the host (`--document FILE`, `--width W`…).
    var options: [String] = []
    /// A `calls` test's generated calls, the sample they start from and where each call's input is written.
    var calls: GeneratedCalls?
    /// An `argument-values` test's answers file, and each command's id and number of arguments in the host's order.
    var answers: (file: URL, commands: [(id: String, count: Int)])?
}

/// The editors and commands the descriptor test reported.
struct ValidationPlan {
    var editors: [(id: String, commands: [(id: String, usage: String)])] = []
}

/// A validation asked for a test no run makes: the name asked for and the library.
public struct UnknownValidationTest: Error, Sendable, Equatable, CustomStringConvertible {
    public let name: String
    public let library: String
    public var description: String { "\(library): no test named '\(name)', nor a group of tests starting with it" }
}
