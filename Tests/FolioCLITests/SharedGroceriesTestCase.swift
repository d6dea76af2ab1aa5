import FolioCLITestSupport
import FolioTestSupport
import Foundation
import XCTest

/// Tests of sharing through `folio`: a groceries checklist from the bundled template, shared through a bare
/// repository and cloned as `a` and `b`.
class SharedGroceriesTestCase: FolioCommandTestCase {
    var server: URL { dir.path("servers/groceries.git") }

    override func setUp() {
        super.setUp()
        // The bundled templates of this source tree, whatever build folder the tests run from.
        env["FOLIO_TEMPLATES"] = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Templates").path
    }

    /// A groceries checklist shared through a bare repository, cloned as `a` and `b`.
    func twoClones() throws {
        try FileManager.default.createDirectory(at: dir.path("servers"), withIntermediateDirectories: true)
        XCTAssertEqual(try git(["init", "-q", "--bare", "-b", "main", server.path], in: dir.url, environment: env).status, 0)
        folio("new", "origin-list", "--template", "checklist/groceries", "--defaults")
        folio("share", "origin-list", "origin", server.path)
        folio("clone", server.path, "a")
        folio("clone", server.path, "b")
    }

    func tip() throws -> String {
        try git(["rev-parse", "refs/heads/main"], in: server, environment: env).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func head(_ document: String) throws -> String {
        try git(["rev-parse", "HEAD"], in: dir.path(document), environment: env).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `b`'s kept conflicts as `folio conflicts b --json` lists them (their refs).
    func keptConflicts() throws -> [String] {
        let listed = try JSONSerialization.jsonObject(with: Data(folio("conflicts", "b", "--json").stdout.utf8)) as? [[String: Any]]
        return (listed ?? []).compactMap { $0["ref"] as? String }
    }

}
