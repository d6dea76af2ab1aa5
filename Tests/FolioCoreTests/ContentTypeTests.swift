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
