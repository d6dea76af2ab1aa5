import FolioCore
@testable import FolioCLI
import FolioLaunch
@testable import FolioPlugins
// `runFolio` moves from FolioTestSupport to FolioCLITestSupport on main (7bee51b); this file compiles on both sides.
#if canImport(FolioCLITestSupport)
import FolioCLITestSupport
#endif
import FolioTestSupport
import Foundation
import XCTest

/// A command that needs the selection gets the window's cursor and range through the ABI's `folio_selection`, even
/// when its usage names no item argument: from the editor host (`AppEffect.runEditorCommand`'s selection → the
/// document session → the plugin host process → `apply`) and from `folio edit --selection`.
final class CommandSelectionTests: XCTestCase {
    /// "marks": a document of lines; `mark` (needs a selection, no arguments) appends and describes the selection it got.
    static let source = """
    #include "folio_plugin.h"
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>

    struct folio_document { size_t size; char bytes[]; };
    static void m_free(folio_buffer *b) { free(b->data); }
    static folio_status m_set(folio_buffer *b, const char *text, size_t size) {
        b->data = malloc(size + 1);
        if (!b->data) return FOLIO_STATUS_OUT_OF_MEMORY;
        memcpy(b->data, text, size); b->size = size; b->release = m_free;
        return FOLIO_STATUS_OK;
    }
    static folio_document *m_new(const char *bytes, size_t size, const char *more) {
        size_t extra = more ? strlen(more) : 0;
        folio_document *d = malloc(sizeof *d + size + extra);
        if (!d) return NULL;
        memcpy(d->bytes, bytes, size);
        if (extra) memcpy(d->bytes + size, more, extra);
        d->size = size + extra;
        return d;
    }
    static folio_status m_open(const folio_editor *e, const uint8_t *bytes, size_t size, folio_document **out, folio_buffer *err) {
        (void)e; (void)err;
        *out = m_new((const char *)bytes, size, NULL);
        return *out ? FOLIO_STATUS_OK : FOLIO_STATUS_OUT_OF_MEMORY;
    }
    static folio_status m_apply(const folio_editor *e, const folio_document *doc, const char *cmd, const char *args,
                                const folio_selection *sel, folio_document **out, folio_buffer *desc, folio_buffer *err) {
        (void)e; (void)args;
        if (strcmp(cmd, "mark") != 0) return folio_fail(err, FOLIO_STATUS_UNKNOWN_COMMAND, "unknown command");
        char line[96];
        if (!sel) snprintf(line, sizeof line, "no selection\\n");
        else if (sel->struct_size < sizeof(folio_selection)) snprintf(line, sizeof line, "a short selection\\n");
        else snprintf(line, sizeof line, "cursor %lld anchor %lld\\n", (long long)sel->cursor, (long long)sel->anchor);
        *out = m_new(doc->bytes, doc->size, line);
        if (!*out) return FOLIO_STATUS_OUT_OF_MEMORY;
        char said[104]; snprintf(said, sizeof said, "marked %.*s", (int)strlen(line) - 1, line);
        return m_set(desc, said, strlen(said));
    }
    static folio_status m_serialize(const folio_editor *e, const folio_document *doc, folio_buffer *out, folio_buffer *err) {
        (void)e; (void)err;
        return m_set(out, doc->bytes, doc->size);
    }
    static folio_status m_render(const folio_editor *e, const folio_document *doc, uint32_t w, uint32_t h,
                                 const folio_selection *sel, folio_buffer *out, folio_buffer *err) {
        (void)e; (void)w; (void)h; (void)sel; (void)err;
        return m_set(out, doc->bytes, doc->size);
    }
    static void m_release(const folio_editor *e, folio_document *doc) { (void)e; free(doc); }
    static const folio_command_info mark = { sizeof(folio_command_info), FOLIO_COMMAND_NEEDS_SELECTION, "mark", "Mark", "m", "mark" };
    static const folio_command_info *const commands[] = { &mark };
    static const char *const types[] = { "org.test.marks" };
    static const char *const conforms[] = { "public.plain-text" };
    static const char *const extensions[] = { "marks" };
    static const folio_type_declaration marks_type = { sizeof(folio_type_declaration), 0, "org.test.marks", conforms, 1, extensions, 1, "Marks" };
    static const folio_type_declaration *const declared[] = { &marks_type };
    static const folio_editor editor = {
        .struct_size = sizeof(folio_editor), .priority = FOLIO_PRIORITY_DEFAULT, .id = "marks", .name = "Marks",
        .content_types = types, .content_type_count = 1, .declared_types = declared, .declared_type_count = 1,
        .commands = commands, .command_count = 1,
        .open = m_open, .apply = m_apply, .serialize = m_serialize, .render = m_render, .release = m_release,
    };
    static const folio_editor *const editors[] = { &editor };
    static const folio_plugin_descriptor descriptor = {
        .magic = FOLIO_PLUGIN_MAGIC, .abi_major = FOLIO_PLUGIN_ABI_MAJOR, .abi_minor = FOLIO_PLUGIN_ABI_MINOR,
        .struct_size = sizeof(folio_plugin_descriptor), .id = "test.marks", .name = "Marks", .version = "1.0.0",
        .editors = editors, .editor_count = 1,
    };
    const folio_plugin_descriptor *folio_plugin_entry(void) { return &descriptor; }
    """

    var temp: TemporaryDirectory!
    var env: [String: String] = [:]
    var document: URL { temp.path("notes") }

    override func setUpWithError() throws {
        temp = TemporaryDirectory("folio-selection")
        env = temp.environment(["FOLIO_PLUGIN_PATH": temp.path("plugins").path])
        try FileManager.default.createDirectory(at: temp.path("plugins"), withIntermediateDirectories: true)
        _ = try PluginFixtures.compilePlugin(Self.source, named: "libmarks.so", in: temp.path("plugins"))
        let created = runFolio(["new", "notes", "--type", "org.test.marks"], environment: env, cwd: temp.url)
        XCTAssertEqual(created.status, 0, created.stderr)
    }

    override func tearDown() {
        temp = nil
        super.tearDown()
    }

    private func lastMessage() throws -> String {
        try DocumentStore(environment: env).open(at: document).head().summary
    }

    func testGivenARangeSelectedUpwardsInTheEditorHostWhenANeedsSelectionCommandWithoutArgumentsRunsThenThePluginGetsCursorAndAnchor() async throws {
        let session = try DocumentSessionAdapter(url: document, environment: env)
        XCTAssertEqual(session.commands().first?.needsSelection, true, "the command asks for a selection and takes no argument")
        XCTAssertEqual(session.commands().first?.argumentNames, [])
        // Items 2…4 selected from the bottom: the cursor on item 2 (index 1), the anchor on item 4 (index 3).
        try await session.perform(.runEditorCommand("mark", arguments: [], selection: ViewSelection.items(cursor: 1, anchor: 3)))
        XCTAssertEqual(try lastMessage(), "marked cursor 2 anchor 4", "items from 1 in the ABI")
        try await session.perform(.runEditorCommand("mark", arguments: [], selection: ViewSelection.items(cursor: 0)))
        XCTAssertEqual(try lastMessage(), "marked cursor 1 anchor 0", "no range: anchor 0")
        let text = String(decoding: try Data(contentsOf: document.appendingPathComponent(try DocumentStore(environment: env).open(at: document).metadata.primaryFile)), as: UTF8.self)
        XCTAssertTrue(text.hasSuffix("cursor 2 anchor 4\ncursor 1 anchor 0\n"), text)
    }

    func testGivenARangeOnTheCommandLineWhenEditedThenThePluginGetsItWithTheCursorOnItsSecondEnd() throws {
        let ranged = runFolio(["edit", "notes", "mark", "--selection", "2-4"], environment: env, cwd: temp.url)
        XCTAssertEqual(ranged.status, 0, ranged.stderr)
        XCTAssertTrue(ranged.stdout.hasSuffix("marked cursor 4 anchor 2\n"), ranged.stdout)
        let single = runFolio(["edit", "notes", "mark", "--selection", "3"], environment: env, cwd: temp.url)
        XCTAssertTrue(single.stdout.hasSuffix("marked cursor 3 anchor 0\n"), single.stdout)
        let none = runFolio(["edit", "notes", "mark"], environment: env, cwd: temp.url)
        XCTAssertTrue(none.stdout.hasSuffix("marked cursor 0 anchor 0\n"), none.stdout)
    }

    func testGivenAMalformedSelectionOnTheCommandLineWhenEditedThenOneLineAndNothingIsCommitted() throws {
        let before = try DocumentStore(environment: env).open(at: document).head().id
        for bad in ["0", "2-", "-3", "x", "1-2-3", "99999999999999999999", ""] {
            let result = runFolio(["edit", "notes", "mark", "--selection", bad], environment: env, cwd: temp.url)
            XCTAssertNotEqual(result.status, 0, bad)
            let lines = result.stderr.split(separator: "\n")
            XCTAssertEqual(lines.first, "folio edit: option --selection needs an item number N or a range A-B (items from 1), got '\(bad)'")
            XCTAssertEqual(lines.dropFirst().map(String.init), ["usage: folio edit PATH COMMAND [ARGS...] [--selection N|A-B] [--editor ID] [--json]"])
        }
        XCTAssertEqual(try DocumentStore(environment: env).open(at: document).head().id, before)
    }
}
