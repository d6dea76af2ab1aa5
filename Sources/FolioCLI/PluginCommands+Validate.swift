import FolioCore
import FolioPlugins
import FoundationEssentials
import Glibc

/// `folio plugins validate FILE.so|DIR [--json] [--document FILE]... [--timeout SECONDS] [--call-deadline MS]
/// [--render-deadline MS] [--seed N] [--calls N] [--only TEST]`: the conformance suite, each test in its own plugin
/// host process, with valid calls generated from the commands' usages (`--seed` repeats a run's calls); a project
/// folder (DIR) is validated through its build, with its samples. Prints each test (failures with the call, the reproducer files and a command line
/// that runs the test again) and a summary; exit 1 when a test failed.
func validatePlugin(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let (library, projectSamples) = try validationTarget(args, io)
    let validator = try configuredValidator(library, args, io, projectSamples: projectSamples)
    let json = args.flag("--json")
    let report: PluginValidationReport
    do {
        report = try validator.run { test in
            guard !json else { return }
            printTest(test, io)
        }
    } catch let unknown as UnknownValidationTest {
        throw CommandFailure("\(unknown) (list them with: folio plugins validate \(PluginValidator.shellQuoted(library.path)) --list)")
    }
    if json {
        struct Output: Encodable { let library: String; let ok: Bool; let passed: Int; let failed: Int; let seed: UInt64; let reproducers: String?; let tests: [PluginValidationTest] }
        try io.json(Output(library: report.library, ok: report.ok, passed: report.passed, failed: report.failed, seed: validator.seed,
                           reproducers: report.reproducers, tests: report.tests))
    } else {
        if report.tests.contains(where: { !$0.passed && ($0.name.hasPrefix("calls/") || $0.name.hasPrefix("generated/")) }) {
            io.line("the same calls again: " + sameCalls(validator, args))
        }
        io.line("\(library.path): \(report.tests.count) test\(report.tests.count == 1 ? "" : "s"), \(report.passed) passed, \(report.failed) failed"
                + (report.reproducers.map { "; reproducers in \($0)" } ?? ""))
    }
    return report.ok ? 0 : FolioCommandLine.failure
}

/// One test as `validate` prints it: pass or FAIL and its name; for a failure what was wrong, the plugin's own last
/// lines on standard error, the reproducer inputs and the command line that runs it again.
private func printTest(_ test: PluginValidationTest, _ io: CommandIO) {
    io.line("\(test.passed ? "pass" : "FAIL") \(test.name)")
    guard !test.passed else { return }
    io.line("  \(test.details)")
    if test.name.hasPrefix("samples/") { io.line("  hint: give a sample the editor accepts with --document FILE") }
    for line in test.stderr { io.line("  stderr: \(line)") }
    for input in test.inputs { io.line("  input: \(input)") }
    if let rerun = test.rerun { io.line("  rerun: \(rerun)") }
}

/// `folio plugins validate FILE.so --list`: the tests a run makes, one name a line (only the descriptor test runs).
func listValidationTests(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let (library, projectSamples) = try validationTarget(args, io)
    for name in try configuredValidator(library, args, io, projectSamples: projectSamples).testNames() { io.line(name.shownAsText) }
    return 0
}

/// What `validate` runs on: a library as given, or a plugin project folder's build and its samples.
private func validationTarget(_ args: Arguments, _ io: CommandIO) throws -> (library: URL, samples: [URL]) {
    let given = io.url(try args.positional(1, "FILE.so|DIR"))
    try args.expectAtMost(2)
    var info = stat()
    guard stat(given.path, &info) == 0 else { throw FolioError.unreadableFile(path: given.path, reason: "no such file") }
    guard info.st_mode & S_IFMT == S_IFDIR else { return (given, []) }
    let build = try PluginProjectBuild.of(given)
    return (build.library, build.samples)
}

/// The validator of `library` with the command line's samples (else the project's, else the plugin's own), deadlines,
/// seed and call count.
private func configuredValidator(_ library: URL, _ args: Arguments, _ io: CommandIO, projectSamples: [URL] = []) throws -> PluginValidator {
    var validator = try PluginValidator.standard(library: library, environment: io.environment)
    validator.samples = args.values("--document").map(io.url)
    if validator.samples.isEmpty { validator.samples = projectSamples }
    if validator.samples.isEmpty {
        // The plugin's own sample documents (from its package, or its linked project) when none are given.
        validator.samples = PluginPackageContents.samples(forLibrary: library, installedFolder: PluginInstaller.standard(environment: io.environment).folder)
    }
    validator.limits = PluginLimits(settings: try Settings.load(environment: io.environment).pluginLimits)
    if let seconds = try args.int("--timeout") {
        guard (1...3600).contains(seconds) else { throw UsageError("--timeout must be between 1 and 3600 seconds") }
        validator.timeout = .seconds(seconds)
    }
    for (option, deadline) in [("--call-deadline", \PluginValidator.callDeadline), ("--render-deadline", \PluginValidator.renderDeadline)] {
        guard let milliseconds = try args.int(option) else { continue }
        guard (1...3_600_000).contains(milliseconds) else { throw UsageError("\(option) takes milliseconds from 1 to 3600000") }
        validator[keyPath: deadline] = .milliseconds(milliseconds)
    }
    validator.only = args.value("--only")
    if let text = args.value("--seed") {
        guard let seed = UInt64(text) else { throw UsageError("--seed needs a whole number from 0 to \(UInt64.max), got '\(text)'") }
        validator.seed = seed
    }
    if let calls = try args.int("--calls") {
        guard (1...100_000).contains(calls) else { throw UsageError("--calls must be between 1 and 100000") }
        validator.callCount = calls
    }
    return validator
}

/// The command line that makes the same generated calls again.
private func sameCalls(_ validator: PluginValidator, _ args: Arguments) -> String {
    let documents = validator.samples.map { " --document " + PluginValidator.shellQuoted($0.path) }.joined()
    return "folio plugins validate \(PluginValidator.shellQuoted(validator.library.path))\(documents) --seed \(validator.seed)"
        + (validator.callCount == PluginValidator.defaultCallCount ? "" : " --calls \(validator.callCount)")
        + (args.value("--timeout").map { " --timeout \($0)" } ?? "")
        + (args.value("--call-deadline").map { " --call-deadline \($0)" } ?? "")
        + (args.value("--render-deadline").map { " --render-deadline \($0)" } ?? "")
}

/// `folio plugins log ID`: what the plugin printed while it ran in its hosts (its own log), shown as text.
func printPluginLog(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let id = try args.positional(1, "ID")
    try args.expectAtMost(2)
    guard let plugin = pluginHost(io).anyPlugin(id) else { throw PluginError.unknownPluginOrEditor(id: id) }
    let pluginID = plugin.manifest.id
    guard let log = PluginIsolation.standard(environment: io.environment).pluginLog(pluginID),
          let data = FileManager.default.contents(atPath: log.path), !data.isEmpty else {
        io.line("\(pluginID.shownAsText) has written nothing to its log yet")
        return 0
    }
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast(data.last == 0x0A ? 1 : 0) {
        io.line(String(line).shownAsText)
    }
    return 0
}
