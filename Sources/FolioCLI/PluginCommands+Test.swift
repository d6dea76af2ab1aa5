import FolioCore
import FolioPlugins
import FoundationEssentials
import Glibc

/// `folio plugins test DIR [NAME]... [--update]`: runs the plugin project's own tests (`tests/NAME/test.json`, see
/// `PluginTranscript`) on its build, each step as `folio edit` and `folio view` run it, and compares what each step gives
/// with the test's `expected/` files; `--update` writes them instead. One line a test; a failed test lists each
/// difference under it.
func testPluginProject(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let project = io.url(try args.positional(1, "DIR")).standardizedFileURL
    let build = try PluginProjectBuild.of(project)
    guard FileManager.default.fileExists(atPath: build.library.path) else {
        throw FolioError.unreadableFile(path: build.library.path, reason: "no such file (build the project first)")
    }
    var tests = try PluginTranscript.all(in: project)
    let named = Array(args.positionals.dropFirst(2))
    if !named.isEmpty {
        if let unknown = named.first(where: { name in !tests.contains { $0.name == name } }) {
            throw CommandFailure("\(project.path.shownAsText): no test '\(unknown.shownAsText)' in tests/ (it has: \(tests.isEmpty ? "none" : tests.map(\.name.shownAsText).joined(separator: ", ")))")
        }
        tests = tests.filter { named.contains($0.name) }
    }
    guard !tests.isEmpty else {
        throw CommandFailure("\(project.path.shownAsText): no tests (a test is a folder tests/NAME holding test.json)")
    }
    var isolation = PluginIsolation.standard(environment: io.environment)
    isolation.quarantines = false  // an author's crashing build under test is not put aside for real use
    let host = EditorRegistry(searchPath: PluginSearchPath(folders: [.init(build.library.deletingLastPathComponent(), bundled: false)]),
                              isolation: isolation)
    guard let plugin = host.plugins.first(where: { $0.library.standardizedFileURL.path == build.library.standardizedFileURL.path }) else {
        let refusal = host.refusals.first { $0.file == build.library.path }
        throw CommandFailure(refusal.map { "\($0)" } ?? "\(build.library.path.shownAsText): not a plugin Folio can load")
    }
    let samples = build.samples.first?.deletingLastPathComponent() ?? project.appendingPathComponent("samples")
    let update = args.flag("--update")
    var failed = 0
    for test in tests {
        let editors = plugin.manifest.editors.map(\.id)
        guard let editorID = test.editor ?? editors.first, editors.contains(editorID) else {
            failed += 1
            io.line("FAIL \(test.name.shownAsText): the plugin has no editor '\((test.editor ?? "").shownAsText)' (it has: \(editors.map(\.shownAsText).joined(separator: ", ")))")
            continue
        }
        do {
            let outcome = try test.run(on: try host.backend(editorID), samplesFolder: samples, update: update)
            if update {
                io.line("\(outcome.written.isEmpty ? "same" : "updated") \(test.name.shownAsText)"
                        + (outcome.written.isEmpty ? "" : ": " + outcome.written.map(\.shownAsText).joined(separator: ", ")))
            } else if outcome.passed {
                io.line("ok   \(test.name.shownAsText) (\(test.steps.count) step\(test.steps.count == 1 ? "" : "s"))")
            } else {
                failed += 1
                io.line("FAIL \(test.name.shownAsText)")
                for difference in outcome.differences { io.line("  \(difference.shownAsText)") }
            }
        } catch {
            failed += 1
            io.line("FAIL \(test.name.shownAsText): \("\(error)".shownAsText)")
        }
    }
    if failed > 0 {
        throw CommandFailure("\(failed) of \(tests.count) test\(tests.count == 1 ? "" : "s") failed (to accept what the plugin gives now: folio plugins test \(project.path.shownAsText) --update)")
    }
    if !update { io.line("\(tests.count) test\(tests.count == 1 ? "" : "s") passed") }
    return 0
}
