@testable import FolioCLI
import FolioCLITestSupport
import FolioTestSupport
import Foundation
import XCTest

/// The settings screen's check of a template source being added (issue 23), as `TemplateCatalogAdapter` does it:
/// a template repository says how many templates it holds, anything else why it cannot be used.
final class TemplateSourceCheckTests: XCTestCase {
    func testAFolderOfTemplatesIsATemplateRepositoryAndAnEmptyOneIsNot() async throws {
        // Given a folder holding one template and an empty folder
        let dir = TemporaryDirectory("folio-source-check")
        let templates = dir.path("templates/note")
        try FileManager.default.createDirectory(at: templates.appendingPathComponent("files"), withIntermediateDirectories: true)
        try Data(#"{"id": "note", "name": "Note", "contentType": "public.plain-text"}"#.utf8).write(to: templates.appendingPathComponent("template.json"))
        try Data("hello\n".utf8).write(to: templates.appendingPathComponent("files/note.txt"))
        try FileManager.default.createDirectory(at: dir.path("empty"), withIntermediateDirectories: true)
        let catalog = TemplateCatalogAdapter(environment: dir.environment())
        // When each is checked
        let found = try await catalog.checkSource(name: "mine", url: dir.path("templates").path, ref: nil)
        // Then the first holds one template, the empty one is refused with the reason, and a missing one too
        XCTAssertEqual(found, "1 template")
        do {
            _ = try await catalog.checkSource(name: "empty", url: dir.path("empty").path, ref: nil)
            XCTFail("an empty folder is not a template repository")
        } catch {
            XCTAssertEqual("\(error)", "holds no template (no template.json found)")
        }
        do {
            _ = try await catalog.checkSource(name: "gone", url: dir.path("missing").path, ref: nil)
            XCTFail("a missing folder cannot be used")
        } catch {
            XCTAssertTrue("\(error)".hasPrefix("could not be read: "), "\(error)")
        }
    }
}
