import Foundation
import XCTest
import FolioCore
import FolioTemplates
import FolioTestSupport

/// Links in a template are judged where they really lead once written: through every other link they pass.
final class TemplateLinkChainTests: XCTestCase {
    private func link(_ path: String, _ target: String) -> TemplateFile {
        TemplateFile(path: path, data: Data(target.utf8), mode: 0o120000)
    }

    func testGivenLinksBToDotAndAToBDotDotWhenRenderedThenRefusedNamingTheLink() throws {
        // Given `b -> .` and `a -> b/..`: each looks harmless alone, together `a` is the document's parent
        let template = try memoryTemplate(files: [link("b", "."), link("a", "b/.."), file("x.txt", "x")])
        // When rendered, then `a` is refused as leading outside the document
        assertThrows(try template.render(answers: [:]), containing: ["files/a", "link to 'b/..'", "outside the document"])
    }

    func testGivenTheChainInstantiatedWhenItFailsThenNoDocumentIsCreated() throws {
        let dir = TemporaryDirectory()
        let store = DocumentStore(settings: Settings(), environment: dir.environment())
        let template = try memoryTemplate(files: [link("sub/b", ".."), link("sub/a", "b/.."), file("x.txt", "x")])
        // When instantiated, then it fails and nothing is left beside the destination
        XCTAssertThrowsError(try template.instantiate(at: dir.path("Doc"), answers: [:], store: store))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("Doc").path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.hasPrefix(".folio") }, [])
    }

    func testGivenLinksThatLoopWhenRenderedThenRefused() throws {
        // Given `p -> q` and `q -> p`, then rendering refuses them instead of looping
        let loop = try memoryTemplate(files: [link("p", "q"), link("q", "p")])
        assertThrows(try loop.render(answers: [:]), containing: ["files/p", "more than 40 links"])
        // And a link climbing above a link that names the root (`top -> d/..`, `esc -> top/..`) is refused too,
        // while `d/up -> ../top`, which ends at the root, is fine on its own
        let fine = try memoryTemplate(files: [link("d/up", "../top"), link("top", "d/.."), file("d/x", "x")])
        XCTAssertEqual(try fine.render(answers: [:]).count, 3)
        let climb = try memoryTemplate(files: [link("d/up", "../top"), link("top", "d/.."), link("esc", "top/.."), file("d/x", "x")])
        assertThrows(try climb.render(answers: [:]), containing: ["files/esc", "outside the document"])
    }

    func testGivenLinksChainingInsideTheDocumentWhenRenderedThenKept() throws {
        // Given `docs/current -> v2`, `latest -> docs/current/readme.md` with docs/v2/readme.md a file
        let template = try memoryTemplate(files: [file("docs/v2/readme.md", "r"), link("docs/current", "v2"), link("latest", "docs/current/readme.md")])
        // When rendered, then both links are kept as they are
        let files = try template.render(answers: [:])
        XCTAssertEqual(files.first { $0.path == "latest" }?.symlinkTarget, "docs/current/readme.md")
        XCTAssertEqual(files.first { $0.path == "docs/current" }?.symlinkTarget, "v2")
    }
}
