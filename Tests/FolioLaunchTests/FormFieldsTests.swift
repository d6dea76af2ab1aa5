import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
@testable import FolioTerminal

/// Form fields: a default shows dim and typing replaces it, an emptied field is empty (refused when required, with
/// the reason), a long value shows its start when not focused, and a new document's destination shows where it
/// resolves — outside the current folder, it asks before anything is created.
final class FormFieldsTests: XCTestCase {
    let scene = LaunchScene.defaultScene

    func run(_ keys: [Key], from state: AppState) -> (AppState, [AppEffect]) { state.pressing(keys, scene: scene) }

    /// A template with a required name (default "Demo"), an optional subtitle (default "A story") and its destination.
    func storyForm(folder: String = "docs") -> AppState {
        let template = TemplateSummary(id: "story", name: "Story", contentType: "org.folio.story", variables: [
            TemplateVariable(name: "name", prompt: "Name", defaultValue: "Demo", required: true),
            TemplateVariable(name: "subtitle", prompt: "Subtitle", defaultValue: "A story"),
        ])
        var state = AppState()
        state.currentFolder = "/home/u/work"
        state.home = "/home/u"
        state.screen = .form(AppState.templateForm(template, folder: folder))
        return state
    }

    func testGivenAFieldWithADefaultThenItIsDrawnDimAndTypingReplacesItRatherThanAppending() {
        // Given the form, its name holding the default "Demo"
        let start = storyForm()
        guard let opened = form(start) else { return }
        let layout = Screens.formLayout(opened, width: 80, height: 20)
        let grid = Screens.form(opened, width: 80, height: 20)
        let nameY = layout.rows[0].y
        // Then the default is dim (a placeholder), and typing replaces it
        XCTAssertEqual(grid[layout.valueX, nameY].grapheme, "D")
        XCTAssertTrue(grid[layout.valueX + 1, nameY].style.dim)
        XCTAssertEqual(form(run(typing("Kit"), from: start).0)?.fields[0].value, "Kit")
        // While moving into it first edits it
        XCTAssertEqual(form(run([.left] + typing("X"), from: start).0)?.fields[0].value, "DemXo")
        // And the typed text is no longer dim
        guard let typed = form(run(typing("Kit"), from: start).0) else { return }
        XCTAssertFalse(Screens.form(typed, width: 80, height: 20)[layout.valueX + 1, nameY].style.dim)
    }

    func testGivenARequiredFieldEmptiedWhenLeftThenItIsRefusedWithTheReasonAndNoHiddenDefaultIsUsed() {
        // Given the name emptied
        let (state, effects) = run(Array(repeating: .backspace, count: 4) + [.tab], from: storyForm())
        // Then the focus stays on it with the reason, and it is still empty
        XCTAssertEqual(effects, [])
        XCTAssertEqual(form(state)?.focus, 0)
        XCTAssertEqual(form(state)?.fields[0].value, "")
        XCTAssertEqual(form(state)?.fields[0].message, "Name is required: it cannot be left empty")
    }

    func testGivenALongValueThenItsStartIsShownWhenTheFieldIsNotFocused() {
        // Given a long subtitle typed, then the focus moved to the destination
        let long = "The very long subtitle of a story that goes on and on past the box"
        let (state, _) = run([.tab] + typing(long) + [.tab], from: storyForm())
        guard let left = form(state) else { return }
        let layout = Screens.formLayout(left, width: 60, height: 20)
        let grid = Screens.form(left, width: 60, height: 20)
        let row = layout.rows.first { $0.field == 1 }?.y ?? -1
        let shown = (layout.valueX..<(layout.valueX + layout.valueWidth)).map { grid[$0, row].grapheme }.joined()
        // Then the start shows, cut with "…"
        XCTAssertTrue(shown.hasPrefix("The very long subtitle"), shown)
        XCTAssertTrue(shown.trimmingCharacters(in: .whitespaces).hasSuffix("…"), shown)
    }

    func testGivenADestinationThenItsResolvedPathIsShownUnderIt() {
        // Given the destination "docs/story" in /home/u/work
        guard let opened = form(storyForm()) else { return }
        let text = Screens.form(opened, width: 80, height: 20, currentFolder: "/home/u/work", home: "/home/u").plainText()
        // Then the form shows where it goes
        XCTAssertTrue(text.contains("→ /home/u/work/docs/story"), text)
        XCTAssertEqual(FormState.resolvedDestination("a/../../etc", folder: "/home/u/work", home: nil), "/home/u/etc")
        XCTAssertEqual(FormState.resolvedDestination("~/notes", folder: "/x", home: "/home/u"), "/home/u/notes")
    }

    func testGivenADestinationOutsideTheCurrentFolderWhenSubmittedThenItAsksFirstAndOnlyYCreatesIt() {
        // Given the destination a/../../etc
        let keys: [Key] = [.tab, .tab] + Array(repeating: .backspace, count: 10) + typing("a/../../etc") + [.enter]
        let (asked, none) = run(keys, from: storyForm())
        // Then nothing is created yet: the question names the resolved path, the form stays
        XCTAssertEqual(none, [])
        XCTAssertEqual(asked.confirming, .createOutside(resolved: "/home/u/etc"))
        guard let shown = form(asked) else { return }
        XCTAssertTrue(Screens.form(shown, width: 80, height: 20, currentFolder: "/home/u/work").plainText().contains("outside the current folder"))
        // When n is pressed, the form stays as it was, nothing typed into it
        let (declined, stillNone) = run([.character("n")], from: asked)
        XCTAssertEqual(stillNone, [])
        XCTAssertNil(declined.confirming)
        XCTAssertEqual(form(declined)?.fields[2].value, "a/../../etc")
        // When y is pressed, it is created
        XCTAssertEqual(run([.character("y")], from: asked).1,
                       [.instantiate(templateID: "story", answers: ["name": "Demo", "subtitle": "A story"], destination: "a/../../etc")])
        // And a destination inside the folder is created without asking
        XCTAssertEqual(run([.tab, .tab, .enter], from: storyForm()).1,
                       [.instantiate(templateID: "story", answers: ["name": "Demo", "subtitle": "A story"], destination: "docs/story")])
        // As is one in the documents folder the scene offers, even outside the current folder
        XCTAssertEqual(run([.tab, .tab, .enter], from: storyForm(folder: "~/Documents")).1,
                       [.instantiate(templateID: "story", answers: ["name": "Demo", "subtitle": "A story"], destination: "~/Documents/story")])
    }

    func testGoldenFormAskingAboutADestinationOutsideTheFolderAt60x16And160x45() {
        let keys: [Key] = [.tab, .tab] + Array(repeating: .backspace, count: 10) + typing("a/../../etc") + [.enter]
        for (w, h) in [(60, 16), (160, 45)] {
            var start = storyForm()
            start.columns = w; start.rows = h
            let (asked, _) = run(keys, from: start)
            guard let shown = form(asked) else { return }
            var grid = Screens.form(shown, width: w, height: h, currentFolder: asked.currentFolder, home: asked.home)
            Screens.decorate(&grid, state: asked, scene: scene)
            assertGolden(grid.plainText(), "sizes/form-destination-\(w)x\(h)")
        }
    }
}
