import FolioCore
import XCTest

final class ContentTypeTests: XCTestCase {
    func testConformanceFollowsTheGraphTransitively() {
        let registry = ContentTypeRegistry()
        XCTAssertTrue(registry.conforms("org.folio.checklist", to: .json))
        XCTAssertTrue(registry.conforms("org.folio.checklist", to: .data))
        XCTAssertFalse(registry.conforms(.json, to: "org.folio.checklist"))
        XCTAssertEqual(registry.distance(from: "org.folio.story", to: .plainText), 2)
        XCTAssertNil(registry.distance(from: .plainText, to: .json))
    }

    func testDeclaredTypesJoinTheGraphAndClaimExtensions() {
        var registry = ContentTypeRegistry()
        registry.declare(ContentTypeDeclaration("com.example.recipe", conformsTo: ["org.folio.checklist"], extensions: ["recipe"], declaredBy: "recipes"))
        XCTAssertTrue(registry.conforms("com.example.recipe", to: .json))
        XCTAssertEqual(registry.type(forExtension: "RECIPE"), "com.example.recipe")
        XCTAssertEqual(registry.type(forExtension: "md"), .markdown)
        XCTAssertEqual(registry.type(forExtension: "txt"), .plainText)
        XCTAssertNil(registry.type(forExtension: "xyz"))
    }
}

/// A blank document of a type a plugin declares is named with the extension the plugin gives, when it is a plain name.
final class DeclaredExtensionPrimaryFileTests: XCTestCase {
    func testGivenTypesDeclaredByAPluginThenTheFirstPlainExtensionNamesThePrimaryFileAndAnythingElseIsLeftOut() {
        var registry = ContentTypeRegistry.builtIn
        registry.declare(ContentTypeDeclaration("org.example.tally", conformsTo: [.plainText], extensions: ["tally"], declaredBy: "org.example"))
        registry.declare(ContentTypeDeclaration("org.example.evil", conformsTo: [.plainText], extensions: ["../x", "a/b", "", "ok"], declaredBy: "org.example"))
        registry.declare(ContentTypeDeclaration("org.example.none", conformsTo: [], extensions: ["../../etc", String(repeating: "a", count: 17)], declaredBy: "org.example"))
        XCTAssertEqual(DocumentMetadata.defaultPrimaryFile(for: "org.example.tally", registry: registry), "document.tally")
        XCTAssertEqual(DocumentMetadata.defaultPrimaryFile(for: "org.example.evil", registry: registry), "document.ok")
        XCTAssertEqual(DocumentMetadata.defaultPrimaryFile(for: "org.example.none", registry: registry), "document")
        // Folio's own types keep their format's extension
        XCTAssertEqual(DocumentMetadata.defaultPrimaryFile(for: "org.folio.checklist", registry: registry), "document.json")
        XCTAssertEqual(DocumentMetadata.defaultPrimaryFile(for: .markdown, registry: registry), "document.md")
    }
}
