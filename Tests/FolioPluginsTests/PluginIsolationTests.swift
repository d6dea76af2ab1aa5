@testable import FolioCore
@testable import FolioPlugins
import FolioCLITestSupport
import Foundation
import XCTest

/// Plugins run in a host process: a plugin that crashes, hangs, floods or scribbles costs one line and the call,
/// never Folio, the document or the terminal. Driven through `folio` (in-process and as a real executable) with
/// the misbehaving "tally" plugin compiled by `cc`.
final class PluginIsolationTests: XCTestCase {
    private var temp: TemporaryDirectory!
    private var env: [String: String] = [:]

    override func setUpWithError() throws {
        temp = TemporaryDirectory("folio-isolation")
        let plugins = temp.path("plugins")
        env = temp.environment(["FOLIO_PLUGIN_PATH": plugins.path])
        // Short deadlines and a small memory limit keep the suite fast.
        _ = try temp.write("home/.config/folio/settings.json",
                           #"{"pluginLimits": {"callSeconds": 1, "renderSeconds": 1, "memoryMiB": 256, "bufferMiB": 1}}"#)
    }

    override func tearDown() { temp = nil }

    private func build(_ defines: [String] = []) throws {
        try MisbehavingPlugin.build(in: temp.path("plugins"), defines: defines)
    }

    @discardableResult
    private func folio(_ arguments: String...) -> RunResult {
        runFolio(arguments, environment: env, cwd: temp.url)
    }

    /// A tally document holding `content` (committed), built with a well-behaved plugin.
    private func makeDocument(_ name: String = "count", content: String = "0\n") throws -> Document {
        let created = folio("new", name, "--type", "org.test.tally")
        XCTAssertEqual(created.status, 0, created.stderr)
        let document = try DocumentStore(environment: env).open(at: temp.path(name))
        _ = try document.write(Data(content.utf8), to: document.metadata.primaryFile, message: "set up")
        return document
    }

    private struct Snapshot: Equatable {
        var head: String
        var file: Data
    }

    private func snapshot(_ document: Document) throws -> Snapshot {
        let reopened = try DocumentStore(environment: env).open(at: document.url)
        return Snapshot(head: try reopened.head().id.hex, file: try Data(contentsOf: document.url.appendingPathComponent(document.metadata.primaryFile)))
    }

    /// The document is as it was, its repository is clean for `git fsck --strict` and `git status`, and no lock is left.
    private func assertUntouched(_ document: Document, _ before: Snapshot, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try snapshot(document), before, "no commit, no work-tree change", file: file, line: line)
        let fsck = try git(["fsck", "--strict"], in: document.url, environment: env)
        XCTAssertEqual(fsck.status, 0, fsck.stderr, file: file, line: line)
        let status = try git(["status", "--porcelain"], in: document.url, environment: env)
        XCTAssertEqual(status.stdout, "", file: file, line: line)
        let locks = (FileManager.default.enumerator(atPath: document.url.appendingPathComponent(".git").path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".lock") }
        XCTAssertEqual(locks, [], file: file, line: line)
    }

    /// Runs `folio ARGS` and checks it failed with exactly `expected` as its one line, with a non-signal status.
    private func expectOneLine(_ arguments: [String], _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        let result = runFolio(arguments, environment: env, cwd: temp.url)
        XCTAssertEqual(result.status, 1, result.stderr, file: file, line: line)
        XCTAssertEqual(result.stderr, expected + "\n", file: file, line: line)
        XCTAssertEqual(result.stdout, "", file: file, line: line)
    }

    // MARK: Crashes and hangs in commands

    func testGivenAnEditorCommandThatSegfaultsWhenRunThenOneLineNamesTheCrashAndTheNextCommandGetsAFreshHost() throws {
        try build()
        let document = try makeDocument()
        let before = try snapshot(document)
        expectOneLine(["edit", "count", "crash"], "folio edit: editor 'tally' crashed (SIGSEGV) in 'crash'; nothing was changed; what the plugin wrote: 'folio plugins log tally'")
        try assertUntouched(document, before)
        let next = folio("edit", "count", "inc")
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertTrue(next.stdout.hasSuffix("] counted 1\n"), next.stdout)
    }

    func testGivenTheRealExecutableWhenAPluginAbortsThenFolioExitsWithStatusOneAndOneLine() throws {
        try build()
        let document = try makeDocument()
        let before = try snapshot(document)
        let result = try runProgram(PluginFixtures.folioExecutable.path, ["edit", "count", "abort"], cwd: temp.url, environment: env)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "folio edit: editor 'tally' crashed (SIGABRT) in 'abort'; it wrote 'Fatal error: Index out of range'; nothing was changed; what the plugin wrote: 'folio plugins log tally'\n")
        try assertUntouched(document, before)
    }

    func testGivenABusyLoopWhenTheDeadlinePassesThenTheHostIsKilledAndTheUserIsToldInOneLine() throws {
        try build()
        let document = try makeDocument()
        let before = try snapshot(document)
        let start = ContinuousClock.now
        expectOneLine(["edit", "count", "spin"], "folio edit: editor 'tally' did not answer 'spin' within 1 s; nothing was changed; what the plugin wrote: 'folio plugins log tally'")
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(4))
        try assertUntouched(document, before)
    }

    func testGivenARunawayAllocationWhenItPassesTheMemoryLimitThenTheHostDiesAloneAndTheDocumentIsUnchanged() throws {
        try build()
        let document = try makeDocument()
        let before = try snapshot(document)
        let result = folio("edit", "count", "hog")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.hasPrefix("folio edit: editor 'tally' crashed ("), result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix(") in 'hog'; nothing was changed; what the plugin wrote: 'folio plugins log tally'\n"), result.stderr)
        try assertUntouched(document, before)
    }

    func testGivenGarbageOnTheSocketOrABadBufferOrAnExitWhenRunThenEachIsOneLineWithTheCause() throws {
        try build()
        let document = try makeDocument()
        let before = try snapshot(document)
        expectOneLine(["edit", "count", "garbage"], "folio edit: editor 'tally' crashed (protocol violation: bad message header) in 'garbage'; nothing was changed; what the plugin wrote: 'folio plugins log tally'")
        expectOneLine(["edit", "count", "badbuf"], "folio edit: editor 'tally' crashed (SIGSEGV) in 'badbuf'; nothing was changed; what the plugin wrote: 'folio plugins log tally'")
        try assertUntouched(document, before)
        XCTAssertEqual(folio("plugins", "enable", "test.tally").status, 0)
        expectOneLine(["edit", "count", "exit"], "folio edit: editor 'tally' crashed (exit status 3) in 'exit'; nothing was changed; what the plugin wrote: 'folio plugins log tally'")
        try assertUntouched(document, before)
    }

    func testGivenABufferOverTheLimitWhenReturnedThenTheCallFailsWithoutAStrike() throws {
        try build()
        let document = try makeDocument()
        let before = try snapshot(document)
        expectOneLine(["edit", "count", "bigbuf"], "folio edit: tally bigbuf: the plugin returned 2097152 bytes, over the limit of 1048576")
        try assertUntouched(document, before)
        XCTAssertNil(PluginQuarantine(folder: temp.path("home/.local/state/folio")).records().first, "a refused buffer is not a crash")
    }

    func testGivenADocumentOverTheBufferLimitWhenEditedThenItIsRefusedBeforeThePluginSeesItWithoutAStrike() throws {
        try build()
        let document = try makeDocument(content: String(repeating: "9", count: 1_100_000))
        let before = try snapshot(document)
        expectOneLine(["edit", "count", "inc"], "folio edit: tally open: the input is 1100000 bytes, over the plugin buffer limit of 1048576 bytes (pluginLimits.bufferMiB)")
        try assertUntouched(document, before)
        XCTAssertEqual(PluginQuarantine(folder: temp.path("home/.local/state/folio")).records().count, 0)
    }

    func testGivenADescriptionWithInvalidUTF8AndEscapesWhenCommittedThenTheMessageIsOneCleanLine() throws {
        try build()
        let document = try makeDocument()
        let result = folio("edit", "count", "baddesc")
        XCTAssertEqual(result.status, 0, result.stderr)
        let message = try DocumentStore(environment: env).open(at: document.url).head().summary
        XCTAssertEqual(message, "bad \u{FFFD}\u{FFFD} utf8 [2J second line")
        XCTAssertFalse(result.stdout.contains("\u{1B}"))
    }

    // MARK: Views and semantic diffs

    func testGivenARenderThatCrashesOrSpinsWhenViewedThenOneLineAndNothingChanges() throws {
        try build()
        let crashing = try makeDocument("crashing", content: "render-crash")
        expectOneLine(["view", "crashing"], "folio view: editor 'tally' crashed (SIGSEGV) in 'render'; nothing was changed; what the plugin wrote: 'folio plugins log tally'")
        let spinning = try makeDocument("spinning", content: "render-spin")
        let before = try snapshot(spinning)
        expectOneLine(["view", "spinning"], "folio view: editor 'tally' did not answer 'render' within 1 s; nothing was changed; what the plugin wrote: 'folio plugins log tally'")
        try assertUntouched(spinning, before)
        _ = crashing
    }

    func testGivenAViewWithEscapeSequencesWhenPrintedThenControlCharactersAreShownAsEscapes() throws {
        try build()
        _ = try makeDocument(content: "41")
        let result = folio("view", "count")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "tally \\e[31m41\n")
    }

    func testGivenASemanticDiffThatCrashesWhenDiffedThenOneLine() throws {
        try build()
        let document = try makeDocument(content: "diff-crash")
        let before = try snapshot(document)
        expectOneLine(["diff", "count", "--semantic"], "folio diff: editor 'tally' crashed (SIGSEGV) in 'semantic diff'; nothing was changed; what the plugin wrote: 'folio plugins log tally'")
        try assertUntouched(document, before)
    }

    // MARK: Load-time misbehaviour

    func testGivenAConstructorThatAbortsOrLoopsOrABadDescriptorWhenViewedThenOneLineNamesTheLoad() throws {
        try build()
        let document = try makeDocument()
        let before = try snapshot(document)
        try build(["CTOR_ABORT"])
        expectOneLine(["view", "count"], "folio view: editor 'tally' crashed (SIGABRT) in 'load'; nothing was changed; what the plugin wrote: 'folio plugins log tally'")
        try build(["BAD_DESCRIPTOR"])
        expectOneLine(["view", "count"], "folio view: editor 'tally' crashed (SIGSEGV) in 'load'; nothing was changed; what the plugin wrote: 'folio plugins log tally'")
        try build(["CTOR_LOOP"])
        expectOneLine(["edit", "count", "inc"], "folio edit: editor 'tally' did not answer 'load' within 1 s; nothing was changed; what the plugin wrote: 'folio plugins log tally'")
        try assertUntouched(document, before)
    }

    // MARK: Quarantine

    func testGivenThreeCrashesWithinTenMinutesWhenUsedAgainThenTheBuildIsQuarantinedUntilEnabled() throws {
        try build()
        let document = try makeDocument(content: "5")
        let before = try snapshot(document)
        for command in ["crash", "abort", "crash"] { XCTAssertEqual(folio("edit", "count", command).status, 1) }
        expectOneLine(["edit", "count", "inc"], "folio edit: editor 'tally' is quarantined (plugin test.tally quarantined after 3 crashes or timeouts within 10 minutes; last: SIGSEGV in 'crash' (editor 'tally') at "
                      + (quarantineTime() ?? "?") + "); to try it again: folio plugins enable test.tally")
        try assertUntouched(document, before)

        let list = folio("plugins", "list")
        XCTAssertTrue(list.stdout.contains("  QUARANTINED: quarantined after 3 crashes or timeouts within 10 minutes; last: SIGSEGV in 'crash'"), list.stdout)
        XCTAssertTrue(folio("plugins", "info", "test.tally").stdout.contains("QUARANTINED: "))

        let view = folio("view", "count")
        XCTAssertEqual(view.status, 0)
        XCTAssertEqual(view.stdout, "5\n", "read-only: the file as text")
        XCTAssertTrue(view.stderr.hasPrefix("folio view: editor 'tally' is quarantined"), view.stderr)
        let diff = folio("diff", "count", "--semantic")
        XCTAssertEqual(diff.status, 0, diff.stderr)
        XCTAssertEqual(diff.stdout, try document.diff(from: nil, to: nil), "the text diff instead")
        XCTAssertTrue(diff.stderr.hasPrefix("folio diff: editor 'tally' is quarantined"), diff.stderr)
        XCTAssertTrue(diff.stderr.hasSuffix("; showing the text diff\n"), diff.stderr)

        let enabled = folio("plugins", "enable", "test.tally")
        XCTAssertEqual(enabled.stdout, "Enabled test.tally: quarantine lifted\n")
        let next = folio("edit", "count", "inc")
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertTrue(next.stdout.hasSuffix("] counted 6\n"), next.stdout)
    }

    func testGivenARebuiltPluginWhenTheOldBuildIsQuarantinedThenTheNewBuildLoads() throws {
        try build()
        _ = try makeDocument()
        for _ in 0..<3 { folio("edit", "count", "crash") }
        XCTAssertTrue(folio("edit", "count", "inc").stderr.contains("is quarantined"))
        // Another build (another hash) of the same plugin is not the quarantined one.
        try build(["SOMETHING_ELSE"])
        XCTAssertEqual(folio("edit", "count", "inc").status, 0)
    }

    func testGivenAQuarantinedBuildWhenTheQuarantineFileIsDamagedThenItStaysQuarantinedTheFileIsSetAsideAndEnableLiftsIt() throws {
        // Given a build quarantined after three crashes, and then its quarantine file cut short
        try build()
        let document = try makeDocument(content: "5")
        let before = try snapshot(document)
        for command in ["crash", "abort", "crash"] { XCTAssertEqual(folio("edit", "count", command).status, 1) }
        let file = temp.path("home/.local/state/folio/plugin-quarantine.json")
        let damaged = try Data(contentsOf: file).prefix(40)
        try damaged.write(to: file)

        // When the editor is used
        let result = runFolio(["edit", "count", "inc"], environment: env, cwd: temp.url)
        // Then it stays quarantined, with one line saying the file was damaged and where it was set aside
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("folio edit: editor 'tally' is quarantined (plugin test.tally quarantined because the quarantine file was damaged ("),
                      result.stderr)
        XCTAssertTrue(result.stderr.contains(") and was set aside as \(file.path).damaged-"), result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix("; to try it again: folio plugins enable test.tally\n"), result.stderr)
        try assertUntouched(document, before)
        // And the damaged file is kept as it was, beside a new one that remembers the damage
        let folder = file.deletingLastPathComponent()
        let aside = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasPrefix("plugin-quarantine.json.damaged-") })
        XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent(aside)), damaged)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let list = folio("plugins", "list")
        XCTAssertTrue(list.stdout.contains("  QUARANTINED: quarantined because the quarantine file was damaged"), list.stdout)
        let checklist = list.stdout.split(separator: "\n").first { $0.hasPrefix("org.folio.plugins.checklist  ") }
        XCTAssertTrue(checklist?.contains("  enabled  (bundled)  ") == true, "bundled plugins are not quarantined for the damage: \(list.stdout)")

        // When the user enables the plugin, Then it loads again
        XCTAssertEqual(folio("plugins", "enable", "test.tally").stdout, "Enabled test.tally: quarantine lifted\n")
        let next = folio("edit", "count", "inc")
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertTrue(next.stdout.hasSuffix("] counted 6\n"), next.stdout)
    }

    func testGivenAQuarantineFileThatIsAFolderWhenAPluginIsLookedUpThenItIsSetAsideAndOnlyPluginsNotBundledAreQuarantined() throws {
        // Given a state folder whose quarantine file is a folder
        let state = temp.path("state")
        let file = state.appendingPathComponent("plugin-quarantine.json")
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
        let library = try temp.write("libsome.so", "bytes")
        let quarantine = PluginQuarantine(folder: state)
        // When a plugin's build is looked up
        let record = quarantine.quarantined(library: library, plugin: "test.some")
        // Then it counts as quarantined, the folder was moved aside and a quarantine file written in its place
        XCTAssertEqual(record?.plugin, "test.some")
        XCTAssertTrue(record?.summary.hasPrefix("quarantined because the quarantine file was damaged (it is a directory, not a regular file) and was set aside as "
                                                + file.path + ".damaged-") == true, record?.summary ?? "nil")
        var isFolder: ObjCBool = true
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder) && !isFolder.boolValue)
        // A bundled plugin is not; enabling lifts it for that plugin only
        XCTAssertNil(quarantine.quarantined(library: library, plugin: "org.folio.bundled", bundled: true))
        XCTAssertEqual(quarantine.enable(plugin: "test.some"), 1)
        XCTAssertNil(quarantine.quarantined(library: library, plugin: "test.some"))
        XCTAssertNotNil(quarantine.quarantined(library: library, plugin: "test.other"))
    }

    private func quarantineTime() -> String? {
        let record = PluginQuarantine(folder: temp.path("home/.local/state/folio")).records().first
        return record?.strikes.last.map { ISO8601DateFormatter().string(from: $0.time) }
    }

    // MARK: The library API

    private func isolation() -> PluginIsolation {
        PluginIsolation(limits: PluginLimits(settings: .init(callSeconds: 20, renderSeconds: 20)),
                        executable: PluginFixtures.folioExecutable, stateFolder: temp.path("state"), environment: env)
    }

    private func isolatedHost(_ isolation: PluginIsolation? = nil) -> EditorRegistry {
        EditorRegistry(searchPath: PluginSearchPath(folders: [.init(temp.path("plugins"), bundled: false)]), isolation: isolation ?? self.isolation())
    }

    func testGivenASpareHostWhenTheFirstCallRunsThenItRunsInThatHostAndTheNextPluginStartsItsOwn() throws {
        // Given a host started before any plugin was chosen, and two plugins
        try build()
        let spare = isolation().withSpareHost()
        let sparePID = try XCTUnwrap(spare.spare?.pid, "the spare host started")
        let folders: [PluginSearchPath.Folder] = [.init(temp.path("plugins"), bundled: false), .init(PluginFixtures.buildFolder, bundled: true)]
        let host = EditorRegistry(searchPath: PluginSearchPath(folders: folders), isolation: spare)
        // When the tally editor views a document, and then the checklist editor does
        let tally = try host.backend("tally").openDocument(Data("1".utf8))
        XCTAssertEqual(try tally.view(RenderRequest(width: 40, height: 5)), ["tally \\e[31m1"])
        let checklist = try host.backend("checklist").openDocument(Data(#"{"title": "T", "items": []}"#.utf8))
        XCTAssertEqual(try checklist.view(RenderRequest(width: 40, height: 5)).first, "T  (0/0 done)")
        // Then the first ran in the spare host, which is taken, and the second in a host of its own
        XCTAssertEqual(host.isolatedPlugin(try XCTUnwrap(host.plugin("test.tally"))).hostPID, sparePID)
        XCTAssertNil(spare.spare?.pid, "taken once")
        let checklistPID = try XCTUnwrap(host.isolatedPlugin(try XCTUnwrap(host.plugin("org.folio.plugins.checklist"))).hostPID)
        XCTAssertNotEqual(checklistPID, sparePID)
    }

    func testGivenASpareHostNobodyTakesWhenItIsReleasedThenTheHostIsGoneNotAZombie() throws {
        // Given a host started ahead that no plugin takes
        var spare: PluginIsolation? = isolation().withSpareHost()
        let pid = try XCTUnwrap(spare?.spare?.pid)
        XCTAssertEqual(kill(pid, 0), 0, "it runs")
        // When it is released
        spare = nil
        // Then it was killed and reaped
        XCTAssertEqual(kill(pid, 0), -1, "the host is gone, not a zombie")
        XCTAssertEqual(errno, ESRCH)
    }

    func testGivenAHostProgramThatCannotStartWhenASpareIsAskedForThenTheCallFailsAsWithoutOne() throws {
        // Given a host executable that does not exist, with and without a spare asked for
        try build()
        var missing = isolation()
        missing.executable = temp.path("nowhere/folio-plugin-host")
        let withSpare = missing.withSpareHost()
        XCTAssertNil(withSpare.spare?.pid, "no spare host started")
        // When the tally editor is called in each
        func failure(_ isolation: PluginIsolation) -> String {
            do { _ = try isolatedHost(isolation).backend("tally").openDocument(Data("1".utf8)); return "no error" } catch { return "\(error)" }
        }
        // Then both fail alike, in one line saying the editor could not be started
        XCTAssertEqual(failure(withSpare), failure(missing))
        XCTAssertTrue(failure(missing).contains("could not be started"), failure(missing))
    }

    func testGivenASpinningCallWhenCancelledFromAnotherThreadThenItEndsAtOnceAndTheHostIsReaped() throws {
        try build()
        let host = isolatedHost()
        let editor = try host.backend("tally")
        let document = try editor.openDocument(Data("1".utf8))
        let plugin = host.isolatedPlugin(try XCTUnwrap(host.plugin("test.tally")))
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { host.cancelCalls() }
        let start = ContinuousClock.now
        XCTAssertThrowsError(try document.apply("spin", arguments: [], selection: ViewSelection())) { error in
            XCTAssertEqual("\(error)", "editor 'tally' was stopped in 'spin'; nothing was changed")
        }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(5))
        XCTAssertEqual(PluginQuarantine(folder: temp.path("state")).records().count, 0, "a cancel is not a strike")
        // The document came from bytes, so it reopens in a fresh host.
        XCTAssertEqual(try document.view(RenderRequest(width: 40, height: 5)), ["tally \\e[31m1"])
        XCTAssertNotNil(plugin.hostPID)
    }

    func testGivenACrashedHostWhenItWasReapedThenNoZombieIsLeft() throws {
        try build()
        let host = isolatedHost()
        let document = try host.backend("tally").openDocument(Data("1".utf8))
        let plugin = host.isolatedPlugin(try XCTUnwrap(host.plugin("test.tally")))
        let pid = try XCTUnwrap(plugin.hostPID)
        XCTAssertThrowsError(try document.apply("crash", arguments: [], selection: ViewSelection()))
        XCTAssertEqual(kill(pid, 0), -1, "the host is gone, not a zombie")
        XCTAssertEqual(errno, ESRCH)
    }

    func testGivenTheBundledChecklistWhenEditedInAHostWithLimitsAndAStateFolderThenTheResultIsThePluginsOwn() throws {
        // Given the bundled checklist in a host started as the product starts it (limits and a state folder)
        let isolation = PluginIsolation(executable: PluginFixtures.folioExecutable, stateFolder: temp.path("state"), environment: env)
        let isolated = EditorRegistry(searchPath: PluginSearchPath(folders: [.init(PluginFixtures.buildFolder, bundled: true)]), isolation: isolation)
        let json = Data(#"{"title": "T", "items": [{"title": "Milk", "checked": false}]}"#.utf8)
        // When its one item is toggled and the result viewed with the cursor on it
        let (changed, description) = try isolated.backend("checklist").openDocument(json).apply("toggle", arguments: ["1"], selection: ViewSelection())
        let view = try changed.view(RenderRequest(width: 40, height: 10, selection: ViewSelection(cursor: 1)))
        // Then the bytes, the description and the view are the plugin's, unchanged by the trip through the host
        XCTAssertEqual(ChecklistIDs.stripped(String(decoding: try changed.bytes(), as: UTF8.self)), "{\n  \"title\": \"T\",\n  \"items\": [\n    {\"title\": \"Milk\", \"checked\": true}\n  ]\n}\n")
        XCTAssertEqual(description, "checked 'Milk'")
        XCTAssertEqual(view, ["T  (1/1 done)", ">1 [x] Milk"])
    }
}
