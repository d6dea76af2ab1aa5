@testable import FolioCLI
import FolioCore
import FolioLaunch
@testable import FolioPlugins
import FolioTestSupport
import Foundation
import XCTest

/// Which documents open in the generic view, and why the status line says they do.
final class GenericViewReasonTests: XCTestCase {
    var dir: TemporaryDirectory!
    var env: [String: String] = [:]

    override func setUp() {
        dir = TemporaryDirectory("folio-generic-reason")
        env = dir.environment()
    }

    func session(_ name: String, type: ContentType, associations: [String: String] = [:]) throws -> DocumentSessionAdapter {
        let store = try DocumentStore(environment: env)
        let document = try store.create(at: dir.path(name), contentType: type, title: nil)
        return DocumentSessionAdapter(document: document, host: EditorRegistry(environment: env, settings: store.settings), associations: associations)
    }

    func testGivenAProjectNoEditorHandlesThenTheGenericViewSaysSo() throws {
        let session = try session("pkg", type: "org.folio.project")
        XCTAssertEqual(GenericDocumentFiles.reason(for: session), .noEditor(contentType: "org.folio.project"))
        XCTAssertNotNil(GenericDocumentFiles(session: session, environment: env))
    }

    func testGivenAnAssociationWithAnEditorThatIsNotInstalledThenTheGenericViewNamesIt() throws {
        let session = try session("pkg", type: "org.folio.project", associations: ["org.folio.project": "gone-editor"])
        XCTAssertEqual(GenericDocumentFiles.reason(for: session), .editorMissing("gone-editor"))
    }

    func testGivenAChecklistWithItsEditorThenNoGenericView() throws {
        let session = try session("list", type: "org.folio.checklist")
        try XCTSkipIf(session.editorManifest == nil, "the bundled checklist plugin is not built beside the tests")
        XCTAssertNil(GenericDocumentFiles.reason(for: session))
        XCTAssertNil(GenericDocumentFiles(session: session, environment: env), "an editor opens it")
    }

    func testGivenTheChecklistEditorQuarantinedThenTheGenericViewSaysSo() throws {
        let session = try session("list", type: "org.folio.checklist")
        guard let chosen = session.editorManifest, let plugin = session.host.editors.first(where: { $0.editor.id == chosen.id })?.plugin,
              let quarantine = session.host.isolation.quarantine else { throw XCTSkip("the bundled checklist plugin is not built beside the tests") }
        for _ in 0..<PluginQuarantine.strikes {
            quarantine.strike(library: plugin.library, plugin: plugin.manifest.id,
                              PluginStrike(time: Date(), editor: chosen.id, command: "crash", cause: "SIGSEGV"))
        }
        XCTAssertEqual(GenericDocumentFiles.reason(for: session), .editorQuarantined(chosen.id))
    }

    func testGivenAFileNamedWithEscapesThenItIsListedWithItsSizeAndShownSanitizedAndGitFilesAreNotReadable() throws {
        let session = try session("pkg", type: "org.folio.project")
        try session.document.apply([.write(path: "a\u{1B}[2J.txt", data: Data("x\u{1B}]0;t\u{07}\n".utf8))], message: "Evil")
        let files = try XCTUnwrap(GenericDocumentFiles(session: session, environment: env))
        XCTAssertTrue(try files.files().contains { $0.path == "a\u{1B}[2J.txt" && $0.size == 8 })
        XCTAssertEqual(try files.content(of: "a\u{1B}[2J.txt").lines, ["x\\e]0;t\\x07"])
        XCTAssertThrowsError(try files.content(of: ".git/config"))
    }
}
