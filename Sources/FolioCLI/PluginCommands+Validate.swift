import FolioCore
import FolioPlugins
import FoundationEssentials
import Glibc

/// `folio plugins validate FILE.so [--json] [--document FILE]... [--timeout SECONDS] [--seed N] [--calls N]`: the
/// conformance suite, each test in its own plugin host process, with valid calls generated from the commands' usages
/// (`--seed` repeats a run's calls). Prints each test (failures with the call, the reproducer files and a command line
/// that runs the test again) and a summary; exit 1 when a test failed.
func validatePlugin(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let library = io.url(try args.positional(1, "FILE.so"))
    try args.expectAtMost(2)
    guard FileManager.default.fileExists(atPath: library.path) else { throw FolioError.unreadableFile(path: library.path, reason: "no such file") }
    let validator = try configuredValidator(library, args, io)
    let json = args.flag("--json")
    let report = try validator.run { test in
        guard !json else { return }
        io.line("\(test.passed ? "pass" : "FAIL") \(test.name)")
        guard !test.passed else { return }
        io.line("  \(test.details)")
        if test.name.hasPrefix("samples/") { io.line("  hint: give a sample the editor accepts with --document FILE") }
        for input in test.inputs { io.line("  input: \(input)") }
        if let rerun = test.rerun { io.line("  rerun: \(rerun)") }
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

/// The validator of `library` with the command line's samples, deadline, seed and call count.
private func configuredValidator(_ library: URL, _ args: Arguments, _ io: CommandIO) throws -> PluginValidator {
    var validator = try PluginValidator.standard(library: library, environment: io.environment)
    validator.samples = args.values("--document").map(io.url)
    if validator.samples.isEmpty {
        // The plugin's own sample documents (from its package, or its linked project) when none are given.
        validator.samples = PluginPackageContents.samples(forLibrary: library, installedFolder: PluginInstaller.standard(environment: io.environment).folder)
    }
    if let seconds = try args.int("--timeout") {
        guard (1...3600).contains(seconds) else { throw UsageError("--timeout must be between 1 and 3600 seconds") }
        validator.timeout = .seconds(seconds)
    }
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
}
