import FolioCore
@testable import FolioPlugins
import XCTest

final class EditorChoiceTests: XCTestCase {
    private let registry = ContentTypeRegistry()

    private func editor(_ id: String, _ types: [ContentType], _ priority: EditorPriority = .default) -> EditorManifest {
        EditorManifest(id: id, name: id, contentTypes: types, priority: priority)
    }

    func testGivenADefaultAndAnOptionForTheSameTypeWhenRankedThenTheDefaultComesFirst() {
        let ranked = EditorRanking.rank([editor("a-option", ["org.folio.story"], .option), editor("z-default", ["public.plain-text"])],
                                        for: "org.folio.story", in: registry)
        XCTAssertEqual(ranked.map(\.id), ["z-default", "a-option"], "priority beats specificity and id")
    }

    func testGivenEditorsOfEqualPriorityWhenRankedThenTheMostSpecificTypeWins() {
        let ranked = EditorRanking.rank([editor("plain", ["public.plain-text"]), editor("markdown", ["net.daringfireball.markdown"]),
                                         editor("story", ["org.folio.story"])], for: "org.folio.story", in: registry)
        XCTAssertEqual(ranked.map(\.id), ["story", "markdown", "plain"])
    }

    func testGivenATieWhenRankedThenEditorIdBreaksIt() {
        let ranked = EditorRanking.rank([editor("b", ["public.json"]), editor("a", ["public.json"])], for: "org.folio.checklist", in: registry)
        XCTAssertEqual(ranked.map(\.id), ["a", "b"])
    }

    func testGivenEditorsForUnrelatedTypesWhenRankedThenTheyAreLeftOut() {
        let ranked = EditorRanking.rank([editor("json", ["public.json"]), editor("plain", ["public.plain-text"])], for: "org.folio.story", in: registry)
        XCTAssertEqual(ranked.map(\.id), ["plain"])
    }

    func testGivenAUserAssociationWhenChoosingThenItBeatsTheRanking() {
        let editors = [editor("story", ["org.folio.story"]), editor("plain", ["public.plain-text"], .option)]
        let chosen = EditorRanking.associated(editors, for: "org.folio.story", in: registry, associations: ["org.folio.story": "plain"])
        XCTAssertEqual(chosen?.0.id, "plain")
        let viaAncestor = EditorRanking.associated(editors, for: "org.folio.story", in: registry, associations: ["net.daringfireball.markdown": "plain"])
        XCTAssertEqual(viaAncestor?.0.id, "plain", "an association for an ancestor type applies too")
        XCTAssertNil(EditorRanking.associated(editors, for: "org.folio.story", in: registry, associations: ["org.folio.story": "missing"]))
    }

    func testGivenTheBundledPluginsWhenChoosingThenEachTypeGetsItsEditorAndPlainTextIsTheFallback() throws {
        let host = PluginFixtures.bundledHost()
        XCTAssertEqual(try host.chooseEditor(for: "org.folio.checklist").editor.id, "checklist")
        XCTAssertEqual(try host.chooseEditor(for: "org.folio.story").editor.id, "story")
        XCTAssertEqual(try host.chooseEditor(for: "org.folio.shapes").editor.id, "shapes")
        XCTAssertEqual(try host.chooseEditor(for: .markdown).editor.id, "plain-text")
        XCTAssertEqual(try host.chooseEditor(for: .plainText).editor.id, "plain-text")
        let association = try host.chooseEditor(for: "org.folio.story", associations: ["org.folio.story": "plain-text"])
        XCTAssertEqual(association.editor.id, "plain-text")
        XCTAssertEqual(association.reason, .association)
        let reopened = try host.chooseEditor(for: "org.folio.story", associations: ["org.folio.story": "plain-text"], override: "story")
        XCTAssertEqual(reopened.editor.id, "story")
        XCTAssertEqual(reopened.reason, .override)
        XCTAssertThrowsError(try host.chooseEditor(for: "public.data")) { error in
            XCTAssertEqual(error as? PluginError, .noEditor(contentType: "public.data"))
            XCTAssertEqual("\(error)", "no editor for content type public.data")
        }
    }

    func testGivenTheBundledPluginsWhenDiscoveredThenTheirManifestsMatchTheLibraries() throws {
        let host = PluginFixtures.bundledHost()
        XCTAssertEqual(host.refusals, [])
        XCTAssertEqual(host.plugins.map(\.manifest.id).sorted(),
                       ["org.folio.plugins.checklist", "org.folio.plugins.plain-text", "org.folio.plugins.shapes", "org.folio.plugins.story"])
        for plugin in host.plugins {
            let checked = PluginFixtures.check(plugin.library)
            XCTAssertEqual(checked.editors, plugin.manifest.editors, plugin.manifest.id)
        }
        XCTAssertEqual(host.contentTypes.declaration(of: "org.folio.shapes")?.conformsTo, [.json])
    }

    func testGivenAPluginInstalledInTheUserDataFolderWhenDiscoveredThenItsManifestBesideItIsUsed() throws {
        let home = try PluginFixtures.temporaryFolder(self)
        let plugins = home.appendingPathComponent("data/folio/plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let library = plugins.appendingPathComponent("libFolioChecklist.so")
        try FileManager.default.copyItem(at: PluginFixtures.buildFolder.appendingPathComponent("libFolioChecklist.so"), to: library)
        try PluginFixtures.writeManifest(try PluginManifest.generate(forLibrary: library, isolation: PluginIsolation()), beside: library)
        let path = PluginSearchPath.standard(environment: ["HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("data").path],
                                             executableFolder: nil)
        let host = EditorRegistry(searchPath: path)
        XCTAssertEqual(host.refusals, [])
        XCTAssertEqual(host.plugins.map(\.library), [library])
        XCTAssertEqual(try host.backend("checklist").openDocument(Data()).view(RenderRequest(width: 30, height: 2)),
                       ["Checklist  (0/0 done)", "  (no items: add TITLE)"])
    }
}
