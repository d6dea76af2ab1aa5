@testable import FolioCLI
import FolioCLITestSupport
import FolioTemplates
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

    func testGivenACopierTemplateInTheLaunchersFormThenComputedDefaultsShowUnaskedQuestionsHideAndAnUntouchedOneFollowsTheOthers() throws {
        // Given the copier fixture template (its slug computed from its name; module_name and ci_provider not asked)
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FolioTemplatesTests/Fixtures/copier/project")
        let temp = TemporaryDirectory()
        let template = try TemplateResolver(environment: temp.environment()).templateAtNow(TemplateSource(name: "project", location: folder.path))
        // When the form is made
        let fields = TemplateCatalogAdapter.formVariables(template)
        // Then it shows copier's computed defaults and leaves out what copier would not ask
        XCTAssertEqual(fields.first { $0.name == "project_slug" }?.defaultValue, "hello-world")
        XCTAssertEqual(fields.first { $0.name == "features" }?.defaultValue, "docs,tests")
        XCTAssertNil(fields.first { $0.name == "module_name" })
        XCTAssertNil(fields.first { $0.name == "ci_provider" })
        // And a slug left as it opened follows the name typed
        var form = Dictionary(uniqueKeysWithValues: fields.map { ($0.name, $0.defaultValue) })
        form["project_name"] = "My Tool"
        let collected = try template.answers(given: TemplateCatalogAdapter.answers(form, for: template), mode: .defaults, context: [:])
        XCTAssertEqual(collected["project_slug"], .string("my-tool"))
        XCTAssertEqual(collected["module_name"], .string("my_tool"))
    }
}
