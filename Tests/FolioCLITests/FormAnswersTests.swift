@testable import FolioCLI
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
}
