import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// The launcher and the template picker, through the real `folio` in tmux: every recent
/// document listed and found by the filter, same-named ones told apart by their folder, the banners kept beside a
/// long title; picker columns apart at 70 columns, j/k moving, relevance before groups, decoded file names.
final class LauncherPickerEndToEndTests: EndToEndTmuxTestCase {
    static let longTitle = "A remarkably long recent document title that keeps going well past any sensible width of a launcher box"

    /// Eight recent documents, newest first: the long title, five lists, then two named "Notes" in folders a and b.
    func eightRecentDocuments() throws {
        let first = create("first", template: "checklist/groceries")
        let places = ["long", "alpha", "bravo", "charlie", "delta", "echo", "a/notes", "b/notes"]
        let titles = [Self.longTitle, "Alpha list", "Bravo list", "Charlie list", "Delta list", "Echo list", "Notes", "Notes"]
        for place in places {
            let url = docs.appendingPathComponent(place)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: first, to: url)
        }
        let entries = zip(places, titles).enumerated().map { index, entry in
            #"{"contentType": "org.folio.checklist", "opened": "2026-11-30T12:\#(String(format: "%02d", 50 - index)):00Z", "path": "\#(docs.appendingPathComponent(entry.0).path)", "title": "\#(entry.1)"}"#
        }
        let state = URL(fileURLWithPath: env["XDG_STATE_HOME"] ?? "").appendingPathComponent("folio")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try Data(("[" + entries.joined(separator: ",\n") + "]").utf8).write(to: state.appendingPathComponent("recent.json"))
    }

    func testGivenEightRecentDocumentsAt160x45ThenAllAreListedTheFilterFindsTheLastAndSameNamesShowTheirFolders() throws {
        // Given eight recent documents, two of them named "Notes"
        try eightRecentDocuments()
        // When the launcher opens at 160×45
        try start(["launch", "--scene", "i23-recent"], width: 160, height: 45)
        let launcher = waitFor(text: "Recent")
        // Then all eight are listed (not five), and the two Notes rows name their folders
        let shown = waitFor("the eighth recent document") { screen in ["Alpha list", "Echo list"].allSatisfy(screen.contains) && screen.components(separatedBy: "Notes").count == 3 }
        let notes = rows(shown).filter { $0.contains("Notes") }
        XCTAssertEqual(notes.count, 2, launcher)
        XCTAssertTrue(notes.first { $0.contains("/a") } != nil && notes.first { $0.contains("/b") } != nil, "each shows its folder:\n\(shown)")
        // And the filter finds both Notes, the last rows of the list
        try keys("/")
        try type("Notes")
        let filtered = waitFor("both Notes found") { $0.components(separatedBy: "Notes").count >= 3 && $0.contains("/a") && !$0.contains("Alpha list") }
        XCTAssertFalse(filtered.contains("No recent document matches"), filtered)
        try quit()
    }

    func testGivenALongRecentTitleAt100x30ThenTheLauncherBoxKeepsItsWidthAndTheBannersStay() throws {
        // Given the newest recent document has a title far wider than the box
        try eightRecentDocuments()
        // When the launcher opens at 100×30
        try start(["launch", "--scene", "i23-banner"], width: 100, height: 30)
        let screen = waitFor(text: "Open Recent")
        // Then the banners beside the box are still drawn and the menu box is as wide as before
        XCTAssertTrue(screen.contains("(o,o)") && screen.contains("--●--"), "the banners:\n\(screen)")
        let box = rows(screen).first { $0.contains("╭") }?.trimmingCharacters(in: .whitespaces) ?? ""
        XCTAssertLessThan(box.count, 50, "the box widened:\n\(screen)")
        try quit()
    }

    func testGivenThePickerAt70ColumnsThenNamesAndTypesStandApartJKMoveAndTheBestMatchComesFirst() throws {
        // Given the template picker at 70×24
        try start(["launch", "--scene", "i23-picker"], until: "New Document", width: 70, height: 24)
        try keys("t")
        let picker = waitFor(text: "Blank drawing")
        // Then each name stands apart from its type
        XCTAssertNotNil(picker.range(of: #"Blank drawing\s+shapes"#, options: .regularExpression), picker)
        XCTAssertNil(picker.range(of: "Blank drawingshapes"), picker)
        XCTAssertNotNil(picker.range(of: #"Grocery list\s+checklist"#, options: .regularExpression), picker)
        // When j is pressed, the selection moves (j is not typed into the filter)
        try keys("j")
        let moved = waitFor(text: "▸ Grocery list")
        XCTAssertFalse(moved.contains("Filter: j"), moved)
        // When "swift pack" is typed, the Swift package is first and selected, before the plugin written in Swift
        try type("swift pack")
        let filtered = waitFor(text: "Filter: swift pack")
        let first = rows(filtered).first { $0.contains("▸") } ?? ""
        XCTAssertTrue(first.contains("Swift package"), "selected: \(first)\n\(filtered)")
        try quit()
    }

    func testGivenTheSwiftPackageTemplateWhenItsFilesAreListedThenTheirNamesAreDecoded() throws {
        // Given the picker at 160×45, the Swift package selected
        try start(["launch", "--scene", "i23-files"], until: "New Document", width: 160, height: 45)
        try press("t", until: "Blank drawing")
        try type("swift package")
        // Then its file list shows the CI file by its name, not the template's encoded path
        let screen = waitFor(text: "Package.swift")
        XCTAssertTrue(screen.contains(".github/workflows/ci.yml"), screen)
        XCTAssertFalse(screen.contains("%2F") || screen.contains("{{#ci}}"), screen)
        try quit()
    }
}
