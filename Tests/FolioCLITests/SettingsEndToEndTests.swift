import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// The settings screen, through the real `folio` in tmux: a colour outside the named
/// lists is refused with the lists shown, a template source is checked when its field is left, and a field typed in
/// then cleared is not "unsaved".
final class SettingsEndToEndTests: EndToEndTmuxTestCase {
    /// Opens the groceries list and its settings (^E).
    func openSettings(_ scene: String) throws {
        let document = create("list", template: "checklist/groceries")
        try start(["open", document.path, "--scene", scene], until: "(0/13 done)")
        try press(",", until: "Author name")
    }

    /// Moves the focus down, one field at a time (each move waited for), to the field labelled `label`.
    func focus(_ label: String) throws {
        func focused(_ screen: String) -> String { rows(screen).first { $0.hasPrefix(" ▸ ") } ?? "" }
        var current = focused(capture())
        for _ in 0..<12 where !current.contains("▸ \(label)") {
            try keys("Down")
            let before = current
            current = focused(waitFor("the focus to move from \(before)") { focused($0) != before })
        }
        XCTAssertTrue(current.contains("▸ \(label)"), current)
    }

    var settingsFile: URL { URL(fileURLWithPath: env["XDG_CONFIG_HOME"] ?? "").appendingPathComponent("folio/settings.json") }

    func testGivenSettingsWhenBogusEqualsRedIsEnteredThenItIsRefusedWithThePartsAndColoursItCouldBe() throws {
        // Given the settings screen, on Set color
        try openSettings("i23-colour")
        try focus("Set color")
        // When "bogus=red" is typed and the field left
        try type("bogus=red")
        try keys("Tab")
        // Then it is refused, naming the parts and showing the colours
        let screen = waitFor(text: "'bogus' is not a part")
        XCTAssertTrue(screen.contains("accent") && screen.contains("heading"), "the parts:\n\(screen)")
        XCTAssertTrue(screen.contains("magenta") && screen.contains("bright-cyan"), "the colours:\n\(screen)")
        // And ⏎ does not save it
        try keys("Enter")
        let saved = (try? String(contentsOf: settingsFile, encoding: .utf8)) ?? ""
        XCTAssertFalse(saved.contains("bogus"), saved)
        try quit()
    }

    func testGivenSettingsWhenAnUnreachableTemplateSourceIsAddedThenItIsCheckedAndSaidItCannotBeRead() throws {
        // Given the settings screen, on Add source
        try openSettings("i23-source")
        try focus("Add source")
        // When a source at a closed loopback port is typed and the field left
        try type("team http://127.0.0.1:1/none.git")
        try keys("Tab")
        // Then the check says it could not be read (once: no doubled name), wrapped rather than cut
        let screen = waitFor(text: "could not be read")
        XCTAssertFalse(screen.contains("team: could not be read: team:"), screen)
        let all = rows(screen)
        let from = all.firstIndex { $0.contains("could not be read") } ?? 0, to = all.firstIndex { $0.contains("Editor for type") } ?? all.count
        XCTAssertFalse(all[from..<max(from, to)].contains { $0.hasSuffix("…") }, "the reason is cut:\n\(screen)")
        // And ⏎ does not save it
        try keys("Enter")
        let saved = (try? String(contentsOf: settingsFile, encoding: .utf8)) ?? ""
        XCTAssertFalse(saved.contains("127.0.0.1:1"), saved)
        try quit()
    }

    func testGivenSettingsWhenAFieldIsTypedInThenClearedThenEscGoesBackWithoutAsking() throws {
        // Given the settings screen
        try openSettings("i23-unsaved")
        // When a letter is typed in Author name, then deleted, then Esc
        try type("x")
        waitFor("the letter typed") { self.rows($0).contains { $0.contains("▸ Author name") && $0.hasSuffix("x") } }
        try keys("BSpace", "Escape")
        // Then the editor is back with no question about unsaved settings
        let screen = waitFor(text: "(0/13 done)")
        XCTAssertFalse(screen.contains("unsaved settings"), screen)
        try quit()
    }
}
