@testable import FolioCLI
import FolioCLITestSupport
@testable import FolioLaunch
import FolioTestSupport
import Foundation
import XCTest

/// Templates that come with an installed plugin package appear in the launcher's template picker
/// (`TemplateCatalogAdapter`, the state the picker draws) with the plugin as their source, and go when it is removed
/// or disabled; a refused duplicate of a document's plugin is named in the editor's status when a window opens it.
final class PluginPackagePickerTests: XCTestCase {
    /// A small C plugin (one editor for org.test.picker), compiled with `cc` against the plugin header.
    static let source = PluginCSource.mini(id: "org.test.picker", editor: "picker")

    private static let header = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/FolioPluginABI/include")

    /// A plugin project with its built library and one starter template.
    private func makeProject(in dir: TemporaryDirectory) throws {
        let build = dir.path("project/build")
        try FileManager.default.createDirectory(at: build, withIntermediateDirectories: true)
        for url in [dir.path("project"), build] { chmod(url.path, 0o755) }
        try Data(Self.source.utf8).write(to: build.appendingPathComponent("picker.c"))
        let compiled = try runProgram("cc", ["-shared", "-fPIC", "-I", Self.header.path, "-o", build.appendingPathComponent("libPicker.so").path,
                                             build.appendingPathComponent("picker.c").path])
        XCTAssertEqual(compiled.status, 0, compiled.stderr)
        try FileManager.default.removeItem(at: build.appendingPathComponent("picker.c"))
        let template = dir.path("project/templates/picker/starter")
        try FileManager.default.createDirectory(at: template.appendingPathComponent("files"), withIntermediateDirectories: true)
        try Data(#"{"id": "picker/starter", "name": "Picker start", "summary": "From the plugin.", "version": "1.0.0", "contentType": "org.test.picker", "primaryFile": "doc.txt"}"#.utf8)
            .write(to: template.appendingPathComponent("template.json"))
        try Data("start\n".utf8).write(to: template.appendingPathComponent("files/doc.txt"))
    }

    func testGivenAnInstalledPackageWithATemplateWhenThePickerListsSourcesThenItsTemplateIsOfferedUnderThePluginUntilRemoved() async throws {
        // Given a packed and installed plugin package holding one template
        let dir = TemporaryDirectory("folio-package-picker")
        let env = dir.environment()
        try makeProject(in: dir)
        let packed = runFolio(["plugins", "pack", "project", "-o", "picker.tar"], environment: env, cwd: dir.url)
        XCTAssertEqual(packed.status, 0, packed.stderr)
        let installed = runFolio(["plugins", "install", "picker.tar"], environment: env, cwd: dir.url)
        XCTAssertEqual(installed.status, 0, installed.stderr)
        // When the picker's catalog lists its sources and that source's templates
        let catalog = TemplateCatalogAdapter(environment: env)
        // Then the plugin is a source and its template is offered, for the plugin's content type
        XCTAssertTrue(catalog.sourceNames().contains("plugin:org.test.picker"), "\(catalog.sourceNames())")
        let offered = try await catalog.templates(in: "plugin:org.test.picker")
        XCTAssertEqual(offered.map(\.id), ["picker/starter"])
        XCTAssertEqual(offered.first?.contentType.identifier, "org.test.picker")
        // When the plugin is disabled, then removed, its template is no longer offered
        XCTAssertEqual(runFolio(["plugins", "disable", "org.test.picker"], environment: env, cwd: dir.url).status, 0)
        XCTAssertFalse(TemplateCatalogAdapter(environment: env).sourceNames().contains("plugin:org.test.picker"))
        XCTAssertEqual(runFolio(["plugins", "enable", "org.test.picker"], environment: env, cwd: dir.url).status, 0)
        XCTAssertTrue(TemplateCatalogAdapter(environment: env).sourceNames().contains("plugin:org.test.picker"))
        XCTAssertEqual(runFolio(["plugins", "remove", "org.test.picker"], environment: env, cwd: dir.url).status, 0)
        XCTAssertFalse(TemplateCatalogAdapter(environment: env).sourceNames().contains("plugin:org.test.picker"))
    }

    func testGivenADuplicateOfTheEditorsPluginOnFolioPluginPathWhenAWindowOpensADocumentThenTheEditorsStatusSaysWhichCopyIsUsed() throws {
        // Given the plugin installed, a copy of it on FOLIO_PLUGIN_PATH, and a document of its type
        let dir = TemporaryDirectory("folio-package-status")
        var env = dir.environment()
        try makeProject(in: dir)
        XCTAssertEqual(runFolio(["plugins", "install", "project/build/libPicker.so"], environment: env, cwd: dir.url).status, 0)
        XCTAssertEqual(runFolio(["new", "doc", "--type", "org.test.picker"], environment: env, cwd: dir.url).status, 0)
        env["FOLIO_PLUGIN_PATH"] = dir.path("project/build").path
        // When a window opens the document
        let session = try DocumentSessionAdapter(url: dir.path("doc"), environment: env)
        let screen = LaunchApp.initialScreen(document: session, saved: nil)
        // Then the editor's status line names the refused copy and the one used
        guard case let .editor(editor) = screen else { return XCTFail("\(screen)") }
        let installed = dir.path("home/.local/share/folio/plugins/org.test.picker/libPicker.so").path
        XCTAssertEqual(editor.message, .note("\(dir.path("project/build/libPicker.so").path): plugin refused: duplicate plugin id 'org.test.picker', "
                       + "already provided by \(installed) (which is used) (remove one copy, or develop with: folio plugins link DIR)"))
    }
}
