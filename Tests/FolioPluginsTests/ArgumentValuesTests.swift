import FolioCore
import FolioCLITestSupport
import FolioPluginABI
@testable import FolioPlugins
import Foundation
import XCTest

/// `folio.argument-values/1` (ABI 1.2): the bundled editors give a command's current values for its form to start from,
/// through the plugin host process, and a plugin's answer is checked where it comes in.
final class ArgumentValuesTests: XCTestCase {
    static let story = """
    # Voyage

    ## Act I: Departure

    ### The Call

    It begins at dawn.
    The sea is *calm*.

    ### Silence

    ## Act II: Return

    ### Home

    Back again.
    """

    // MARK: The bundled editors

    func testGivenTheCursorOnAStorySceneWhenSetTextIsAskedThenItsValuesAreTheSceneAndItsWholeText() throws {
        // Given the story open in its plugin's host process (the product's path, over the wire)
        let document = try PluginFixtures.bundledHost().backend("story").openDocument(Data(Self.story.utf8))
        // When the values of set-text and rename-scene are asked with the cursor on row 2 (scene 1.1)
        let setText = try document.argumentValues("set-text", count: 3, selection: ViewSelection(cursor: 2))
        let rename = try document.argumentValues("rename-scene", count: 3, selection: ViewSelection(cursor: 2))
        // Then set-text starts from the whole text (every line, without the blank lines around it), rename from the title
        XCTAssertEqual(setText, ["1", "1", "It begins at dawn.\nThe sea is *calm*."])
        XCTAssertEqual(rename, ["1", "1", "The Call"])
        // And a scene without text starts empty, not "(no text)"
        XCTAssertEqual(try document.argumentValues("set-text", count: 3, selection: ViewSelection(cursor: 3)), ["1", "2", ""])
    }

    func testGivenTheCursorOnASceneWhenRenameActIsAskedThenItsValueIsTheActTitleWithoutItsLabel() throws {
        // Given the story, the cursor on scene 2.1 (row 5)
        let document = try PluginFixtures.bundledHost().backend("story").openDocument(Data(Self.story.utf8))
        // When rename-act's values are asked; Then ACT is the scene's act and TITLE its name without "Act II: "
        XCTAssertEqual(try document.argumentValues("rename-act", count: 2, selection: ViewSelection(cursor: 5)), ["2", "Return"])
        // And a command that has nothing to suggest answers none; an unknown one fails
        XCTAssertNil(try document.argumentValues("delete-act", count: 1, selection: ViewSelection(cursor: 5)))
        XCTAssertThrowsError(try document.argumentValues("bogus", count: 1, selection: ViewSelection(cursor: 5)))
    }

    func testGivenACutTitleInTheChecklistWhenRenameIsAskedThenItsValueIsTheWholeTitle() throws {
        // Given a checklist whose second item's title is longer than any view shows
        let long = String(repeating: "very long ", count: 30) + "end"
        let json = #"{"title": "List", "items": [{"title": "Milk", "checked": false}, {"title": "\#(long)", "checked": true}]}"#
        let document = try PluginFixtures.bundledHost().backend("checklist").openDocument(Data(json.utf8))
        // When rename's values are asked on item 2; Then N is the host's (none) and TITLE the whole title
        XCTAssertEqual(try document.argumentValues("rename", count: 2, selection: ViewSelection(cursor: 2)), [nil, long])
        XCTAssertNil(try document.argumentValues("toggle", count: 1, selection: ViewSelection(cursor: 2)))
    }

    func testGivenAShapeUnderTheCursorWhenResizeColorAndMoveAreAskedThenTheyStartFromItsSizeColourAndPlace() throws {
        // Given two shapes in the host process
        let json = #"{"shapes":[{"kind":"rect","x":0,"y":0,"w":6,"h":3,"color":"red"},{"kind":"ellipse","x":50,"y":2,"w":20,"h":4,"color":"blue"}]}"#
        let documents: [any EditorDocumentHandle] = [try HostedPlugins.bundled.backend("shapes").openDocument(Data(json.utf8))]
        for document in documents {
            // When the values are asked with the cursor on shape 2
            let on2 = ViewSelection(cursor: 2)
            // Then resize starts from its size, color from its colour, move from where it is (move is absolute)
            XCTAssertEqual(try document.argumentValues("resize", count: 3, selection: on2), [nil, "20", "4"])
            XCTAssertEqual(try document.argumentValues("color", count: 2, selection: on2), [nil, "blue"])
            XCTAssertEqual(try document.argumentValues("move", count: 3, selection: on2), [nil, "50", "2"])
            // And on a range 1-2 (cursor on 2, anchor on 1) from its first shape; add and delete have none
            XCTAssertEqual(try document.argumentValues("resize", count: 3, selection: ViewSelection(cursor: 2, anchor: 1)), [nil, "6", "3"])
            XCTAssertNil(try document.argumentValues("add", count: 6, selection: on2))
            XCTAssertNil(try document.argumentValues("delete", count: 1, selection: on2))
        }
    }

    // MARK: The wire and the selection's pan

    func testGivenAValuesRequestWhenEncodedThenItIsKindValuesWithTheSelectionAndPanAsIntegers() throws {
        // Given the request a document sends for set-text with the cursor on row 2, panned (3, -4)
        let selection = ViewSelection(cursor: 2, anchor: 0, scroll: 1, panX: 3, panY: -4)
        let data = PluginWire.encode(.values, sequence: 9, fields: [Data("story".utf8), PluginWire.integerField(5), Data("set-text".utf8)]
                                     + IsolatedDocument.selectionFields(selection))
        // When decoded as the host decodes it
        let (kind, sequence, _) = try PluginWire.decodeHeader(data.prefix(16), cap: 1024)
        let message = PluginWire.Message(kind: kind, sequence: sequence, fields: try PluginWire.decodeFields(data.dropFirst(16)))
        // Then it is a values request (protocol 4) with the command and all five selection integers, the pan last
        XCTAssertEqual(kind, .values)
        XCTAssertEqual(PluginWire.version, 4)
        XCTAssertEqual(try message.string(2), "set-text")
        XCTAssertEqual(try (3..<8).map { try message.integer($0) }, [2, 0, 1, 3, -4])
    }

    func testGivenAPanWhenShapesRendersThenTheCanvasMovesByItAndAnOlderHostsSelectionStillFollowsTheCursor() throws {
        // Given a shape at the origin and one beyond the right edge of a 58-column view, the cursor on the first
        let json = #"{"shapes":[{"kind":"rect","x":0,"y":0,"w":6,"h":3,"color":"red"},{"kind":"rect","x":70,"y":2,"w":8,"h":3,"color":"blue"}]}"#
        let document = try HostedPlugins.editor("shapes").open(Data(json.utf8))
        // When rendered panned 28 columns right
        let panned = try document.render(width: 58, height: 13, selection: ViewSelection(cursor: 1, panX: 28))
        // Then the canvas starts at column 28, the blue shape is drawn whole and the rule names the keys
        let rule = try XCTUnwrap(panned.first { $0.hasPrefix("-- ") })
        XCTAssertTrue(rule.hasPrefix("-- canvas at (28, 0), 1 out of sight; shift+arrows pan"), rule)
        XCTAssertTrue(panned.contains { $0.hasSuffix("|2 blue|") }, "\(panned)")
        // When a host of ABI 1.1 passes its shorter selection (no pan) with the cursor on the blue shape (no Folio host
        // sends one any more, so the C plugin's render is called here, as such a host would call it)
        let text = try OlderHostCall.render(library: PluginFixtures.buildFolder.appendingPathComponent("libFolioShapes.so"), editor: "shapes",
                                            document: Data(json.utf8), width: 58, height: 13, cursor: 2, panX: 1000)
        // Then the canvas follows the cursor as before (the pan field past its size is not read) and names no keys
        XCTAssertTrue(text.contains("-- canvas at (20, 0)"), text)
        XCTAssertFalse(text.contains("shift+arrows"), text)
    }

    // MARK: Hostile answers

    func testGivenMalformedAnswersWhenParsedThenEachIsRefusedWithWhatIsWrong() {
        func refusal(_ bytes: [UInt8], count: Int = 2) -> String {
            do {
                _ = try ArgumentValues.parse(Data(bytes), count: count, editor: "e", command: "c")
                return "accepted"
            } catch { return "\(error)" }
        }
        // Given answers that are not UTF-8, too large, of the wrong count, or with other JSON than strings and null
        XCTAssertTrue(refusal([0x5B, 0x22, 0xFF, 0x22, 0x5D]).contains("not UTF-8"))
        XCTAssertTrue(refusal(Array(("[\"" + String(repeating: "x", count: ArgumentValues.byteLimit) + "\", null]").utf8)).contains("over the limit"))
        XCTAssertTrue(refusal(Array("[\"a\"]".utf8)).contains("1 values for 2 arguments"))
        XCTAssertTrue(refusal(Array("[1, null]".utf8)).contains("value 1 is neither a string nor null"))
        XCTAssertTrue(refusal(Array("{\"a\": 1}".utf8)).contains("not a JSON array"))
        XCTAssertTrue(refusal(Array((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)).contains("not JSON"))
        XCTAssertTrue(refusal(Array("[\"a\", null".utf8)).contains("not JSON"))
        XCTAssertTrue(refusal(Array("[\"a\\u0000b\", null]".utf8)).contains("value 1"))
        // Then a well-formed one is read, null as none
        XCTAssertEqual(try ArgumentValues.parse(Data("[null, \"Bread ✓\"]".utf8), count: 2, editor: "e", command: "c"), [nil, "Bread ✓"])
    }

    /// A C editor whose `values` answers each command with one kind of bad answer.
    static let hostileSource = """
    #include "folio_plugin.h"
    #include <stdlib.h>
    #include <string.h>
    struct folio_document { int unused; };
    static folio_status h_open(const folio_editor *e, const uint8_t *b, size_t n, folio_document **out, folio_buffer *err) {
        *out = calloc(1, sizeof **out); return *out ? FOLIO_STATUS_OK : FOLIO_STATUS_OUT_OF_MEMORY; }
    static folio_status h_apply(const folio_editor *e, const folio_document *d, const char *c, const char *a, const folio_selection *s,
                                folio_document **out, folio_buffer *desc, folio_buffer *err) { return folio_fail(err, FOLIO_STATUS_UNKNOWN_COMMAND, "none"); }
    static folio_status h_serialize(const folio_editor *e, const folio_document *d, folio_buffer *out, folio_buffer *err) { return folio_buffer_set(out, "x", 1); }
    static folio_status h_render(const folio_editor *e, const folio_document *d, uint32_t w, uint32_t h, const folio_selection *s,
                                 folio_buffer *out, folio_buffer *err) { return folio_buffer_set(out, "x", 1); }
    static void h_release(const folio_editor *e, folio_document *d) { free(d); }
    static folio_status h_values(const folio_editor *e, const folio_document *d, const char *c, const folio_selection *s,
                                 folio_buffer *out, folio_buffer *err) {
        if (strcmp(c, "utf8") == 0) return folio_buffer_set(out, "[\\"\\xff\\", null]", 10);
        if (strcmp(c, "count") == 0) return folio_buffer_set(out, "[\\"a\\"]", 5);
        if (strcmp(c, "numbers") == 0) return folio_buffer_set(out, "[1, 2]", 6);
        if (strcmp(c, "huge") == 0) {
            size_t n = (1u << 20) + 16; char *big = malloc(n); if (!big) return FOLIO_STATUS_OUT_OF_MEMORY;
            memset(big, 'x', n); memcpy(big, "[\\"", 2); memcpy(big + n - 8, "\\", null]", 8);
            folio_status status = folio_buffer_set(out, big, n); free(big); return status; }
        return folio_buffer_set(out, "[null, \\"fine\\"]", 14);
    }
    static const folio_argument_values_v1 values = { sizeof(folio_argument_values_v1), 0, h_values };
    static const void *h_extension(const folio_editor *e, const char *id) { return strcmp(id, FOLIO_EXTENSION_ARGUMENT_VALUES) == 0 ? &values : NULL; }
    #define COMMAND(ID) static const folio_command_info c_##ID = {sizeof(folio_command_info), 0, #ID, #ID, "", #ID " N TEXT"};
    COMMAND(utf8) COMMAND(count) COMMAND(numbers) COMMAND(huge) COMMAND(fine)
    static const folio_command_info *const commands[] = {&c_utf8, &c_count, &c_numbers, &c_huge, &c_fine};
    static const char *const types[] = {"org.test.hostile-values"};
    static const char *const parents[] = {"public.plain-text"};
    static const folio_type_declaration type = {sizeof(folio_type_declaration), 0, "org.test.hostile-values", parents, 1, NULL, 0, "Hostile"};
    static const folio_type_declaration *const declared[] = {&type};
    static const folio_editor editor = {sizeof(folio_editor), FOLIO_PRIORITY_DEFAULT, "hostile-values", "Hostile", types, 1, declared, 1,
        commands, 5, NULL, h_open, h_apply, h_serialize, h_render, h_release, h_extension};
    static const folio_editor *const editors[] = {&editor};
    static const folio_plugin_descriptor descriptor = {FOLIO_PLUGIN_MAGIC, FOLIO_PLUGIN_ABI_MAJOR, FOLIO_PLUGIN_ABI_MINOR,
        sizeof(folio_plugin_descriptor), 0, "org.test.hostile-values", "Hostile", "1.0.0", editors, 1};
    __attribute__((visibility("default"))) const folio_plugin_descriptor *folio_plugin_entry(void) { return &descriptor; }
    """

    func testGivenAPluginWithBadAnswersWhenItsValuesAreAskedThroughItsHostThenEachIsRefusedInOneLineAndTheHostLives() throws {
        // Given the hostile editor's document
        let temp = TemporaryDirectory("folio-hostile-values")
        let folder = try PluginFixtures.temporaryFolder(self)
        _ = try PluginFixtures.compilePlugin(Self.hostileSource, named: "libhostilevalues.so", in: folder)
        let host = EditorRegistry(searchPath: PluginSearchPath(folders: [.init(folder, bundled: false)]))
        let store = DocumentStore(settings: Settings(sync: .none), environment: temp.environment([:]))
        let document = try store.create(at: temp.path("doc"), contentType: ContentType("org.test.hostile-values"), title: "doc")
        // When each bad answer is asked for
        for (command, why) in [("utf8", "not UTF-8"), ("count", "1 values for 2 arguments"), ("numbers", "value 1 is neither a string nor null"),
                               ("huge", "over the limit")] {
            // Then it is refused with one line naming the editor and what is wrong
            XCTAssertThrowsError(try host.argumentValues(document: document, command: command)) { error in
                XCTAssertTrue("\(error)".contains("hostile-values") && "\(error)".contains(why), "\(command): \(error)")
                XCTAssertEqual("\(error)".split(separator: "\n").count, 1)
            }
        }
        // And the same host still answers a good one
        XCTAssertEqual(try host.argumentValues(document: document, command: "fine"), [nil, "fine"])
    }
}

/// A call as a plugin host of ABI 1.1 made it: the selection without the pan fields (its `struct_size` says so). Folio's
/// host always sends the whole selection, so this C plugin is loaded into the test process to be called that way.
enum OlderHostCall {
    struct Failure: Error { let what: String }

    /// The view `editor` of `library` renders for `document` with an ABI 1.1 selection (cursor set, pan past its size).
    static func render(library: URL, editor id: String, document: Data, width: UInt32, height: UInt32, cursor: Int64, panX: Int64) throws -> String {
        guard let handle = dlopen(library.path, RTLD_NOW | RTLD_LOCAL), let symbol = dlsym(handle, FOLIO_PLUGIN_ENTRY_SYMBOL),
              let descriptor = unsafeBitCast(symbol, to: folio_plugin_entry_fn.self)()?.pointee, let editors = descriptor.editors else {
            throw Failure(what: "cannot load \(library.path)")
        }
        guard let table = (0..<descriptor.editor_count).compactMap({ editors[$0] }).first(where: { $0.pointee.id.map { String(cString: $0) } == id }),
              let open = table.pointee.open, let render = table.pointee.render, let release = table.pointee.release else {
            throw Failure(what: "no editor \(id)")
        }
        var error = folio_buffer(), out = folio_buffer()
        var opened: OpaquePointer?
        let status = document.withUnsafeBytes { open(table, $0.bindMemory(to: UInt8.self).baseAddress, $0.count, &opened, &error) }
        guard status == folio_status(FOLIO_STATUS_OK), let opened else { throw Failure(what: "open failed") }
        defer { release(table, opened) }
        var old = folio_selection(struct_size: UInt32(MemoryLayout<folio_selection>.offset(of: \folio_selection.pan_x)!), reserved: 0,
                                  cursor: cursor, anchor: 0, scroll: 0, pan_x: panX, pan_y: 0)
        guard render(table, opened, width, height, &old, &out, &error) == folio_status(FOLIO_STATUS_OK) else { throw Failure(what: "render failed") }
        defer { folio_buffer_release(&out) }
        return String(decoding: UnsafeBufferPointer(start: out.data, count: out.size), as: UTF8.self)
    }
}
