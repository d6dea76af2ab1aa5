import FolioCore
@testable import FolioPlugins
import FolioCLITestSupport
import Foundation
import XCTest

/// `folio plugins validate` tells the truth: the answer limit and deadlines of real use, an answer over the limit named
/// as such, test processes confined as real plugin hosts are, `--list` and `--only`, and the plugin's own last lines
/// on standard error under each failed test; `folio plugins log ID` prints what a plugin wrote while it ran.
final class PluginValidateTruthTests: PluginTempTestCase {
    override var temporaryName: String { "folio-validate-truth" }

    enum Defect: String {
        /// render returns 80 MiB, at once.
        case bigRender = "BIG_RENDER"
        /// apply 'grow' describes itself in 100 MiB.
        case bigDescription = "BIG_DESCRIPTION"
        /// render tries the user's terminal and to write a file, says what it got on stderr, and fails.
        case probe = "PROBE"
        /// render takes 1.5 s.
        case slowRender = "SLOW_RENDER"
        /// apply 'grow' writes a Swift-like fatal error on stderr and aborts.
        case crashWithCause = "CRASH_WITH_CAUSE"
        /// render says what it renders on stderr, then renders.
        case noteOnStderr = "NOTE_ON_STDERR"
    }

    /// "truth": one editor for `org.test.truth` documents with one command, `grow`.
    private func source(_ defects: [Defect], marker: String = "/nonexistent") -> String {
        defects.map { "#define \($0.rawValue) 1\n" }.joined() + """
        #include "folio_plugin.h"
        #include <errno.h>
        #include <fcntl.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <unistd.h>
        struct folio_document { int n; };
        static void t_free(folio_buffer *b) { free(b->data); }
        static folio_status t_fill(folio_buffer *b, size_t n) {
            char *data = malloc(n + 1); if (!data) return FOLIO_STATUS_OUT_OF_MEMORY;
            memset(data, 'x', n); for (size_t i = 79; i < n; i += 80) data[i] = '\\n';
            data[n] = 0; b->data = data; b->size = n; b->release = t_free; return FOLIO_STATUS_OK;
        }
        static folio_status t_set(folio_buffer *b, const char *text) {
            size_t n = strlen(text); b->data = malloc(n + 1); if (!b->data) return FOLIO_STATUS_OUT_OF_MEMORY;
            memcpy(b->data, text, n + 1); b->size = n; b->release = t_free; return FOLIO_STATUS_OK;
        }
        static folio_status t_open(const folio_editor *e, const uint8_t *b, size_t s, folio_document **out, folio_buffer *err) {
            *out = calloc(1, sizeof **out); return *out ? FOLIO_STATUS_OK : FOLIO_STATUS_OUT_OF_MEMORY;
        }
        static folio_status t_apply(const folio_editor *e, const folio_document *d, const char *c, const char *a, const folio_selection *s,
                                    folio_document **out, folio_buffer *desc, folio_buffer *err) {
            if (strcmp(c, "grow") != 0) { t_set(err, "no such command"); return FOLIO_STATUS_UNKNOWN_COMMAND; }
        #ifdef CRASH_WITH_CAUSE
            fprintf(stderr, "Fatal error: Index out of range\\n"); fflush(stderr); abort();
        #endif
            *out = calloc(1, sizeof **out); if (!*out) return FOLIO_STATUS_OUT_OF_MEMORY;
        #ifdef BIG_DESCRIPTION
            return t_fill(desc, (size_t)100 << 20);
        #else
            return t_set(desc, "Grew");
        #endif
        }
        static folio_status t_serialize(const folio_editor *e, const folio_document *d, folio_buffer *out, folio_buffer *err) { return t_set(out, ""); }
        static folio_status t_render(const folio_editor *e, const folio_document *d, uint32_t w, uint32_t h, const folio_selection *s,
                                     folio_buffer *out, folio_buffer *err) {
        #ifdef PROBE
            int tty = open("/dev/tty", O_WRONLY);
            fprintf(stderr, "tty: %s\\n", tty < 0 ? strerror(errno) : "opened"); if (tty >= 0) { (void)!write(tty, "PWNED\\n", 6); close(tty); }
            int file = open("\(marker)", O_WRONLY | O_CREAT, 0644);
            fprintf(stderr, "file: %s\\n", file < 0 ? strerror(errno) : "written"); if (file >= 0) close(file);
            t_set(err, "probed"); return FOLIO_STATUS_INTERNAL;
        #endif
        #ifdef SLOW_RENDER
            usleep(1500000);
        #endif
        #ifdef NOTE_ON_STDERR
            fprintf(stderr, "truth: rendering %ux%u\\n", w, h); fflush(stderr);
        #endif
        #ifdef BIG_RENDER
            return t_fill(out, (size_t)80 << 20);
        #else
            return t_set(out, "t");
        #endif
        }
        static void t_release(const folio_editor *e, folio_document *d) { free(d); }
        static const folio_command_info grow = { sizeof(folio_command_info), 0, "grow", "Grow", "", "grow" };
        static const folio_command_info *const commands[] = { &grow };
        \(PluginCSource.plainTextType("org.test.truth", extension: "truth", description: "Truth"))
        static const folio_editor editor = {
            .struct_size = sizeof(folio_editor), .priority = FOLIO_PRIORITY_DEFAULT, .id = "truth", .name = "Truth",
            .content_types = types, .content_type_count = 1, .declared_types = declared, .declared_type_count = 1,
            .commands = commands, .command_count = 1,
            .open = t_open, .apply = t_apply, .serialize = t_serialize, .render = t_render, .release = t_release,
        };
        \(PluginCSource.descriptor(id: "org.test.truth", name: "Truth"))
        """
    }

    private func library(_ defects: [Defect], marker: String = "/nonexistent") throws -> URL {
        let folder = temp.path("build-" + (defects.map(\.rawValue).joined(separator: "-") + "clean"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(folder.path, 0o755)
        return try PluginFixtures.compilePlugin(source(defects, marker: marker), named: "libtruth.so", in: folder)
    }

    private func validate(_ library: URL, _ options: String...) -> RunResult {
        runFolio(["plugins", "validate", library.path] + options, environment: temp.environment(), cwd: temp.url)
    }

    /// The lines of a failed test's block in validate's output (its FAIL line and the indented lines under it).
    private func block(_ name: String, in output: String) -> [String] {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: "FAIL \(name)") else { return [] }
        return [lines[start]] + lines[(start + 1)...].prefix { $0.hasPrefix("  ") }
    }

    func testGivenARenderOverTheAnswerLimitWhenValidatedThenItIsNamedAsOverTheLimitNotAsATimeoutWhateverTheDeadline() throws {
        let big = try library([.bigRender])
        for options in [["--only", "render"], ["--only", "render", "--render-deadline", "20000"]] {
            // When validated (with Folio's deadlines, then with a long render deadline)
            let result = runFolio(["plugins", "validate", big.path] + options, environment: temp.environment(), cwd: temp.url)
            // Then both renders fail as real use fails them: over the 64 MiB limit, not timed out
            XCTAssertEqual(result.status, 1, result.stdout)
            for size in ["1x1", "500x200"] {
                let failure = block("render/truth/\(size)", in: result.stdout).joined(separator: "\n")
                XCTAssertTrue(failure.contains("the plugin returned 83886080 bytes") && failure.contains("over the limit of 67108864"), "\(options): \(failure)")
                XCTAssertFalse(failure.contains("timed out"), failure)
            }
        }
    }

    func testGivenAnApplyDescribingItselfInHundredsOfMebibytesWhenValidatedThenItFailsAsFolioRefusesItInRealUse() throws {
        // Given a plugin whose every apply describes itself in 100 MiB (which the old validator passed, 55/55)
        let result = validate(try library([.bigDescription]), "--only", "commands/truth/grow")
        // Then the valid call fails, over the limit
        XCTAssertEqual(result.status, 1, result.stdout)
        XCTAssertTrue(result.stdout.contains("FAIL commands/truth/grow/missing"), result.stdout)
        XCTAssertTrue(block("commands/truth/grow/missing", in: result.stdout).joined().contains("the plugin returned 104857600 bytes while apply 'grow'"),
                      result.stdout)
    }

    func testGivenThePluginsOwnStderrWhenATestCrashesThenItsLastLinesAreShownUnderTheTest() throws {
        let result = validate(try library([.crashWithCause]), "--only", "commands/truth/grow/missing")
        let failure = block("commands/truth/grow/missing", in: result.stdout)
        XCTAssertTrue(failure.contains { $0.contains("crashed (SIGABRT)") }, result.stdout)
        XCTAssertTrue(failure.contains("  stderr: Fatal error: Index out of range"), result.stdout)
        // And --json carries the same lines
        let json = validate(try library([.crashWithCause]), "--only", "commands/truth/grow/missing", "--json")
        XCTAssertTrue(json.stdout.contains("Fatal error: Index out of range"), json.stdout)
    }

    func testGivenAPluginReachingForTheTerminalAndTheFileSystemWhenValidatedThenBothAreRefusedAsInRealUse() throws {
        // Given a plugin whose render opens /dev/tty and creates a file
        let marker = temp.path("planted").path
        let result = validate(try library([.probe], marker: marker), "--only", "render/truth/1x1")
        // Then the test process was confined: both opens failed with EPERM (not "no such device": there is no terminal
        // to reach here either, but confinement refuses it first), each named, and nothing was written
        let failure = block("render/truth/1x1", in: result.stdout)
        XCTAssertTrue(failure.contains("  stderr: tty: Operation not permitted"), result.stdout)
        XCTAssertTrue(failure.contains("  stderr: file: Operation not permitted"), result.stdout)
        XCTAssertTrue(failure.contains { $0.contains("refused file-write") }, result.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker))
    }

    func testGivenASlowRenderWhenValidatedThenFoliosOneSecondAppliesUnlessTheRenderDeadlineSaysOtherwise() throws {
        let slow = try library([.slowRender])
        // When validated with the defaults, then the 1.5 s render misses Folio's 1 s
        let strict = validate(slow, "--only", "render/truth/1x1")
        XCTAssertEqual(strict.status, 1, strict.stdout)
        XCTAssertTrue(block("render/truth/1x1", in: strict.stdout).contains("  timed out: did not finish within 1 s (while render 1x1)"), strict.stdout)
        // When given 4 s, then it passes, and the rerun line would give the same
        let relaxed = validate(slow, "--only", "render/truth/1x1", "--render-deadline", "4000")
        XCTAssertEqual(relaxed.status, 0, relaxed.stdout)
        XCTAssertTrue(relaxed.stdout.contains("pass render/truth/1x1"), relaxed.stdout)
    }

    func testGivenListAndOnlyWhenValidatedThenTheTestsAreNamedAndOnlyTheChosenOnesRun() throws {
        let clean = try library([])
        // When listed, then every test is named and none but the descriptor runs
        let listed = validate(clean, "--list")
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let names = listed.stdout.split(separator: "\n").map(String.init)
        for name in ["descriptor", "documents/truth/huge", "render/truth/1x1", "commands/truth/grow/missing", "buffers/truth",
                     "calls/truth/empty", "generated/truth/render/7x3"] {
            XCTAssertTrue(names.contains(name), "\(name) in \(names)")
        }
        XCTAssertFalse(listed.stdout.contains("pass "), listed.stdout)
        // When one test is chosen, then only it runs; a group name runs its tests
        let one = validate(clean, "--only", "render/truth/1x1")
        XCTAssertEqual(one.stdout.split(separator: "\n").filter { $0.hasPrefix("pass") || $0.hasPrefix("FAIL") }, ["pass render/truth/1x1"], one.stdout)
        XCTAssertTrue(one.stdout.hasSuffix(": 1 test, 1 passed, 0 failed\n"), one.stdout)
        let group = validate(clean, "--only", "render")
        XCTAssertEqual(group.stdout.split(separator: "\n").filter { $0.hasPrefix("pass") }, ["pass render/truth/1x1", "pass render/truth/500x200"], group.stdout)
        // And with a sample given, the listed names are the ones a run gives its tests
        let sample = try temp.write("mine.truth", "")
        let withSample = validate(clean, "--list", "--document", sample.path).stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(withSample.contains("calls/truth/sample-1-mine.truth"), "\(withSample)")
        let chosen = validate(clean, "--document", sample.path, "--only", "calls/truth/sample-1-mine.truth")
        XCTAssertEqual(chosen.stdout.split(separator: "\n").filter { $0.hasPrefix("pass") || $0.hasPrefix("FAIL") }, ["pass calls/truth/sample-1-mine.truth"],
                       chosen.stdout)
        // And a name no test has is one line saying how to list them
        let unknown = validate(clean, "--only", "rendr")
        XCTAssertEqual(unknown.status, 1)
        XCTAssertEqual(unknown.stderr.split(separator: "\n").count, 1, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("no test named 'rendr'") && unknown.stderr.contains("--list"), unknown.stderr)
    }

    func testGivenAPluginThatWritesOnStderrWhenADocumentIsViewedThenPluginsLogPrintsWhatItWrote() throws {
        // Given the plugin on FOLIO_PLUGIN_PATH and a document it edits
        let library = try library([.noteOnStderr])
        let env = temp.environment(["FOLIO_PLUGIN_PATH": library.deletingLastPathComponent().path])
        func folio(_ arguments: String...) -> RunResult { runFolio(arguments, environment: env, cwd: temp.url) }
        XCTAssertFalse(folio("plugins", "log", "org.test.truth").stdout.contains("truth: rendering"))
        XCTAssertEqual(folio("new", "doc", "--type", "org.test.truth").status, 0)
        // When it is viewed, at two sizes
        XCTAssertEqual(folio("view", "doc", "--width", "40", "--height", "5").status, 0)
        XCTAssertEqual(folio("view", "doc", "--width", "60", "--height", "7").status, 0)
        // Then its log holds what it wrote, by plugin id or by editor id
        let log = folio("plugins", "log", "org.test.truth")
        XCTAssertEqual(log.status, 0, log.stderr)
        XCTAssertTrue(log.stdout.contains("truth: rendering 40x5\n") && log.stdout.contains("truth: rendering 60x7\n"), log.stdout)
        XCTAssertTrue(log.stdout.contains("loaded org.test.truth 1.0.0"), log.stdout)
        XCTAssertEqual(folio("plugins", "log", "truth").stdout, log.stdout)
        // And an unknown plugin is one line
        let unknown = folio("plugins", "log", "org.test.nope")
        XCTAssertEqual(unknown.status, 1)
        XCTAssertEqual(unknown.stderr.split(separator: "\n").count, 1, unknown.stderr)
    }

    func testGivenAPluginThatCrashesInAnEditWhenTheErrorIsShownThenItSaysWhereItsLogIsAndTheLogHoldsTheCause() throws {
        // Given the crashing plugin on FOLIO_PLUGIN_PATH and a document it edits
        let library = try library([.crashWithCause])
        let env = temp.environment(["FOLIO_PLUGIN_PATH": library.deletingLastPathComponent().path])
        func folio(_ arguments: String...) -> RunResult { runFolio(arguments, environment: env, cwd: temp.url) }
        XCTAssertEqual(folio("new", "doc", "--type", "org.test.truth").status, 0)
        // When an edit crashes it
        let edit = folio("edit", "doc", "grow")
        // Then the one line names the crash and where to read what the plugin wrote, and the log has the cause
        XCTAssertEqual(edit.status, 1, edit.stdout)
        XCTAssertEqual(edit.stderr.split(separator: "\n").count, 1, edit.stderr)
        XCTAssertTrue(edit.stderr.contains("crashed (SIGABRT)") && edit.stderr.contains("'folio plugins log truth'"), edit.stderr)
        XCTAssertTrue(folio("plugins", "log", "truth").stdout.contains("Fatal error: Index out of range"))
    }

    func testGivenAPluginProjectFolderWhenValidatedThenItsBuildIsValidatedWithItsSamplesAndPathsOutOfItAreRefused() throws {
        // Given a project with its build in build/ and a sample in samples/
        let project = temp.path("project")
        try FileManager.default.createDirectory(at: project.appendingPathComponent("build"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try library([]), to: project.appendingPathComponent("build/libtruth.so"))
        _ = try temp.write("project/samples/one.truth", "")
        // When the folder is validated, then its build runs, from its sample
        let names = validate(project, "--list").stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(names.contains("calls/truth/sample-1-one.truth"), "\(names)")
        let run = validate(project, "--only", "calls/truth/sample-1-one.truth")
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.hasPrefix("pass calls/truth/sample-1-one.truth\n"), run.stdout)
        XCTAssertTrue(run.stdout.contains(project.appendingPathComponent("build/libtruth.so").path), run.stdout)
        // And a samples folder out of the project is refused in one line naming folio-pack.json
        try Data(#"{"samples": "../elsewhere"}"#.utf8).write(to: project.appendingPathComponent("folio-pack.json"))
        let refused = validate(project)
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("folio-pack.json") && refused.stderr.contains("leaves the project"), refused.stderr)
    }
}
