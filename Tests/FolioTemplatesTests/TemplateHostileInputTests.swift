import FolioCore
import FolioTemplates
import FolioTestSupport
import Foundation
import XCTest

/// Hostile template sources: malformed manifests and catalogs are warnings with their position, file names that are
/// not UTF-8 are refused rather than renamed or dropped.
final class TemplateHostileInputTests: XCTestCase {
    func testGivenHostileManifestsWhenParsedThenEachIsAOneLineErrorWithItsPosition() {
        let base = #""id": "t/x", "name": "X""#
        let cases: [(String, String)] = [
            ("{\(base), \"id\": \"t/y\"}", "line 1, column 28: duplicate key 'id' (first at line 1, column 2)"),
            ("{\(base), \"summary\": \"\\uD800\"}", "lone UTF-16 surrogate"),
            ("{\(base), \"variables\": [{\"name\": \"n\", \"type\": \"int\", \"min\": 1e30}]}", "'min' must be a whole number"),
            ("{\(base), \"variables\": [{\"name\": \"n\", \"type\": \"int\", \"max\": 1e999}]}", "out of range"),
            ("{\(base), \"variables\": [{\"name\": \"n\", \"type\": \"int\", \"max\": 2.5}]}", "'max' must be a whole number"),
            ("{\(base), \"variables\": [{\"name\": \"n\", \"type\": \"int\", \"min\": -9223372036854775809}]}", "'min' must be a whole number"),
            ("{\(base), \"format\": -5}", "unknown key 'format'"),
        ]
        for (json, expected) in cases {
            assertThrows(try TemplateManifest.parse(Data(json.utf8), file: "t/template.json"), containing: ["t/template.json", expected])
        }
        var invalid = Data("{\(base), \"summary\": \"".utf8)
        invalid.append(contentsOf: [0xC3, 0x28])
        invalid.append(contentsOf: Array("\"}".utf8))
        assertThrows(try TemplateManifest.parse(invalid, file: "t/template.json"), containing: ["invalid UTF-8"])
        XCTAssertNoThrow(try TemplateManifest.parse(Data("{\(base), \"variables\": [{\"name\": \"n\", \"type\": \"int\", \"min\": -0, \"max\": 10}]}".utf8), file: "t"))
    }

    func testGivenAFolderSourceWithAFileNameThatIsNotUTF8WhenResolvedThenItIsRefusedNotSkipped() throws {
        let temp = TemporaryDirectory()
        let folder = TemplateRepoBuilder(root: temp.path("plain"), environment: temp.environment())
        try folder.template("t", id: "p/t")
        // "caf\xE9": Latin-1, not UTF-8 — made with open(2) since a Swift String cannot hold it.
        let name = (Array(folder.root.path.utf8) + Array("/t/files/caf".utf8) + [0xE9, 0]).map { CChar(bitPattern: $0) }
        let fd = open(name, O_CREAT | O_WRONLY, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        let resolver = TemplateResolver(environment: temp.environment())
        assertThrows(try await_ { try await resolver.resolve(TemplateSource(name: "plain", location: folder.root.path)) },
                     containing: ["plain", "is not valid UTF-8"])
    }

    func testGivenAGitSourceWithAFileNameThatIsNotUTF8WhenInstantiatedThenItIsRefusedNotRenamed() throws {
        let temp = TemporaryDirectory()
        let repo = TemplateRepoBuilder(root: temp.path("repo"), environment: temp.environment())
        try FileManager.default.createDirectory(at: repo.root, withIntermediateDirectories: true)
        try repo.initRepository()
        try repo.template("t", id: "g/t")
        let name = (Array(repo.root.path.utf8) + Array("/t/files/caf".utf8) + [0xE9, 0]).map { CChar(bitPattern: $0) }
        let fd = open(name, O_CREAT | O_WRONLY, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        try repo.commitAll("init", tag: "v1.0.0")
        let resolver = TemplateResolver(environment: temp.environment())
        let store = DocumentStore(settings: Settings(sync: .none), environment: temp.environment())
        func instantiate() throws -> URL {
            let template: Template = try await_ {
                let resolved = try await resolver.resolve(TemplateSource(name: "r", location: repo.root.path))
                return try await resolver.template("g/t", in: resolved)
            }
            return try template.instantiate(at: temp.path("Doc"), answers: ["who": .string("x")], store: store).url
        }
        assertThrows(try instantiate(), containing: ["is not valid UTF-8"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("Doc").path))
    }

    func testGivenACatalogWithDuplicateKeysWhenResolvedThenAWarningNamesBothPositions() throws {
        let temp = TemporaryDirectory()
        let folder = TemplateRepoBuilder(root: temp.path("plain"), environment: temp.environment())
        try folder.template("t", id: "p/t")
        try folder.write("catalog.json", #"{"order": ["p/t"], "order": []}"#)
        let resolved = try await_ { try await TemplateResolver(environment: temp.environment()).resolve(TemplateSource(name: "plain", location: folder.root.path)) }
        XCTAssertEqual(resolved.templates.map(\.id), ["p/t"])
        XCTAssertEqual(resolved.warnings.count, 1)
        XCTAssertTrue(resolved.warnings.first?.contains("catalog.json: line 1, column 20: duplicate key 'order' (first at line 1, column 2)") ?? false,
                      "\(resolved.warnings)")
    }

    func testGivenANewDocumentPathInsideGitWhenCreatedThenRefusedAndNothingWritten() throws {
        let temp = TemporaryDirectory()
        let store = DocumentStore(settings: Settings(sync: .none), environment: temp.environment())
        try FileManager.default.createDirectory(at: temp.path("repo/.git"), withIntermediateDirectories: true)
        for path in [".git", "repo/.git/doc", "x/.Git"] {
            assertThrows(try store.create(at: temp.path(path)), containing: ["cannot be named .git or be made inside a .git folder"])
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temp.path("repo/.git").path), [])
    }
}

/// A template that fails while rendering leaves nothing where the document would have been, even though the
/// document's repository is begun while the files render.
final class TemplateFailedRenderTests: XCTestCase {
    func testGivenATemplateWhosePathLeavesTheDocumentWhenInstantiatedThenItFailsAndNothingIsLeftBeside() throws {
        let temp = TemporaryDirectory()
        let folder = TemplateRepoBuilder(root: temp.path("plain"), environment: temp.environment())
        try folder.template("t", id: "p/t", body: "fine {{who}}\n")
        try folder.write("t/files/{{who}}.txt", "named\n")
        let resolver = TemplateResolver(environment: temp.environment())
        let store = DocumentStore(settings: Settings(sync: .none), environment: temp.environment())
        let template: Template = try await_ {
            try await resolver.findTemplate("p/t", in: [TemplateSource(name: "plain", location: folder.root.path)])
        }
        let parent = temp.path("out")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        // When the answer makes a path climb out of the document
        XCTAssertThrowsError(try template.instantiate(at: parent.appendingPathComponent("Doc"), answers: ["who": .string("../escape")], store: store)) {
            XCTAssertTrue("\($0)".contains("leaves the document"), "\($0)")
        }
        // Then nothing at all is left in the folder (no document, no staging folder, no escaped file)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: parent.path), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("escape.txt").path))
    }
}
