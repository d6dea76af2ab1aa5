import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// The template forms, through the real `folio` in tmux: typing replaces a default, an
/// emptied field is refused with its reason (never filled from a hidden default), a long value shows its start once
/// left, a refused pattern is said in words, and a destination outside the current folder is shown resolved and asked
/// about first. Also: a form left as it opened creates the document with the template's computed defaults.
final class TemplateFormsEndToEndTests: EndToEndTmuxTestCase {
    /// Starts the launcher in `docs/here` and opens the form of the first template matching `filter`.
    func openForm(_ filter: String, width: Int = 100, height: Int = 30) throws {
        try FileManager.default.createDirectory(at: docs.appendingPathComponent("here"), withIntermediateDirectories: true)
        let result = try tmux(["new-session", "-d", "-s", "i23", "-x", String(width), "-y", String(height), "-c", docs.appendingPathComponent("here").path]
                              + environmentFlags + [paneCommand(["launch", "--scene", "i23-forms"])])
        XCTAssertEqual(result.status, 0, result.stderr)
        waitFor(text: "New Document")
        try keys("t")
        waitFor(text: "Blank drawing")
        try type(filter)
        waitFor(text: "Filter: \(filter)")
        try keys("Enter")
        waitFor(text: "Destination")
    }

    /// The row of the field labelled `label`.
    func fieldRow(_ screen: String, _ label: String) -> String { rows(screen).first { $0.contains(label) } ?? "" }

    func testGivenTheStoryFormWhenADefaultIsTypedOverThenEmptiedThenTypingReplacesItAndTheEmptyFieldIsRefusedWithItsReason() throws {
        // Given the story's form: Protagonist's name offers "Alex"
        try openForm("three-act")
        XCTAssertTrue(fieldRow(capture(), "Protagonist's name").contains("Alex"), capture())
        // When "Sam" is typed on it
        try keys("Tab")
        try type("Sam")
        // Then the field holds "Sam", not "AlexSam"
        let typed = waitFor(text: "Sam")
        XCTAssertTrue(fieldRow(typed, "Protagonist's name").hasSuffix(" Sam"), typed)
        XCTAssertFalse(typed.contains("AlexSam"), typed)
        // When it is emptied and left
        try keys("C-u", "Tab")
        // Then it is refused, with the reason, on its field; nothing is created
        waitFor(text: "Protagonist's name is required: it cannot be left empty")
        try keys("Enter", "Enter", "Enter")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: docs.appendingPathComponent("here").path), [])
        XCTAssertTrue(capture().contains("New from"), "the form is still open:\n\(capture())")
        try quit()
    }

    func testGivenTheStoryFormLeftAsItOpenedWhenSubmittedThenTheStoryIsCreatedWithTheTemplatesComputedTitle() throws {
        // Given the story's form, nothing typed (its title is computed from the folder's name)
        try openForm("three-act")
        // When ⏎ goes through every field
        for _ in 0..<4 { try keys("Enter") }
        // Then the story opens with the computed title
        let editor = waitFor(text: "162 words")
        XCTAssertTrue(editor.contains("Three Act Story"), editor)
        XCTAssertFalse(editor.contains("shorter than"), editor)
        try quit()
    }

    func testGivenTheSwiftPackageFormWhenANameBreaksThePatternAndALongSummaryIsLeftThenTheErrorIsInWordsAndTheSummaryShowsItsStart() throws {
        // Given the Swift package's form at 80×24
        try openForm("swift pack", width: 80, height: 24)
        // When the name "9lives" is left
        try keys("C-u")
        try type("9lives")
        try keys("Tab")
        // Then the reason is in words: the template's help, no regular expression
        let refused = waitFor(text: "'9lives' is not accepted")
        let words = rows(refused).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        XCTAssertTrue(words.contains("letters, digits and _ only."), "the whole reason, wrapped:\n\(refused)")
        XCTAssertFalse(refused.contains("[A-Za-z]") || refused.contains("pattern"), refused)
        // When a valid name is given and a summary longer than the field is typed and left
        try keys("C-u")
        try type("Lives")
        try keys("Tab")
        try type("A long description that goes on and on past the width of the field so that only part of it fits")
        try keys("Tab")
        // Then the summary's field shows the start of its text
        let left = waitFor("the summary left") { self.fieldRow($0, "Author").contains("▸") }
        XCTAssertTrue(fieldRow(left, "One-line description").contains("A long description that"), left)
        try quit()
    }

    func testGivenADestinationThatLeavesTheCurrentFolderWhenCreatingThenTheResolvedPathIsShownAndAskedAboutFirst() throws {
        // Given the story's form started in docs/here
        try openForm("three-act")
        // When the destination is a/../../etc
        for _ in 0..<3 { try keys("Tab") }
        try keys("C-u")
        try type("a/../../etc")
        // Then the resolved path is shown under it, marked as outside the current folder
        let outside = docs.appendingPathComponent("etc").path
        let shown = waitFor(text: "→ \(outside)")
        XCTAssertTrue(shown.contains("outside the current folder"), shown)
        // And ⏎ asks before creating anything; n creates nothing
        try keys("Enter")
        waitFor(text: "create it outside the current folder?")
        try keys("n")
        waitFor("the question gone") { !$0.contains("create it outside the current folder?") }
        XCTAssertFalse(FileManager.default.fileExists(atPath: outside))
        try quit()
    }
}
