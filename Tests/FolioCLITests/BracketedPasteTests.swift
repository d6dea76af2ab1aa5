import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// A paste in the real `folio` editor host, in tmux: `paste-buffer -p` brackets the text only when folio turned
/// bracketed paste on, so this also checks the terminal mode. Every wait polls the pane and is bounded.
final class BracketedPasteTests: TmuxTestCase {
    override var session: String { "paste" }
    override var defaultTimeout: TimeInterval { 5 }
    override var paneShowsTerminalSettings: Bool { false }

    /// Opens `document` in the editor host in a 100×30 pane; the pane prints FOLIO-EXIT=status when folio ends.
    func openInTmux(_ document: URL) throws { try start(["open", document.path, "--scene", "paste"]) }

    func paste(_ text: String) throws {
        let file = dir.path("paste-\(UUID().uuidString).txt")
        try Data(text.utf8).write(to: file)
        XCTAssertEqual(try tmux(["load-buffer", "-b", "clip", file.path]).status, 0)
        XCTAssertEqual(try tmux(["paste-buffer", "-p", "-d", "-b", "clip", "-t", "paste:0"]).status, 0)
    }

    func checklistTitles(_ document: URL) throws -> [String] {
        let data = try Data(contentsOf: document.appendingPathComponent("checklist.json"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let items = object?["items"] as? [[String: Any]] ?? []
        return items.compactMap { $0["title"] as? String }
    }

    func testGivenTheAddPromptWhenTextWithANewlineIsPastedThenOneItemIsAddedAndNothingDeleted() throws {
        let created = runFolio(["new", "groceries", "--template", "checklist/groceries", "--defaults"], environment: env, cwd: docs)
        XCTAssertEqual(created.status, 0, created.stderr)
        let document = docs.appendingPathComponent("groceries")
        let before = try checklistTitles(document)
        XCTAssertEqual(before.count, 13)

        try openInTmux(document)
        waitFor("the checklist") { $0.contains("(0/13 done)") }
        try tmux(["send-keys", "-t", "paste:0", "a"])
        waitFor("the add prompt") { $0.contains("Add item — Title:") }
        try paste("Figs\ndates")
        waitFor("the pasted text in the prompt") { $0.contains("Title: Figs dates") }
        try tmux(["send-keys", "-t", "paste:0", "Enter"])
        let screen = waitFor("the new item") { $0.contains("14 [ ] Figs dates") }
        XCTAssertFalse(screen.contains("Add item — Title:"), "no second prompt opened:\n\(screen)")

        XCTAssertEqual(try checklistTitles(document), before + ["Figs dates"], "exactly one item added, none deleted")
        let log = runFolio(["log", document.path], environment: env, cwd: docs).stdout.split(separator: "\n")
        XCTAssertEqual(log.count, 2, "one commit for the paste:\n\(log.joined(separator: "\n"))")

        // Outside a field a paste is ignored with a hint: "d" and "a" in it are not commands.
        try paste("d\nad")
        let hinted = waitFor("the hint") { $0.contains("paste ignored: open a field first") }
        XCTAssertFalse(hinted.contains("Add item — Title:"), hinted)
        XCTAssertEqual(try checklistTitles(document), before + ["Figs dates"])

        try tmux(["send-keys", "-t", "paste:0", "C-q"])
        waitFor("folio to exit") { $0.contains("FOLIO-EXIT=0") }
        // Bracketed paste is off again: a paste into the shell's terminal arrives without the markers (the terminal
        // echoes what `sleep` does not read; with the mode left on it would show "^[[200~").
        try paste("after-exit")
        let after = waitFor("the echoed paste") { $0.contains("after-exit") }
        XCTAssertFalse(after.contains("200~"), "bracketed paste was left on:\n\(after)")
    }

    func testGivenAPasteWhoseEndNeverArrivesWhenTheTerminalGoesQuietThenItIsTextAndKeysWorkAgain() throws {
        let created = runFolio(["new", "groceries", "--template", "checklist/groceries", "--defaults"], environment: env, cwd: docs)
        XCTAssertEqual(created.status, 0, created.stderr)
        let document = docs.appendingPathComponent("groceries")
        try openInTmux(document)
        waitFor("the checklist") { $0.contains("(0/13 done)") }
        try tmux(["send-keys", "-t", "paste:0", "a"])
        waitFor("the add prompt") { $0.contains("Add item — Title:") }
        // ESC[200~ then "Figs" and no ESC[201~: held as a paste, then (a second without bytes) taken as text.
        try tmux(["send-keys", "-t", "paste:0", "-H", "1b", "5b", "32", "30", "30", "7e", "46", "69", "67", "73"])
        let cut = waitFor("the paste to be taken", timeout: 5) { $0.contains("Title: Figs") }
        XCTAssertTrue(cut.contains("paste cut short"), cut)
        try tmux(["send-keys", "-t", "paste:0", "-l", " more"])
        try tmux(["send-keys", "-t", "paste:0", "Enter"])
        waitFor("the new item") { $0.contains("14 [ ] Figs more") }
        try tmux(["send-keys", "-t", "paste:0", "C-q"])
        waitFor("folio to exit") { $0.contains("FOLIO-EXIT=0") }
    }
}
