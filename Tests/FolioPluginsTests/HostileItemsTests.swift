import FolioCore
@testable import FolioPlugins
import FolioCLITestSupport
import Foundation
import XCTest

/// A plugin's `folio.items/1` answers are checked where they come in: a list that repeats a key or matches an item
/// the earlier version does not have is refused in one line, control characters in summaries never reach a
/// screen, and a take that touches another item is refused with nothing written.
final class HostileItemsTests: XCTestCase {
    /// "lines": one item per line of the file; `defines` make one answer hostile.
    static func source(_ defines: [String]) -> String {
        defines.map { "#define \($0) 1\n" }.joined() + """
        #include "folio_plugin.h"
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        struct folio_document { size_t size; uint8_t bytes[]; };
        static folio_status l_open(const folio_editor *e, const uint8_t *b, size_t n, folio_document **out, folio_buffer *err) {
            folio_document *d = malloc(sizeof *d + n + 1); if (!d) return FOLIO_STATUS_OUT_OF_MEMORY;
            d->size = n; if (n) memcpy(d->bytes, b, n); *out = d; return FOLIO_STATUS_OK; }
        static folio_status l_apply(const folio_editor *e, const folio_document *d, const char *c, const char *a, const folio_selection *s,
                                    folio_document **out, folio_buffer *desc, folio_buffer *err) { return folio_fail(err, FOLIO_STATUS_UNKNOWN_COMMAND, "none"); }
        static folio_status l_serialize(const folio_editor *e, const folio_document *d, folio_buffer *out, folio_buffer *err) {
            return folio_buffer_set(out, d->bytes, d->size); }
        static folio_status l_render(const folio_editor *e, const folio_document *d, uint32_t w, uint32_t h, const folio_selection *s,
                                     folio_buffer *out, folio_buffer *err) { return folio_buffer_set(out, "lines", w < 5 ? w : 5); }
        static void l_release(const folio_editor *e, folio_document *d) { free(d); }
        static size_t count_lines(const uint8_t *b, size_t n) { size_t c = 0; for (size_t i = 0; i < n; i++) if (b[i] == '\\n') c++; return c; }
        static folio_status l_list(const folio_editor *e, const uint8_t *prev, size_t prev_size, const uint8_t *b, size_t n,
                                   folio_buffer *out, folio_buffer *err) {
            char text[8192]; size_t used = 0, line = 1, start = 0, before = prev ? count_lines(prev, prev_size) : 0;
            for (size_t i = 0; i < n && used < sizeof text - 300; i++) {
                if (b[i] != '\\n') continue;
                char previous[16] = ""; if (line <= before) snprintf(previous, sizeof previous, "%zu", line);
        #ifdef BAD_PREVIOUS
                if (prev && line == 2) snprintf(previous, sizeof previous, "99");
        #endif
                unsigned long long hash = 1469598103934665603ULL; for (size_t k = start; k < i; k++) hash = (hash ^ b[k]) * 1099511628211ULL;
        #ifdef REPEAT_KEY
                size_t key = 1;
        #else
                size_t key = line;
        #endif
        #ifdef ESCAPES
                used += (size_t)snprintf(text + used, sizeof text - used, "%zu\\t%s\\t%llx\\t\\x1b[2J\\xe2\\x80\\xae%.*s\\x07\\n", key, previous, hash, (int)(i - start), b + start);
        #else
                used += (size_t)snprintf(text + used, sizeof text - used, "%zu\\t%s\\t%llx\\t%.*s\\n", key, previous, hash, (int)(i - start), b + start);
        #endif
                line++; start = i + 1;
            }
            return folio_buffer_set(out, text, used);
        }
        /* Takes line K of `from` in place of line K of `into` (or appends it); with TAKE_CHANGES_OTHERS it also adds a line. */
        static folio_status l_take(const folio_editor *e, const uint8_t *from, size_t from_size, const uint8_t *into, size_t into_size,
                                   const char *const *fk, const char *const *ik, size_t count, folio_buffer *out, folio_buffer *desc, folio_buffer *err) {
            size_t extra = 0;
        #ifdef TAKE_CHANGES_OTHERS
            extra = 6;
        #endif
            uint8_t *result = malloc(into_size + from_size + extra + 1); if (!result) return FOLIO_STATUS_OUT_OF_MEMORY;
            memcpy(result, into, into_size);
            if (extra) memcpy(result + into_size, "extra\\n", 6);
            folio_status status = folio_buffer_set(out, result, into_size + extra);
            free(result);
            return status == FOLIO_STATUS_OK ? folio_buffer_set(desc, "took", 4) : status;
        }
        static const folio_items_v1 items = { sizeof(folio_items_v1), 0, l_list, l_take };
        static const void *l_extension(const folio_editor *e, const char *id) { return strcmp(id, FOLIO_EXTENSION_ITEMS) == 0 ? &items : NULL; }
        static const char *const types[] = {"org.test.lines"};
        static const char *const parents[] = {"public.plain-text"};
        static const folio_type_declaration type = {sizeof(folio_type_declaration), 0, "org.test.lines", parents, 1, NULL, 0, "Lines"};
        static const folio_type_declaration *const declared[] = {&type};
        static const folio_editor editor = {sizeof(folio_editor), FOLIO_PRIORITY_DEFAULT, "lines", "Lines", types, 1, declared, 1, NULL, 0, NULL,
            l_open, l_apply, l_serialize, l_render, l_release, l_extension};
        static const folio_editor *const editors[] = {&editor};
        static const folio_plugin_descriptor descriptor = {FOLIO_PLUGIN_MAGIC, FOLIO_PLUGIN_ABI_MAJOR, FOLIO_PLUGIN_ABI_MINOR,
            sizeof(folio_plugin_descriptor), 0, "org.test.lines", "Lines", "1.0.0", editors, 1};
        __attribute__((visibility("default"))) const folio_plugin_descriptor *folio_plugin_entry(void) { return &descriptor; }
        """
    }

    /// A document of the "lines" editor with two versions (three lines, then the second changed), and a host for it.
    private var temp: TemporaryDirectory!
    private var env: [String: String] = [:]

    override func tearDown() { temp = nil }

    private func setUp(_ defines: [String]) throws -> (EditorRegistry, Document) {
        temp = TemporaryDirectory("folio-hostile-items")
        let folder = try PluginFixtures.temporaryFolder(self)
        _ = try PluginFixtures.compilePlugin(Self.source(defines), named: "liblines.so", in: folder)
        env = temp.environment(["FOLIO_PLUGIN_PATH": folder.path])
        let host = EditorRegistry(searchPath: PluginSearchPath(folders: [.init(folder, bundled: false)]))
        let store = DocumentStore(settings: Settings(sync: .none), environment: env)
        let document = try store.create(at: temp.path("doc"), contentType: ContentType("org.test.lines"), title: "doc")
        try document.write(Data("one\ntwo\nthree\n".utf8), to: document.metadata.primaryFile, message: "three lines")
        try document.write(Data("one\nTWO\nthree\n".utf8), to: document.metadata.primaryFile, message: "second changed")
        return (host, document)
    }

    func testGivenAListThatRepeatsAKeyWhenAnItemsHistoryIsAskedThenItIsRefusedInOneLineNamingTheEditorAndTheLine() throws {
        let (host, document) = try setUp(["REPEAT_KEY"])
        XCTAssertThrowsError(try host.itemHistory(document: document, item: "1")) { error in
            XCTAssertEqual("\(error)".split(separator: "\n").count, 1)
            XCTAssertTrue("\(error)".contains("lines"), "\(error)")
            XCTAssertTrue("\(error)".contains("line 2 of the item list repeats the key '1'"), "\(error)")
        }
    }

    func testGivenAListMatchingAnItemTheEarlierVersionDoesNotHaveWhenAnItemsHistoryIsAskedThenItIsRefused() throws {
        let (host, document) = try setUp(["BAD_PREVIOUS"])
        XCTAssertThrowsError(try host.itemHistory(document: document, item: "2")) { error in
            XCTAssertTrue("\(error)".contains("is matched with '99', which the earlier version does not have"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: document.url.appendingPathComponent(".git/folio/item-history").path),
                       "nothing from a refused answer is kept")
    }

    func testGivenSummariesWithControlCharactersWhenAnItemsHistoryIsShownThenTheyCannotDriveTheTerminal() throws {
        let (host, document) = try setUp(["ESCAPES"])
        // The library's summaries are one line without C0 controls (escape, bell)
        let history = try host.itemHistory(document: document, item: "2")
        XCTAssertEqual(history.changes.map(\.kind), [.changed, .added])
        for text in [history.summary] + history.changes.flatMap({ [$0.summary, $0.previousSummary ?? "", $0.change] }) {
            XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, text.debugDescription)
        }
        XCTAssertTrue(history.summary.hasSuffix("TWO"), history.summary.debugDescription)
        // And the command line shows the bidi override as a visible escape, not as itself
        let printed = runFolio(["log", document.url.path, "--item", "2"], environment: env, cwd: temp.url)
        XCTAssertEqual(printed.status, 0, printed.stderr)
        XCTAssertFalse(printed.stdout.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x1B }, printed.stdout.debugDescription)
        XCTAssertTrue(printed.stdout.contains("\\u{202E}TWO"), printed.stdout)
    }

    func testGivenATakeThatAddsAnotherItemWhenAnItemIsRestoredThenItIsRefusedAndNothingIsWritten() throws {
        let (host, document) = try setUp(["TAKE_CHANGES_OTHERS"])
        let versions = try document.log().count
        let before = try document.read(path: document.metadata.primaryFile)
        XCTAssertThrowsError(try host.restoreItem(document: document, item: "2", from: "HEAD~1")) { error in
            XCTAssertEqual(error as? ItemError, .takeChangedOthers(editor: "lines", item: "2"))
            XCTAssertEqual("\(error)", "editor 'lines' changed other items while putting back item '2'; nothing was changed")
        }
        XCTAssertEqual(try document.log().count, versions)
        XCTAssertEqual(try document.read(path: document.metadata.primaryFile), before)
    }

    func testGivenAnySummaryWhenAListIsReadThenItIsMadeSafeExactlyAsEveryOtherPluginLineIs() {
        // The list reader's shortcut for plain summaries gives what PluginText.description gives, for every kind of text
        let samples = ["[x] Milk", " lead", "trail ", "two  spaces", "", "tab\there", "é accent", String(repeating: "a", count: 200),
                       String(repeating: "b", count: 201), "\u{1B}[2J", "x\u{7F}y", "bidi\u{202E}", "nul\u{0}byte", " ", "a b c"]
        for sample in samples {
            XCTAssertEqual(EditorItem.summary(ArraySlice(Array(sample.utf8))), PluginText.description(sample), sample.debugDescription)
        }
    }
}
