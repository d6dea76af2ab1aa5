import XCTest
import FolioCore
@testable import FolioLaunch
@testable import FolioTerminal

/// The template picker (issue 23): columns at every width from 60, relevance before groups while filtering, j/k,
/// readable file names, Esc on a template's form back to the picker.
final class PickerLayoutTests: XCTestCase {
    let scene = LaunchScene.defaultScene
    /// The bundled catalog as the picker sees it.
    static let bundled = [TemplateSourceStatus(name: "folio-templates", state: .loaded([
        TemplateSummary(id: "story/three-act", name: "Three-act story", group: "stories", contentType: "org.folio.story",
                        summary: "Three acts of scenes to fill in."),
        TemplateSummary(id: "checklist/groceries", name: "Grocery list", group: "lists", contentType: "org.folio.checklist",
                        summary: "Aisles in shop order."),
        TemplateSummary(id: "shapes/blank", name: "Blank drawing", group: "drawings", contentType: "org.folio.shapes", summary: "An empty canvas."),
        TemplateSummary(id: "swift/package", name: "Swift package", group: "projects", contentType: "org.folio.project",
                        summary: "A Swift package with a library, tests, an optional command-line tool, CI, documentation and a license.",
                        variables: [TemplateVariable(name: "name", prompt: "Package name", required: true),
                                    TemplateVariable(name: "ci", prompt: "CI workflow", defaultValue: "yes", choices: ["no", "yes"])],
                        files: ["Package.swift", TemplateSummary.readablePath("{{#ci}}.github{{%2Fci}}/workflows/ci.yml"),
                                TemplateSummary.readablePath("{{#docs}}docs{{%2Fdocs}}/GettingStarted.md")]),
        TemplateSummary(id: "plugin/swift", name: "Editor plugin in Swift", group: "plugins", contentType: "org.folio.project",
                        summary: "A Folio editor plugin as a Swift package on FolioPluginKit: a list of lines to start from and a README."),
        TemplateSummary(id: "plugin/c", name: "Editor plugin in C", group: "plugins", contentType: "org.folio.project",
                        summary: "A Folio editor plugin in C against the plugin ABI."),
    ]))]

    func picker(_ width: Int, _ height: Int, _ picker: PickerState = PickerState()) -> AppState {
        var state = AppState(templates: Self.bundled)
        state.columns = width; state.rows = height
        state.screen = .picker(picker)
        return state
    }

    func press(_ keys: [Key], _ state: AppState) -> AppState { keys.reduce(state) { $0.handling($1, scene: scene).0 } }
    func typing(_ text: String) -> [Key] { text.map(Key.character) }

    func shown(_ state: AppState) -> String {
        guard case let .picker(picker) = state.screen else { return "" }
        return Screens.picker(picker, sources: state.templates, width: state.columns, height: state.rows).plainText()
    }

    func selected(_ state: AppState) -> String? {
        guard case let .picker(picker) = state.screen else { return nil }
        let visible = picker.visible(state.templates)
        return visible.indices.contains(picker.selection) ? visible[picker.selection].name : nil
    }

    func testNamesNeverRunIntoTheTypeColumnAtAnyWidthFrom60() {
        for width in 60...160 {
            // Given the picker at this width
            let lines = shown(picker(width, 30)).split(separator: "\n").map(String.init)
            // Then each template's row has its name, then at least one blank cell, then its type (cut with "…" if need be)
            for name in ["Blank drawing", "Editor plugin in Swift", "Grocery list"] {
                guard let row = lines.first(where: { $0.contains(String(name.prefix(6))) && !$0.contains("Choose") }) else {
                    return XCTFail("\(width): no row for \(name)")
                }
                XCTAssertFalse(row.contains("drawingshapes") || row.contains("pluginproject") || row.contains("listchecklist"), "\(width): \(row)")
            }
        }
    }

    func testTypingSwiftPackSelectsSwiftPackage() {
        // Given the picker
        // When "swift pack" is typed
        let state = press(typing("swift pack"), picker(100, 30))
        // Then the template named so is selected, before the plugin whose summary mentions a Swift package
        XCTAssertEqual(selected(state), "Swift package")
    }

    func testJAndKMoveWhileTheListHasTheFocusAndTypeInTheFilterAfterOtherLetters() {
        // Given the picker just opened
        let opened = picker(100, 30)
        // When j is pressed twice, then k once
        let moved = press([.character("j"), .character("j"), .character("k")], opened)
        // Then the selection moved down one row, and the filter is empty
        guard case let .picker(state) = moved.screen else { return XCTFail() }
        XCTAssertEqual(state.selection, 1)
        XCTAssertEqual(state.filter, "")
        // When a filter is typed that has a j and a k in it ("/" first, since it starts with a k)
        let typed = press([.character("/")] + typing("kj"), opened)
        guard case let .picker(filtering) = typed.screen else { return XCTFail() }
        XCTAssertEqual(filtering.filter, "kj")
        // And after other letters, j is a letter too; ↓ moves and gives the list the focus again, then j moves
        let word = press(typing("plugj"), opened)
        guard case let .picker(p) = word.screen else { return XCTFail() }
        XCTAssertEqual(p.filter, "plugj")
        let back = press([.backspace, .down, .character("j")], word)
        guard case let .picker(b) = back.screen else { return XCTFail() }
        XCTAssertEqual(b.filter, "plug")
        XCTAssertEqual(b.selection, 1, "↓ then j: the second of the plugin templates")
    }

    func testEscOnATemplatesFormGoesBackToThePickerAndChoosingItAgainKeepsTheValues() {
        // Given the form of "Swift package", chosen after a filter, with a name typed
        let form = press(typing("swift pack") + [.enter] + typing("Widget"), picker(100, 30))
        guard case .form = form.screen else { return XCTFail("expected the form") }
        // When Esc is pressed
        let back = press([.escape], form)
        // Then the picker is back, with its filter and selection, nothing asked
        XCTAssertNil(back.confirming)
        XCTAssertEqual(selected(back), "Swift package")
        guard case let .picker(state) = back.screen else { return XCTFail("expected the picker") }
        XCTAssertEqual(state.filter, "swift pack")
        // And choosing the template again shows the name typed before
        let again = press([.enter], back)
        guard case let .form(reopened) = again.screen else { return XCTFail("expected the form") }
        XCTAssertEqual(reopened.fields.first?.value, "Widget")
    }

    func testFileNamesAreShownDecoded() {
        // Given the Swift package selected
        let text = shown(press(typing("swift pack"), picker(160, 45)))
        // Then its conditional files read as names with their condition, no encoded tags
        XCTAssertTrue(text.contains(".github/workflows/ci.yml (if ci)"), text)
        XCTAssertTrue(text.contains("docs/GettingStarted.md (if docs)"), text)
        XCTAssertFalse(text.contains("%2F"), text)
        XCTAssertEqual(TemplateSummary.readablePath("{{^lite}}full.md{{%2Flite}}"), "full.md (unless lite)")
        XCTAssertEqual(TemplateSummary.readablePath("{{name}}.md"), "{{name}}.md")
    }

    func testGoldenPickerAt60And70Columns() {
        for width in [60, 70] {
            assertGolden(shown(picker(width, 16)), "launcher23/picker-\(width)x16")
            assertGolden(shown(press(typing("swift pack"), picker(width, 16))), "launcher23/picker-\(width)x16-filtered")
        }
    }
}
