import FolioCore
@testable import FolioPlugins
import FolioCLITestSupport
import FolioTestSupport
import Foundation
import XCTest

/// The history of one item and bringing one item back (`folio.items/1`), with the bundled editors in their host
/// processes, through the library and the command line.
final class ItemHistoryTests: XCTestCase {
    private var temp: TemporaryDirectory!
    private var env: [String: String] = [:]
    private var store: DocumentStore!
    private var host: EditorRegistry!

    override func setUp() {
        temp = TemporaryDirectory("folio-items")
        env = temp.environment()
        store = DocumentStore(settings: Settings(sync: .none), environment: env)
        host = PluginFixtures.bundledHost()
    }

    override func tearDown() {
        host = nil
        temp = nil
    }

    private func document(_ name: String, type: String, _ content: String) throws -> Document {
        let document = try store.create(at: temp.path(name), contentType: ContentType(type), title: name)
        try document.write(Data(content.utf8), to: document.metadata.primaryFile, message: "Start")
        return document
    }

    @discardableResult
    private func edit(_ document: Document, _ command: String, _ arguments: String...) throws -> String {
        let outcome = try host.edit(document, command: command, arguments: arguments)
        return try XCTUnwrap(outcome.commit, "\(command) \(arguments) changed nothing")
    }

    /// The items of the newest version with their fingerprints, by summary.
    private func items(_ document: Document) throws -> [EditorItem] {
        let backend = try host.backend(try host.chooseEditor(for: document).id)
        return try XCTUnwrap(try backend.items(of: try document.read(path: document.metadata.primaryFile), previous: nil))
    }

    private func checklist(_ titles: [String]) -> String {
        "{\"title\": \"List\", \"items\": [" + titles.map { "{\"title\": \"\($0)\", \"checked\": false}" }.joined(separator: ", ") + "]}\n"
    }

    // MARK: History

    func testGivenAChecklistItemRenamedMovedAndToggledAcross50VersionsWhenItsHistoryIsAskedThenExactlyTheVersionsThatChangedItAreListedWithWhatChanged() throws {
        // Given a checklist whose item "Milk" is renamed, moved and toggled among 50 versions that also change other items
        let document = try document("groceries", type: "org.folio.checklist", checklist(["Bread", "Milk", "Eggs", "Tea", "Jam", "Rice"]))
        var expected: [(commit: String, kind: ItemChange.Kind)] = []
        var milk = 2, name = "Milk"
        for version in 1...50 {
            switch version % 5 {
            case 0:
                expected.append((try edit(document, "toggle", String(milk)), .changed))
            case 1:
                try edit(document, "toggle", String(milk == 1 ? 2 : 1))  // another item
            case 2:
                name = "Milk \(version)"
                expected.append((try edit(document, "rename", String(milk), name), .changed))
            case 3:
                let target = milk <= 3 ? milk + 3 : milk - 3  // three places away: never a swap of neighbours
                expected.append((try edit(document, "move", String(milk), String(target)), .moved))
                milk = target
            default:
                try edit(document, "rename", String(milk == 6 ? 5 : 6), "Other \(version)")  // another item
            }
        }
        XCTAssertEqual(try document.log().count, 52, "creation, start and 50 versions")

        // When the history of Milk's item (as the view numbers it now) is asked
        let history = try host.itemHistory(document: document, item: String(milk))

        // Then it lists the 30 versions that changed it, newest first, then the version that added it, with what changed
        XCTAssertEqual(history.changes.count, 31, history.changes.map(\.change).joined(separator: "\n"))
        XCTAssertEqual(history.changes.dropLast().map(\.commit), expected.reversed().map(\.commit))
        XCTAssertEqual(history.changes.dropLast().map(\.kind), expected.reversed().map(\.kind))
        XCTAssertEqual(history.changes.last?.kind, .added)
        XCTAssertEqual(history.changes.last?.summary, "[ ] Milk")
        XCTAssertEqual(history.changes.last?.key, "2")
        let rename = try XCTUnwrap(history.changes.first { $0.previousSummary == "[x] Milk 42" })
        XCTAssertEqual(rename.change, "[x] Milk 42 → [x] Milk 47")
        let move = try XCTUnwrap(history.changes.first { $0.kind == .moved })
        XCTAssertEqual(move.change, "moved from \(move.previousKey ?? "") to \(move.key)")
        XCTAssertNotEqual(move.previousKey, move.key)
        XCTAssertEqual(history.summary, "[ ] \(name)")
    }

    func testGivenItemHistoryFromTheCommandLineThenEachVersionIsPrintedWithWhatChangedAndAsJSON() throws {
        // Given a checklist whose second item was checked, renamed, and a neighbour deleted
        let document = try document("list", type: "org.folio.checklist", checklist(["Milk", "Eggs", "Bread"]))
        try edit(document, "toggle", "2")
        try edit(document, "rename", "2", "Free-range eggs")
        try edit(document, "delete", "1")
        // When `folio log --item 1` is run (Eggs is item 1 now)
        let result = runFolio(["log", "list", "--item", "1"], environment: env, cwd: temp.url)
        // Then it names the item and prints the two changes and the version that added it, without the deletion
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "History of item 1 as in \(try document.head().id.short): [x] Free-range eggs")
        XCTAssertEqual(lines.filter { $0.hasPrefix("    ") }, ["    [x] Eggs → [x] Free-range eggs", "    [ ] Eggs → [x] Eggs", "    added as 2: [ ] Eggs"])
        let json = runFolio(["log", "list", "--item", "1", "--json"], environment: env, cwd: temp.url)
        XCTAssertEqual(json.status, 0, json.stderr)
        let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        XCTAssertEqual((decoded?["changes"] as? [[String: Any]])?.map { $0["kind"] as? String }, ["changed", "changed", "added"])
        // And an item that does not exist is one line naming it, with a non-zero exit
        let missing = runFolio(["log", "list", "--item", "9"], environment: env, cwd: temp.url)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.hasPrefix("folio log: there is no item '9' in version"), missing.stderr)
        XCTAssertEqual(missing.stderr.split(separator: "\n").count, 1)
    }

    func testGivenAnEditorWithoutItemsWhenAnItemHistoryOrRestoreIsAskedThenItIsRefusedNamingTheEditor() throws {
        // Given plain text (whose bundled editor lists lines as items) and a tally whose editor has no folio.items/1
        let document = try document("notes", type: "public.plain-text", "one\ntwo\n")
        XCTAssertEqual(try host.itemHistory(document: document, item: "1").changes.map(\.kind), [.added])
        // When the tally's item history or an item restore is asked, it is refused naming its editor
        let tally = try PluginFixtures.compilePlugin(Self.tallySource, named: "libtally.so", in: PluginFixtures.temporaryFolder(self))
        let plain = EditorRegistry(searchPath: PluginSearchPath(folders: [.init(tally.deletingLastPathComponent(), bundled: false)]))
        let counter = try store.create(at: temp.path("count"), contentType: ContentType("org.example.tally"), title: "count")
        XCTAssertThrowsError(try plain.itemHistory(document: counter, item: "1")) { error in
            XCTAssertEqual(error as? ItemError, .unsupported(editor: "tally"))
        }
        XCTAssertThrowsError(try plain.restoreItem(document: counter, item: "1", from: "HEAD")) { error in
            XCTAssertEqual(error as? ItemError, .unsupported(editor: "tally"))
        }
    }

    // MARK: The cache

    func testGivenAWarmCacheWhenTheHistoryIsAskedAgainThenNoVersionIsListedAgainAndADamagedCacheIsRebuilt() throws {
        // Given a checklist with a few versions and its item history asked once (the cache is written)
        let document = try document("list", type: "org.folio.checklist", checklist(["Milk", "Eggs", "Bread"]))
        for _ in 0..<4 { try edit(document, "toggle", "2") }
        let cold = try host.itemHistory(document: document, item: "2")
        XCTAssertGreaterThan(cold.listed, 0)
        let cacheFile = document.url.appendingPathComponent(".git/folio/item-history")
        XCTAssertTrue(FileManager.default.fileExists(atPath: cacheFile.path))
        // When it is asked again, nothing is listed by the editor and the answer is the same
        let warm = try host.itemHistory(document: document, item: "2")
        XCTAssertEqual(warm.listed, 0)
        XCTAssertEqual(warm.changes, cold.changes)
        XCTAssertFalse(warm.rebuiltCache)
        // When the cache file is damaged (one byte changed in the middle), the answer is still the same, rebuilt
        var bytes = try Data(contentsOf: cacheFile)
        bytes[bytes.count / 2] ^= 0x5A
        try bytes.write(to: cacheFile)
        let repaired = try host.itemHistory(document: document, item: "2")
        XCTAssertTrue(repaired.rebuiltCache)
        XCTAssertGreaterThan(repaired.listed, 0)
        XCTAssertEqual(repaired.changes, cold.changes)
        // And the file was written again whole: the next answer needs no listing
        XCTAssertEqual(try host.itemHistory(document: document, item: "2").listed, 0)
        // When the file is cut short, or replaced by garbage, it is rebuilt too
        for damage in [bytes.prefix(20), Data("not a cache".utf8), Data()] {
            try Data(damage).write(to: cacheFile)
            let again = try host.itemHistory(document: document, item: "2")
            XCTAssertEqual(again.changes, cold.changes)
            XCTAssertGreaterThan(again.listed, 0)
        }
    }

    func testGivenACacheWhoseChecksumIsRightButWhoseLinksDoNotFitTheVersionsWhenReadThenItIsRebuiltNotBelieved() throws {
        // Given a cache file, correctly checksummed, that says the newest version has 7 items linked as nonsense
        let document = try document("list", type: "org.folio.checklist", checklist(["Milk", "Eggs"]))
        try edit(document, "toggle", "1")
        let truth = try host.itemHistory(document: document, item: "1")
        let cacheFile = document.url.appendingPathComponent(".git/folio/item-history")
        let original = try XCTUnwrap(ItemHistoryCache.decode(try Data(contentsOf: cacheFile), identity: try Self.identity(of: cacheFile)))
        var forged = ItemHistoryCache(identity: try Self.identity(of: cacheFile))
        forged.entries = original
        let head = try document.head().id
        forged.entries[head]?.links[0] = ItemLinks(count: 7, runs: [.init(start: 0, previous: 5, length: 7)], notes: [])
        try forged.encode().write(to: cacheFile)
        // When the history is asked, the links are found not to fit (7 items, the version has 2) and rebuilt
        let answer = try host.itemHistory(document: document, item: "1")
        XCTAssertTrue(answer.rebuiltCache)
        XCTAssertEqual(answer.changes, truth.changes)
    }

    /// The identity string at the start of a cache file (after the magic and its length).
    private static func identity(of file: URL) throws -> String {
        let bytes = [UInt8](try Data(contentsOf: file))
        let length = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
        return String(decoding: bytes[12..<(12 + length)], as: UTF8.self)
    }

    // MARK: Restore

    func testGivenADeletedChecklistItemWhenRestoredFromAnOldVersionThenItComesBackAtItsPlaceInOneCommitAndNothingElseChanges() throws {
        // Given a checklist whose "Eggs" was deleted, then other items changed
        let document = try document("list", type: "org.folio.checklist", checklist(["Milk", "Eggs", "Bread", "Tea"]))
        try edit(document, "toggle", "2")
        let withEggs = try document.head().id.hex
        try edit(document, "delete", "2")
        try edit(document, "toggle", "3")
        try edit(document, "rename", "2", "Rye bread")
        let before = try items(document)
        let versions = try document.log().count
        // When item 2 is brought back as it was in the version before the deletion
        let outcome = try host.restoreItem(document: document, item: "2", from: withEggs)
        // Then one commit says so, and the item is back at 2 with every other item exactly as it was
        XCTAssertEqual(try document.log().count, versions + 1)
        let head = try document.head()
        XCTAssertEqual(outcome.commit?.id, head.id)
        XCTAssertEqual(head.summary, "Restore item 2 from \(String(withEggs.prefix(7))): brought back 'Eggs' at 2")
        let after = try items(document)
        XCTAssertEqual(after.map(\.summary), ["[ ] Milk", "[x] Eggs", "[ ] Rye bread", "[x] Tea"])
        XCTAssertEqual(after.filter { $0.key != "2" }.map(\.fingerprint), before.map(\.fingerprint))
        // And from the command line the same kind of restore is one line naming the commit
        let cli = runFolio(["restore", "list", "@2", "--item", "4"], environment: env, cwd: temp.url)
        XCTAssertEqual(cli.status, 0, cli.stderr)
        XCTAssertTrue(cli.stdout.hasSuffix("] Restore item 4 from \(try document.resolve("@2").short): put back 'Tea' as it was\n"), cli.stdout)
        XCTAssertEqual(try items(document).map(\.summary), ["[ ] Milk", "[x] Eggs", "[ ] Rye bread", "[ ] Tea"])
    }

    func testGivenAStorySceneWhoseTextChangedWhenRestoredThenItsOldTextIsBackAndTheOtherScenesAreUntouched() throws {
        // Given a story whose scene 1.2 was rewritten, and another scene renamed later
        let story = "# Voyage\n\n## Act I: Departure\n\n### The Call\nIt begins.\n\n### The Refusal\nShe says no, twice.\n\n## Act II: Road\n\n### The Storm\nRain.\n"
        let document = try document("voyage", type: "org.folio.story", story)
        let original = try document.head().id.hex
        try edit(document, "set-text", "1", "2", "She says yes at once.")
        try edit(document, "rename-scene", "2", "1", "The Gale")
        let before = try items(document)
        let versions = try document.log().count
        // When scene 1.2 is brought back as it was at the start
        let outcome = try host.restoreItem(document: document, item: "1.2", from: original)
        // Then one commit, the scene's old text is back, and every other act and scene is as it was
        XCTAssertEqual(try document.log().count, versions + 1)
        XCTAssertEqual(outcome.description, "put back scene 'The Refusal' as it was")
        let text = StoryTags.stripped(String(decoding: try document.read(path: document.metadata.primaryFile), as: UTF8.self))
        XCTAssertTrue(text.contains("### The Refusal\nShe says no, twice.\n"), text)
        XCTAssertFalse(text.contains("yes at once"), text)
        XCTAssertTrue(text.contains("### The Gale\nRain.\n"), text)
        let after = try items(document)
        XCTAssertEqual(after.filter { $0.key != "1.2" }.map(\.fingerprint), before.filter { $0.key != "1.2" }.map(\.fingerprint))
        XCTAssertEqual(after.first { $0.key == "1.2" }?.summary, "scene 'The Refusal' (4 words)")
    }

    func testGivenAMovedShapeWhenRestoredThenItIsBackWhereItWasAndTheOtherShapesKeepTheirChanges() throws {
        // Given a drawing whose second shape was moved and whose third was resized afterwards
        let drawing = #"{"shapes": [{"kind": "rect", "x": 1, "y": 1, "w": 4, "h": 2, "color": "red"}, {"kind": "ellipse", "x": 10, "y": 3, "w": 6, "h": 3, "color": "blue"}, {"kind": "rect", "x": 20, "y": 5, "w": 2, "h": 2, "color": "green"}]}"#
        let document = try document("drawing", type: "org.folio.shapes", drawing + "\n")
        let original = try document.head().id.hex
        try edit(document, "move", "2", "30", "9")
        try edit(document, "resize", "3", "8", "8")
        let before = try items(document)
        let versions = try document.log().count
        // When shape 2 is brought back as it was
        let outcome = try host.restoreItem(document: document, item: "2", from: original)
        // Then one commit, the ellipse is at (10, 3) again, the resized rect keeps its new size, the first is untouched
        XCTAssertEqual(try document.log().count, versions + 1)
        XCTAssertEqual(outcome.description, "put back ellipse 2 as it was")
        let after = try items(document)
        XCTAssertEqual(after.map(\.summary), ["rect at (1, 1), 4 x 2, red", "ellipse at (10, 3), 6 x 3, blue", "rect at (20, 5), 8 x 8, green"])
        XCTAssertEqual([after[0], after[2]].map(\.fingerprint), [before[0], before[2]].map(\.fingerprint))
        // And the shape's history shows the move and the restore
        let history = try host.itemHistory(document: document, item: "2")
        XCTAssertEqual(history.changes.map(\.kind), [.changed, .changed, .added])
        XCTAssertEqual(history.changes.first?.change, "ellipse at (30, 9), 6 x 3, blue → ellipse at (10, 3), 6 x 3, blue")
    }

    func testGivenAnItemAlreadyAsInTheVersionWhenRestoredThenNothingIsCommittedAndAnUnknownItemIsRefused() throws {
        let document = try document("list", type: "org.folio.checklist", checklist(["Milk", "Eggs"]))
        let start = try document.head().id.hex
        try edit(document, "toggle", "1")
        let versions = try document.log().count
        // When the unchanged item 2 is restored from the start, nothing is committed
        XCTAssertNil(try host.restoreItem(document: document, item: "2", from: start).commit)
        // When an item the version does not have is named, it is refused naming the item and the version
        XCTAssertThrowsError(try host.restoreItem(document: document, item: "3", from: start)) { error in
            XCTAssertEqual(error as? ItemError, .noSuchItem(item: "3", version: String(start.prefix(7)), count: 2))
        }
        XCTAssertEqual(try document.log().count, versions)
    }

    /// A C editor without `folio.items/1`: the guide's tally.
    static let tallySource = """
    #include <folio_plugin.h>
    #include <stdlib.h>
    #include <string.h>
    struct folio_document { int unused; };
    static folio_status t_open(const folio_editor *e, const uint8_t *b, size_t n, folio_document **out, folio_buffer *err) {
        (void)e; (void)b; (void)n; (void)err; *out = calloc(1, sizeof **out); return FOLIO_STATUS_OK; }
    static folio_status t_apply(const folio_editor *e, const folio_document *d, const char *c, const char *a, const folio_selection *s,
                                folio_document **out, folio_buffer *desc, folio_buffer *err) {
        (void)e; (void)d; (void)c; (void)a; (void)s; (void)out; (void)desc; return folio_fail(err, FOLIO_STATUS_UNKNOWN_COMMAND, "no"); }
    static folio_status t_serialize(const folio_editor *e, const folio_document *d, folio_buffer *out, folio_buffer *err) {
        (void)e; (void)d; (void)err; return folio_buffer_set(out, "0\\n", 2); }
    static folio_status t_render(const folio_editor *e, const folio_document *d, uint32_t w, uint32_t h, const folio_selection *s,
                                 folio_buffer *out, folio_buffer *err) {
        (void)e; (void)d; (void)w; (void)h; (void)s; (void)err; return folio_buffer_set(out, "0", 1); }
    static void t_release(const folio_editor *e, folio_document *d) { (void)e; free(d); }
    static const char *const types[] = {"org.example.tally"};
    static const char *const parents[] = {"public.plain-text"};
    static const folio_type_declaration type = {sizeof(folio_type_declaration), 0, "org.example.tally", parents, 1, NULL, 0, "A tally"};
    static const folio_type_declaration *const declared[] = {&type};
    static const folio_editor editor = {sizeof(folio_editor), FOLIO_PRIORITY_DEFAULT, "tally", "Tally", types, 1, declared, 1, NULL, 0, NULL,
        t_open, t_apply, t_serialize, t_render, t_release, NULL};
    static const folio_editor *const editors[] = {&editor};
    static const folio_plugin_descriptor descriptor = {FOLIO_PLUGIN_MAGIC, FOLIO_PLUGIN_ABI_MAJOR, FOLIO_PLUGIN_ABI_MINOR,
        sizeof(folio_plugin_descriptor), 0, "org.example.tally", "Tally", "1.0.0", editors, 1};
    __attribute__((visibility("default"))) const folio_plugin_descriptor *folio_plugin_entry(void) { return &descriptor; }
    """
}
