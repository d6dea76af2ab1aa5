import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// `folio edit DOC delete-scene ACT SCENE` on a real story document.
final class StoryDeleteSceneCLITests: XCTestCase {
    func testGivenAStoryWhenFolioEditDeletesSceneOneTwoThenOneVersionIsCommittedWithoutThatScene() throws {
        guard FileManager.default.isExecutableFile(atPath: folioExecutable.path) else { throw XCTSkip("folio is not built at \(folioExecutable.path)") }
        // Given a story from the three-act template
        let dir = TemporaryDirectory("folio-story-delete")
        let env = dir.environment()
        XCTAssertEqual(runFolio(["new", "tale", "--template", "story/three-act", "--defaults"], environment: env, cwd: dir.url).status, 0)
        let before = runFolio(["log", "tale", "--json"], environment: env, cwd: dir.url).stdout
        // When scene 1.2 is deleted with folio edit
        let edited = runFolio(["edit", "tale", "delete-scene", "1", "2"], environment: env, cwd: dir.url)
        // Then it succeeds, one version was added with the description as its message, and the scene is gone
        XCTAssertEqual(edited.status, 0, edited.stderr)
        let log = runFolio(["log", "tale", "--json"], environment: env, cwd: dir.url).stdout
        let count = { (json: String) in ((try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [[String: Any]])?.count ?? -1 }
        XCTAssertEqual(count(log), count(before) + 1, log)
        XCTAssertTrue(log.contains("deleted scene 1.2 'The inciting incident'"), log)
        let view = runFolio(["view", "tale", "--width", "70"], environment: env, cwd: dir.url).stdout
        XCTAssertFalse(view.contains("inciting"), view)
        XCTAssertTrue(view.contains("1.2 Crossing the threshold"), view)
        // And a bad scene number is refused in one line and commits nothing
        let refused = runFolio(["edit", "tale", "delete-scene", "1", "9"], environment: env, cwd: dir.url)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        XCTAssertEqual(count(runFolio(["log", "tale", "--json"], environment: env, cwd: dir.url).stdout), count(log))
    }
}
