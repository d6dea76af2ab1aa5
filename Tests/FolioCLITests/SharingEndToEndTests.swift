import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// Two clones of one checklist behind a server on loopback (`git daemon` or `git http-backend`), each open in its
/// own `folio` window with continuous sync looking at the remote every second: what one does reaches the other's
/// screen without a key press, concurrent edits converge, a real conflict is settled on the conflict screen, and
/// a server that goes away loses nothing.
extension TerminalEndToEndTests {
    /// Where the test's bare repositories live (served by the daemon or the HTTP bridge).
    var remotes: URL { dir.path("remotes") }

    /// A groceries checklist shared through `url(name.git)`, cloned twice (`a-NAME`, `b-NAME`) with continuous sync
    /// every `interval` seconds (nil: the settings' interval); both are open, A in window 0 and B in the returned window.
    func openSharedPair(_ name: String, interval: Int? = 1, url: (String) -> String) throws -> (a: URL, b: URL, bWindow: String) {
        try FileManager.default.createDirectory(at: remotes, withIntermediateDirectories: true)
        XCTAssertEqual(try git(["init", "-q", "--bare", "-b", "main", "\(name).git"], in: remotes, environment: env).status, 0)
        let origin = createDocument("origin-\(name)")
        let shared = runFolio(["share", origin.path, "origin", url("\(name).git")], environment: env, cwd: docs)
        XCTAssertEqual(shared.status, 0, shared.stderr)
        for clone in ["a-\(name)", "b-\(name)"] {
            let cloned = runFolio(["clone", url("\(name).git"), clone], environment: env, cwd: docs)
            XCTAssertEqual(cloned.status, 0, cloned.stderr)
            let every = runFolio(["sync", clone, "--continuous", "on"] + (interval.map { ["--interval", String($0)] } ?? []), environment: env, cwd: docs)
            XCTAssertEqual(every.status, 0, every.stderr)
        }
        let a = docs.appendingPathComponent("a-\(name)"), b = docs.appendingPathComponent("b-\(name)")
        try start(["open", a.path])
        let bWindow = try startWindow(["open", b.path])
        waitFor(text: "(0/13 done)")
        waitFor(text: "(0/13 done)", target: bWindow)
        waitFor(text: "synced", timeout: 10)
        waitFor(text: "synced", target: bWindow, timeout: 10)
        return (a, b, bWindow)
    }

    /// The checklist's items in the newest version of `document`, as `folio view` prints them.
    func checklistItems(_ document: URL) -> [String] { items(document) }

    /// `git fsck --strict` finds nothing in `document`.
    func assertFsckClean(_ document: URL, file: StaticString = #filePath, line: UInt = #line) {
        let fsck = try? git(["fsck", "--strict", "--no-dangling"], in: document, environment: env)
        XCTAssertEqual(fsck?.status, 0, "git fsck --strict: \(fsck?.stderr ?? "did not run")", file: file, line: line)
    }

    /// The commits of `document` with their parent counts, newest first (`git log`).
    func parents(_ document: URL) -> [(summary: String, parents: Int)] {
        let log = (try? git(["log", "--format=%p%x09%s"], in: document, environment: env))?.stdout ?? ""
        return log.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            return (fields.count > 1 ? String(fields[1]) : "", fields[0].split(separator: " ").count)
        }
    }

    /// Waits (at most `timeout` seconds) until both documents' branches name the same version; fails otherwise.
    func waitForSameVersion(_ a: URL, _ b: URL, timeout: TimeInterval = 20, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(timeout)
        func head(_ document: URL) -> String { (try? git(["rev-parse", "HEAD"], in: document, environment: env))?.stdout ?? "" }
        while Date() < deadline {
            if !head(a).isEmpty, head(a) == head(b) { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTFail("\(a.lastPathComponent) at \(head(a)), \(b.lastPathComponent) at \(head(b))", file: file, line: line)
    }

    /// The kept conflicts of `document` (`folio conflicts --json`).
    func keptConflicts(_ document: URL) -> Int {
        let output = runFolio(["conflicts", document.path, "--json"], environment: env, cwd: docs).stdout
        return ((try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [Any])?.count ?? -1
    }

    func testGivenTwoClonesOverGitDaemonWhenOneAddsAnItemThenTheOtherShowsItWithoutAKeyAndKeepsItsCursorOnItsItem() throws {
        let daemon = try GitDaemon(basePath: remotes.creatingDirectory(), environment: env)
        let (_, b, bWindow) = try openSharedPair("daemon", url: daemon.url)
        // Given B's cursor on Bread (item 3).
        try press("Down", "Down", until: "> 3 [ ] Bread", target: bWindow)
        // When A adds an item and deletes Milk (item 1, above B's cursor).
        try press("a", until: "Add item")
        try type("Oat milk")
        try press("Enter", until: "(0/14 done)")
        try press("Home", "d", until: "(0/13 done)")
        // Then B shows both changes with no key pressed, its cursor still on Bread (now item 2).
        waitFor("B to show A's changes", target: bWindow, timeout: 15) { $0.contains("Oat milk") && !$0.contains("[ ] Milk") }
        waitFor("the cursor to stay on Bread", target: bWindow, timeout: 3) { $0.contains("> 2 [ ] Bread") }
        XCTAssertTrue(checklistItems(b).contains("[ ] Oat milk"))
        try keys("C-q", target: bWindow)
        try keys("C-q")
        assertRestored(status: 0)
    }

    func testGivenTwoClonesOverGitDaemonWhenOneChangesTheListThenTheOtherLogsWhoAndWhatMarksTheItemAndItsHistoryCountsIt() throws {
        let daemon = try GitDaemon(basePath: remotes.creatingDirectory(), environment: env)
        let (a, b, bWindow) = try openSharedPair("arrivals", url: daemon.url)
        // Given B's window with an empty message log
        try press("M", until: "No messages yet.", target: bWindow)
        try keys("Escape", target: bWindow)
        waitFor("B's log closed", target: bWindow) { !$0.contains("No messages yet.") }
        // When A adds an item
        try press("a", until: "Add item")
        try type("Oat milk")
        try press("Enter", until: "(0/14 done)")
        // Then B marks the new item for a moment, and its log says who added what, in the checklist's words
        waitFor("B to mark Oat milk", target: bWindow, timeout: 15) { screen in
            screen.split(separator: "\n").contains { $0.hasPrefix("+") && $0.contains("[ ] Oat milk") }
        }
        let author = try git(["log", "-1", "--format=%an"], in: a, environment: env).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(author.isEmpty)
        try keys("M", target: bWindow)
        waitFor(text: "\(author): added 'Oat milk'", target: bWindow)
        try keys("Escape", target: bWindow)
        waitFor("the marks to go", target: bWindow, timeout: 10) { screen in
            !screen.split(separator: "\n").contains { $0.hasPrefix("+") } && screen.contains("[ ] Oat milk")
        }
        // Given B's history browser open on its versions
        func count(_ document: URL) -> Int {
            let output = (try? git(["rev-list", "--count", "HEAD"], in: document, environment: env))?.stdout ?? ""
            return Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        let before = count(b)
        try press("C-g", until: "\(before) versions", target: bWindow)
        // When A checks an item
        try press("Home", "Space", until: "(1/14 done)")
        // Then B's open browser lists the new version without a key
        waitFor(text: "\(before + 1) versions", target: bWindow, timeout: 15)
        XCTAssertEqual(count(b), before + 1)
        try keys("Escape", target: bWindow)
        try keys("C-q", target: bWindow)
        try keys("C-q")
        assertRestored(status: 0)
    }

    func testGivenTwoWindowsAtTheDefaultIntervalWhenOneSetsTheSyncIntervalInSettingsThenBothUseItAtOnceAndChangesPropagate() throws {
        let daemon = try GitDaemon(basePath: remotes.creatingDirectory(), environment: env)
        let (_, b, bWindow) = try openSharedPair("interval", interval: nil, url: daemon.url)
        // Given B's remote settings: the default 30 s, every 5 s while the window is in use
        try press("C-p", until: "Remote settings", target: bWindow)
        try type("Remote settings", target: bWindow)
        try press("Enter", until: "every 30 s (every 5 s while this window is in use)", target: bWindow)
        // When A's Settings screen sets the sync interval to 1 s
        try press(",", until: "Sync interval")
        try keys("Down", "Down", "Down")
        try type("1")
        try press("Enter", until: "Saved")
        // Then B, open all along in its own process, looks every second at once (no reopening)
        waitFor(text: "every 1 s", target: bWindow, timeout: 5)
        try keys("Escape", target: bWindow)
        waitFor(text: "(0/13 done)", target: bWindow)
        try keys("Escape")
        waitFor(text: "(0/13 done)")
        // And a change made in A reaches B without a key, twice over
        try press("a", until: "Add item")
        try type("Oat milk")
        try press("Enter", until: "(0/14 done)")
        waitFor(text: "[ ] Oat milk", target: bWindow, timeout: 10)
        try press("Home", "Space", until: "(1/14 done)")
        waitFor(text: "(1/14 done)", target: bWindow, timeout: 10)
        XCTAssertTrue(checklistItems(b).contains("[ ] Oat milk"))
        try keys("C-q", target: bWindow)
        try keys("C-q")
        assertRestored(status: 0)
    }

    func testGivenTwoClonesOverHTTPWhenEachChecksADifferentItemAtOnceThenBothConvergeWithNoConflict() throws {
        let server = try GitHTTPServer(root: remotes.creatingDirectory(), environment: env)
        let (a, b, bWindow) = try openSharedPair("http", url: server.url)
        // When A checks Milk and B checks Eggs, at once.
        try keys("Home", "Space")
        try keys("Down", "Space", target: bWindow)
        // Then both show both checked, and neither has a conflict.
        waitFor(text: "(2/13 done)", timeout: 20)
        let bScreen = waitFor(text: "(2/13 done)", target: bWindow, timeout: 20)
        XCTAssertFalse(bScreen.contains("conflict"), bScreen)
        XCTAssertFalse(capture().contains("conflict"), capture())
        waitForSameVersion(a, b)
        for document in [a, b] {
            let items = checklistItems(document)
            XCTAssertTrue(items.contains("[x] Milk") && items.contains("[x] Eggs"), "\(document.lastPathComponent): \(items)")
            XCTAssertEqual(keptConflicts(document), 0)
            assertFsckClean(document)
        }
        try keys("C-q", target: bWindow)
        try keys("C-q")
        assertRestored(status: 0)
    }

    func testGivenBothClonesRenameTheSameItemWhenTheyMeetThenTheConflictScreenSettlesItAsOneMergeKeepingBothHistories() throws {
        let remotesFolder = try remotes.creatingDirectory()
        var daemon: GitDaemon? = try GitDaemon(basePath: remotesFolder, environment: env)
        let port = try XCTUnwrap(daemon?.port)
        let (a, b, bWindow) = try openSharedPair("conflict", url: { "git://127.0.0.1:\(port)/\($0)" })
        // Given the server away while each renames Milk differently.
        daemon = nil
        try press("Home", "r", until: "Rename item")
        try type("Oat milk")
        try press("Enter", until: "renamed 'Milk' to 'Oat milk'")
        try press("Home", "r", until: "Rename item", target: bWindow)
        try type("Soy milk", target: bWindow)
        try press("Enter", until: "renamed 'Milk' to 'Soy milk'", target: bWindow)
        // When the server returns and both sync now.
        daemon = try GitDaemon(basePath: remotesFolder, environment: env, port: port)
        try keys("S")
        try keys("S", target: bWindow)
        // Then whichever pushed second shows the conflict banner (the other pushed first), and its conflict screen
        // lists Milk with both versions.
        var settling = "e2e:0", other = bWindow
        waitFor("a conflict banner in either window", timeout: 20) { _ in
            if self.capture(bWindow).contains("press C to settle") { (settling, other) = (bWindow, "e2e:0"); return true }
            return self.capture().contains("press C to settle")
        }
        let (mine, theirs) = settling == bWindow ? ("Soy milk", "Oat milk") : ("Oat milk", "Soy milk")
        let (settled, follower) = settling == bWindow ? (b, a) : (a, b)
        try keys("C", target: settling)
        let conflictScreen = waitFor("the conflict screen", target: settling, timeout: 15) { $0.contains("Oat milk") && $0.contains("Soy milk") }
        XCTAssertTrue(conflictScreen.contains("Milk"), conflictScreen)
        // Choosing theirs and settling makes one merge commit with both histories.
        try keys("t", target: settling)
        try keys("Enter", target: settling)
        waitFor("the settled version", target: settling, timeout: 15) { $0.contains("[ ] \(theirs)") && !$0.contains(mine) && !$0.contains("press C") }
        let log = parents(settled)
        XCTAssertEqual(log.first?.parents, 2, "one merge commit: \(log.prefix(3))")
        XCTAssertTrue(log.contains { $0.summary == "renamed 'Milk' to 'Soy milk'" } && log.contains { $0.summary == "renamed 'Milk' to 'Oat milk'" },
                      "both histories kept: \(log.prefix(5))")
        XCTAssertEqual(log.filter { $0.parents == 2 }.count, 1, "exactly one merge: \(log)")
        // And the other converges to the settled version.
        waitForSameVersion(settled, follower)
        waitFor("the other window to show it", target: other, timeout: 10) { $0.contains("[ ] \(theirs)") && !$0.contains(mine) }
        XCTAssertEqual(checklistItems(a), checklistItems(b))
        XCTAssertEqual(keptConflicts(a), 0)
        XCTAssertEqual(keptConflicts(b), 0)
        assertFsckClean(a)
        assertFsckClean(b)
        try keys("C-q", target: bWindow)
        try keys("C-q")
        assertRestored(status: 0)
        _ = daemon
    }

    /// Issue 32's first reproduction in two windows: the same item renamed two ways while each window also adds an
    /// item is one conflict about that item (not two items), settled on the conflict screen into one item.
    func testGivenTwoWindowsRenamingOneItemTwoWaysAndEachAddingOneWhenTheyMeetThenItIsOneConflictAndOneItem() throws {
        let remotesFolder = try remotes.creatingDirectory()
        var daemon: GitDaemon? = try GitDaemon(basePath: remotesFolder, environment: env)
        let port = try XCTUnwrap(daemon?.port)
        let (a, b, bWindow) = try openSharedPair("apples", url: { "git://127.0.0.1:\(port)/\($0)" })
        // Given the server away while A renames Apples (6) to Green apples and adds A-extra, and B renames it to Red
        // apples and adds B-extra.
        daemon = nil
        for (window, name, extra) in [("e2e:0", "Green apples", "A-extra"), (bWindow, "Red apples", "B-extra")] {
            try press("Home", "Down", "Down", "Down", "Down", "Down", "r", until: "Rename item", target: window)
            try type(name, target: window)
            // The item line, not the status line: that one is cut once it also says the server is away.
            try press("Enter", until: "6 [ ] \(name)", target: window)
            try press("a", until: "Add item", target: window)
            try type(extra, target: window)
            try press("Enter", until: "[ ] \(extra)", target: window)
        }
        // When the server returns and both sync now
        daemon = try GitDaemon(basePath: remotesFolder, environment: env, port: port)
        try keys("S")
        try keys("S", target: bWindow)
        // Then whichever pushed second shows the conflict banner, and its conflict screen lists the one item
        var settling = "e2e:0", other = bWindow
        waitFor("a conflict banner in either window", timeout: 20) { _ in
            if self.capture(bWindow).contains("press C to settle") { (settling, other) = (bWindow, "e2e:0"); return true }
            return self.capture().contains("press C to settle")
        }
        let theirs = settling == bWindow ? "Green apples" : "Red apples", mine = settling == bWindow ? "Red apples" : "Green apples"
        let (settled, follower) = settling == bWindow ? (b, a) : (a, b)
        try keys("C", target: settling)
        waitFor("the conflict screen", target: settling, timeout: 15) { $0.contains("Green apples") && $0.contains("Red apples") }
        // When theirs is chosen and the conflict settled
        try keys("t", target: settling)
        try keys("Enter", target: settling)
        waitFor("the settled version", target: settling, timeout: 15) { $0.contains("[ ] \(theirs)") && !$0.contains(mine) && !$0.contains("press C") }
        // Then both hold one apples item, both additions, fifteen items, one version
        waitForSameVersion(settled, follower)
        waitFor("the other window to show it", target: other, timeout: 10) { $0.contains("[ ] \(theirs)") && !$0.contains(mine) }
        for document in [a, b] {
            let items = checklistItems(document)
            XCTAssertEqual(items.filter { $0.hasSuffix("pples") }, ["[ ] \(theirs)"], "\(document.lastPathComponent): \(items)")
            XCTAssertEqual(items.count, 15, "\(document.lastPathComponent): \(items)")
            XCTAssertTrue(items.contains("[ ] A-extra") && items.contains("[ ] B-extra"), "\(document.lastPathComponent): \(items)")
            assertFsckClean(document)
        }
        XCTAssertEqual(keptConflicts(a), 0)
        XCTAssertEqual(keptConflicts(b), 0)
        try keys("C-q", target: bWindow)
        try keys("C-q")
        assertRestored(status: 0)
        _ = daemon
    }

    func testGivenTheServerStoppedWhileBothKeepEditingWhenItRestartsThenBothConvergeWithEveryChange() throws {
        let remotesFolder = try remotes.creatingDirectory()
        var server: GitHTTPServer? = try GitHTTPServer(root: remotesFolder, environment: env)
        let port = try XCTUnwrap(server?.port)
        let (a, b, bWindow) = try openSharedPair("offline", url: { "http://127.0.0.1:\(port)/\($0)" })
        // Given the server gone.
        server = nil
        // When A adds two items and B checks two, each seeing it is offline with its changes waiting.
        for title in ["Tea", "Honey"] {
            try press("a", until: "Add item")
            try type(title)
            try keys("Enter")
            waitFor(text: "[ ] \(title)")
        }
        try press("Home", "Space", "Down", "Space", until: "(2/13 done)", target: bWindow)
        waitFor(text: "offline · 2 changes waiting", timeout: 20)
        waitFor(text: "offline · 2 changes waiting", target: bWindow, timeout: 20)
        // Then, the server back, both converge with all four changes.
        server = try GitHTTPServer(root: remotesFolder, environment: env, port: port)
        let converged = { (screen: String) in screen.contains("(2/15 done)") && screen.contains("Honey") && screen.contains("synced") }
        waitFor("A to converge", timeout: 40, converged)
        waitFor("B to converge", target: bWindow, timeout: 40, converged)
        for document in [a, b] {
            let items = checklistItems(document)
            XCTAssertTrue(items.contains("[ ] Tea") && items.contains("[ ] Honey") && items.contains("[x] Milk") && items.contains("[x] Eggs"),
                          "\(document.lastPathComponent): \(items)")
            assertFsckClean(document)
        }
        waitForSameVersion(a, b)
        try keys("C-q", target: bWindow)
        try keys("C-q")
        assertRestored(status: 0)
        _ = server
    }
}

extension URL {
    /// This folder, made if missing.
    func creatingDirectory() throws -> URL {
        try FileManager.default.createDirectory(at: self, withIntermediateDirectories: true)
        return self
    }
}
