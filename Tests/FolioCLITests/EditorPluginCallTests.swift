import FolioCLI
import FolioCore
import FolioCLITestSupport
import Foundation
import XCTest

/// The editor host while a plugin call runs, driven in tmux like a user would: a small C plugin ("tally", a count)
/// whose `c` command segfaults and whose `s` command spins is installed on `FOLIO_PLUGIN_PATH`; `i` counts up; a
/// count of 7 makes its render spin.
/// Each pane runs `stty -g >before; folio open DOC; echo FOLIO-EXIT=$?; stty -g >after; sleep 30`. Every wait polls
/// the pane with short sleeps and is bounded; tearDown kills the tmux server (and with it any folio left).
final class EditorPluginCallTests: TmuxTestCase {
    override var session: String { "calls" }
    override var defaultTimeout: TimeInterval { 6 }
    var document: URL { dir.path("count") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        env["FOLIO_PLUGIN_PATH"] = dir.path("plugins").path
        try buildTally()
        let created = runFolio(["new", "count", "--type", "org.test.tally"], environment: env, cwd: dir.url)
        XCTAssertEqual(created.status, 0, created.stderr)
    }

    // MARK: Tests

    func testGivenACommandThatCrashesThePluginWhenRunInTheEditorThenOneLineAndTheNextCommandCommits() throws {
        try openEditor(callSeconds: 5)
        try keys("c")
        // The plugin's own last words (from its log) are in the one line
        let crashed = waitFor(text: "crashed (SIGSEGV) in 'crash'; it wrote 'Fatal error: boom'")
        XCTAssertTrue(crashed.contains("tally 0"), "the view stays on screen:\n\(crashed)")
        XCTAssertEqual(commitCount(), 1, "the crash committed nothing")
        try keys("i")
        let counted = waitFor(text: "tally 1")
        XCTAssertTrue(counted.contains("counted 1"), "the status line shows the new commit:\n\(counted)")
        XCTAssertEqual(commitCount(), 2)
        try quitAndAssertRestored()
    }

    func testGivenABusyLoopWhenEscIsPressedAfterTheSpinnerThenItIsCancelledAndTheEditorStaysUsable() throws {
        try openEditorAndSpin(callSeconds: 30)
        let started = Date()
        try keys("Escape")
        let cancelled = waitFor(text: "editor 'tally': 'spin' cancelled; nothing was changed")
        XCTAssertLessThan(Date().timeIntervalSince(started), 3, "Esc, not the 30 s deadline, ended the call")
        XCTAssertFalse(cancelled.contains("tally: spin…"), "the spinner is gone:\n\(cancelled)")
        XCTAssertTrue(cancelled.contains("tally 0"), "the view is still drawn:\n\(cancelled)")
        try press("i", until: "tally 1")
        XCTAssertEqual(commitCount(), 2, "only the count-up committed")
        try quitAndAssertRestored()
    }

    func testGivenABusyLoopWhenTheDeadlinePassesThenTheDeadlineLineShowsAndTheEditorStaysUsable() throws {
        try openEditorAndSpin(callSeconds: 1)
        waitFor(text: "editor 'tally' did not answer 'spin' within 1 s; nothing was changed")
        try press("i", until: "tally 1")
        XCTAssertEqual(commitCount(), 2)
        try quitAndAssertRestored()
    }

    func testGivenABusyLoopWhenCtrlQIsPressedThenFolioExitsAndTheTerminalIsAsBefore() throws {
        try openEditorAndSpin(callSeconds: 30)
        let started = Date()
        try quitAndAssertRestored()
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "^Q did not wait for the deadline")
        XCTAssertEqual(commitCount(), 1)
        XCTAssertTrue(waitUntil { self.hostProcesses().isEmpty }, "a plugin host outlived folio: \(hostProcesses())")
    }

    func testGivenARenderThatSpinsWhenEscIsPressedAfterTheSpinnerThenItIsCancelledAndACommandStillWorks() throws {
        let opened = try DocumentStore(environment: env).open(at: document)
        _ = try opened.write(Data("6\n".utf8), to: opened.metadata.primaryFile, message: "six")
        try openEditor(callSeconds: 30, renderSeconds: 30, showing: "tally 6")
        try press("i", until: "tally: render…")
        XCTAssertEqual(commitCount(), 3, "the command committed before its view spun")
        // One Esc stops the render: the view of that version is not asked for again until the document changes.
        try keys("Escape")
        let cancelled = waitFor(text: "editor 'tally': 'render' cancelled; nothing was changed")
        XCTAssertTrue(cancelled.contains("counted 7"), "the editor stays open on the new commit:\n\(cancelled)")
        try press("i", until: "tally 8")
        try quitAndAssertRestored()
    }

    // MARK: Helpers

    /// Writes the settings with the call deadline, opens the document in a pane and waits for the plugin's view.
    func openEditor(callSeconds: Int, renderSeconds: Int = 1, showing: String = "tally 0") throws {
        _ = try dir.write("home/.config/folio/settings.json",
                          #"{"pluginLimits": {"callSeconds": \#(callSeconds), "renderSeconds": \#(renderSeconds)}}"#)
        let folio = [folioExecutable.path, "open", document.path].map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let command = "stty -g >'\(dir.path("before").path)'; " + folio.joined(separator: " ")
            + "; echo FOLIO-EXIT=$?; stty -g >'\(dir.path("after").path)'; sleep 30"
        try startShell(command, width: 100, height: 24, cwd: dir.url)
        waitFor(text: showing)
    }

    /// Opens the editor as `openEditor` does and runs `spin` (a busy loop) until its spinner shows.
    func openEditorAndSpin(callSeconds: Int) throws {
        try openEditor(callSeconds: callSeconds)
        try press("s", until: "tally: spin…")
    }

    /// Quits with ^Q and checks that folio exited 0 with the terminal as it was.
    func quitAndAssertRestored(file: StaticString = #filePath, line: UInt = #line) throws {
        try keys("C-q")
        assertExitedAndRestored(file: file, line: line)
    }

    func assertExitedAndRestored(file: StaticString = #filePath, line: UInt = #line) {
        let screen = waitFor("folio to exit", file: file, line: line) { $0.contains("FOLIO-EXIT=") }
        XCTAssertTrue(screen.contains("FOLIO-EXIT=0"), screen, file: file, line: line)
        // The shell creates the file before stty writes its one line into it.
        XCTAssertTrue(waitUntil { (try? String(contentsOf: self.dir.path("after"), encoding: .utf8))?.hasSuffix("\n") == true }, file: file, line: line)
        let before = try? String(contentsOf: dir.path("before"), encoding: .utf8)
        let after = try? String(contentsOf: dir.path("after"), encoding: .utf8)
        XCTAssertNotNil(before, file: file, line: line)
        XCTAssertEqual(before, after, "stty -g before and after folio", file: file, line: line)
        let alternate = (try? tmux(["display-message", "-p", "-t", target, "#{alternate_on}"]))?.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(alternate, "0", "the alternate screen is still on", file: file, line: line)
    }

    func commitCount() -> Int {
        runFolio(["log", document.path], environment: env, cwd: dir.url).stdout.split(separator: "\n").count
    }

    /// Plugin host processes (`folio __plugin-host`) started from this test's folio.
    func hostProcesses() -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { Int32($0) != nil }.compactMap { pid -> String? in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                  let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return nil }
            let command = String(decoding: data, as: UTF8.self)
            let isOurs = String(decoding: environ, as: UTF8.self).contains(dir.url.path)
            return command.contains("__plugin-host") && isOurs ? pid : nil
        }
    }

    func waitUntil(timeout: TimeInterval = 5, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return false
    }

    /// Builds the tally plugin with `cc` into `plugins/` with its manifest.
    func buildTally() throws {
        let folder = dir.path("plugins")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = folder.appendingPathComponent("tally.c")
        try Data(Self.tallySource.utf8).write(to: source)
        let header = repositoryRoot.appendingPathComponent("Sources/FolioPluginABI/include")
        let library = folder.appendingPathComponent("libtally.so")
        let result = try runProgram("cc", ["-shared", "-fPIC", "-I", header.path, "-o", library.path, source.path])
        guard result.status == 0 else { throw XCTSkip("cc could not build the test plugin: \(result.stderr)") }
        try Data(Self.tallyManifest.utf8).write(to: folder.appendingPathComponent("libtally.folio-plugin.json"))
    }

    static let tallyManifest = """
    {"id": "test.tally", "name": "Tally", "version": "1.0.0", "abi": 1, "library": "libtally.so",
     "editors": [{"id": "tally", "name": "Tally", "contentTypes": ["org.test.tally"], "priority": "default",
       "declaredTypes": [{"identifier": "org.test.tally", "conformsTo": ["public.plain-text"], "extensions": ["tally"], "description": "A tally"}],
       "commands": [{"id": "inc", "title": "Count", "shortcut": "i", "usage": "inc", "needsSelection": false},
                    {"id": "crash", "title": "Crash", "shortcut": "c", "usage": "crash", "needsSelection": false},
                    {"id": "spin", "title": "Spin", "shortcut": "s", "usage": "spin", "needsSelection": false}]}]}
    """

    static let tallySource = """
    #include "folio_plugin.h"
    #include <stdlib.h>
    #include <string.h>
    #include <stdio.h>

    struct folio_document { long count; };
    static void t_free(folio_buffer *b) { free(b->data); }
    static folio_status t_set(folio_buffer *b, const char *text) {
        size_t size = strlen(text);
        b->data = malloc(size + 1);
        if (!b->data) return FOLIO_STATUS_OUT_OF_MEMORY;
        memcpy(b->data, text, size + 1); b->size = size; b->release = t_free;
        return FOLIO_STATUS_OK;
    }
    static folio_status t_open(const folio_editor *e, const uint8_t *bytes, size_t size, folio_document **out, folio_buffer *err) {
        folio_document *d = calloc(1, sizeof *d);
        if (!d) return FOLIO_STATUS_OUT_OF_MEMORY;
        char text[32] = {0}; memcpy(text, bytes, size < 31 ? size : 31);
        d->count = strtol(text, NULL, 10);
        *out = d;
        return FOLIO_STATUS_OK;
    }
    static folio_status t_apply(const folio_editor *e, const folio_document *doc, const char *cmd, const char *args,
                                const folio_selection *sel, folio_document **out, folio_buffer *desc, folio_buffer *err) {
        if (strcmp(cmd, "crash") == 0) { fprintf(stderr, "Fatal error: boom\\n"); fflush(stderr); *(volatile int *)0 = 1; }
        if (strcmp(cmd, "spin") == 0) { for (volatile long i = 0;; i++) {} }
        folio_document *d = calloc(1, sizeof *d);
        if (!d) return FOLIO_STATUS_OUT_OF_MEMORY;
        d->count = doc->count + 1;
        *out = d;
        char line[64]; snprintf(line, sizeof line, "counted %ld", d->count);
        return t_set(desc, line);
    }
    static folio_status t_serialize(const folio_editor *e, const folio_document *doc, folio_buffer *out, folio_buffer *err) {
        char text[32]; snprintf(text, sizeof text, "%ld\\n", doc->count);
        return t_set(out, text);
    }
    static folio_status t_render(const folio_editor *e, const folio_document *doc, uint32_t w, uint32_t h,
                                 const folio_selection *sel, folio_buffer *out, folio_buffer *err) {
        if (doc->count == 7) { for (volatile long i = 0;; i++) {} }
        char text[64]; snprintf(text, sizeof text, "tally %ld", doc->count);
        return t_set(out, text);
    }
    static void t_release(const folio_editor *e, folio_document *doc) { free(doc); }
    static const folio_command_info c0 = { sizeof(folio_command_info), 0, "inc", "Count", "i", "inc" };
    static const folio_command_info c1 = { sizeof(folio_command_info), 0, "crash", "Crash", "c", "crash" };
    static const folio_command_info c2 = { sizeof(folio_command_info), 0, "spin", "Spin", "s", "spin" };
    static const folio_command_info *const commands[] = { &c0, &c1, &c2 };
    \(PluginCSource.plainTextType("org.test.tally", extension: "tally", description: "A tally"))
    static const folio_editor editor = {
        .struct_size = sizeof(folio_editor), .priority = FOLIO_PRIORITY_DEFAULT, .id = "tally", .name = "Tally",
        .content_types = types, .content_type_count = 1, .declared_types = declared, .declared_type_count = 1,
        .commands = commands, .command_count = 3,
        .open = t_open, .apply = t_apply, .serialize = t_serialize, .render = t_render, .release = t_release,
    };
    \(PluginCSource.descriptor(id: "test.tally", name: "Tally"))
    """
}
