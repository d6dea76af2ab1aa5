@testable import FolioCLI
import FolioCLITestSupport
@testable import FolioLaunch
import FolioTemplates
import FolioTerminal
import Foundation
import XCTest

/// The launcher form's answers as a template takes them: a field emptied by the user is an empty answer, never the
/// variable's hidden default.
final class FormAnswersTests: XCTestCase {
    func testGivenAFieldWithADefaultEmptiedInTheFormThenTheTemplateGetsAnEmptyAnswerNotTheDefault() throws {
        // Given a template whose subtitle defaults to "A story"
        let json = #"{"id": "test/t", "name": "T", "version": "1.0.0", "variables": [{"name": "subtitle", "type": "string", "default": "A story"}]}"#
        let manifest = try TemplateManifest.parse(Data(json.utf8), file: "template.json")
        let template = Template(manifest: manifest, path: "t", source: TemplateSource(name: "test", location: "/nowhere"),
                                commit: String(repeating: "a", count: 40), ref: nil, files: [])
        // When the form sends the subtitle emptied
        let given = TemplateCatalogAdapter.answers(["subtitle": ""], for: template)
        // Then the answer is empty, and the rendered answers keep it empty
        XCTAssertEqual(given["subtitle"], .string(""))
        let collected = try template.answers(given: given, mode: .defaults, context: [:])
        XCTAssertEqual(collected["subtitle"], .string(""))
    }

    private func copierProject() throws -> Template {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FolioTemplatesTests/Fixtures/copier/project")
        let temp = TemporaryDirectory()
        return try TemplateResolver(environment: temp.environment()).templateAtNow(TemplateSource(name: "project", location: folder.path))
    }

    /// The launcher's form for `template`, as the picker opens it, after `keys`.
    private func form(_ template: Template, after keys: [Key]) throws -> FormState {
        let summary = FolioLaunch.TemplateSummary(id: template.manifest.id, name: "Project", contentType: "public.plain-text",
                                                  variables: TemplateCatalogAdapter.formVariables(template), liveCheck: TemplateCatalogAdapter.liveCheck(template))
        var state = AppState()
        state.screen = .form(AppState.templateForm(summary, folder: "."))
        for key in keys { state = state.handling(key, scene: .defaultScene).0 }
        guard case let .form(form) = state.screen else { throw XCTSkip("the form closed") }
        return form
    }

    private func field(_ form: FormState, _ name: String) -> FormState.Field? { form.fields.first { $0.name == name } }

    func testGivenACopierTemplateInTheLaunchersFormThenComputedDefaultsShowUnaskedQuestionsHideAndAnUntouchedOneFollowsTheOthers() throws {
        // Given the copier fixture template (its slug computed from its name; module_name and ci_provider not asked)
        let template = try copierProject()
        // When the form opens
        let opened = try form(template, after: [])
        // Then it shows copier's computed defaults and leaves out what copier would not ask
        XCTAssertEqual(field(opened, "project_slug")?.value, "hello-world")
        XCTAssertEqual(field(opened, "features")?.value, "docs,tests")
        XCTAssertEqual(field(opened, "license")?.value, "MIT License", "a choice shows its label, as the form lists the choices")
        XCTAssertNil(field(opened, "module_name"))
        XCTAssertNil(field(opened, "ci_provider"))
        XCTAssertEqual(opened.fields.last?.name, "destination")
        // When a name is typed, the slug left as it opened follows it at once, and the answers give copier's values
        let typed = try form(template, after: Array(repeating: Key.backspace, count: 11) + "My Tool".map(Key.character))
        XCTAssertEqual(field(typed, "project_name")?.value, "My Tool")
        XCTAssertEqual(field(typed, "project_slug")?.value, "my-tool")
        let values = Dictionary(uniqueKeysWithValues: typed.fields.map { ($0.name, $0.value) })
        let collected = try template.answers(given: TemplateCatalogAdapter.answers(values, for: template), mode: .defaults, context: [:])
        XCTAssertEqual(collected["project_slug"], .string("my-tool"))
        XCTAssertEqual(collected["module_name"], .string("my_tool"))
        XCTAssertEqual(collected["license"], .string("MIT"))
        XCTAssertEqual(collected["python"], .string("3.12"))
    }

    func testGivenACopierFormWhenAnAnswerTurnsAWhenOnThenItsQuestionAppearsAndWhenAValidatorRefusesThenTheFieldSaysWhyAndSubmitStops() throws {
        let template = try copierProject()
        let opened = try form(template, after: [])
        let features = try XCTUnwrap(opened.fields.firstIndex { $0.name == "features" })
        // When ",ci" is added to the features (use_ci then defaults to yes, and its when shows ci_provider)
        let withCI = try form(template, after: Array(repeating: Key.tab, count: features) + [.end] + ",ci".map(Key.character))
        XCTAssertEqual(field(withCI, "use_ci")?.value, "yes")
        XCTAssertEqual(field(withCI, "ci_provider")?.value, "github", "\(withCI.fields.map(\.name))")
        let order = withCI.fields.map(\.name)
        XCTAssertEqual(order.firstIndex(of: "ci_provider"), (order.firstIndex(of: "use_ci") ?? -2) + 1, "in the template's order: \(order)")
        // When the slug is typed in a form copier's validator refuses, the field says so as it is typed
        let slug = try XCTUnwrap(opened.fields.firstIndex { $0.name == "project_slug" })
        let refused = try form(template, after: Array(repeating: Key.tab, count: slug) + Array(repeating: Key.backspace, count: 11) + "Bad Slug".map(Key.character))
        XCTAssertTrue(field(refused, "project_slug")?.message?.contains("Use lower-case letters, digits and dashes") ?? false, "\(String(describing: field(refused, "project_slug")))")
        // And Enter does not leave it
        let submitted = try form(template, after: Array(repeating: Key.tab, count: slug) + Array(repeating: Key.backspace, count: 11) + "Bad Slug".map(Key.character) + [.enter])
        XCTAssertEqual(submitted.fields[submitted.focus].name, "project_slug")
    }

    func testGivenACopierSecretQuestionInTheFormWhenItIsShownThenItsValueIsNeverDrawnOnlyADotPerCharacter() throws {
        let template = try copierProject()
        let opened = try form(template, after: [])
        XCTAssertEqual(field(opened, "api_token")?.value, "changeme")
        var scrolled = opened
        scrolled.focus = try XCTUnwrap(opened.fields.firstIndex { $0.name == "api_token" })
        let screen = Screens.form(scrolled, width: 100, height: 40).plainText()
        XCTAssertFalse(screen.contains("changeme"), screen)
        XCTAssertTrue(screen.contains("••••••••"), screen)
    }
}
