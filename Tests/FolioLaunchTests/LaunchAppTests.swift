import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
@testable import FolioTerminal

struct FakeRecent: RecentDocumentsProvider {
    func recentDocuments(limit: Int) -> [RecentDocument] { Array(Fixtures.recent.prefix(limit)) }
}

struct FakeCatalog: TemplateCatalog {
    func sourceNames() -> [String] { ["folio-templates"] }
    func templates(in source: String) async throws -> [TemplateSummary] { [Fixtures.story] }
}

final class LaunchAppTests: XCTestCase {
    func testRunNeedsATerminal() async {
        guard isatty(STDIN_FILENO) == 0 else { return }
        do {
            _ = try await LaunchApp.run(scene: .defaultScene, services: LaunchServices(recent: FakeRecent(), templates: FakeCatalog()),
                                        sceneID: "t", store: SceneStore(directory: FileManager.default.temporaryDirectory))
            XCTFail("expected an error without a TTY")
        } catch {
            XCTAssertEqual(error as? TerminalError, .needsTerminal)
            XCTAssertEqual("\(error)", "a terminal is needed (stdin and stdout must be a TTY)")
        }
    }

    func testFramesForEveryScreen() {
        let services = LaunchServices(recent: FakeRecent(), templates: FakeCatalog())
        var state = AppState(recent: Fixtures.recent, templates: Fixtures.loaded)
        XCTAssertTrue(LaunchApp.frame(state, scene: .defaultScene, services: services, width: 80, height: 24).plainText().contains("New Document"))
        state.screen = .picker(PickerState())
        XCTAssertTrue(LaunchApp.frame(state, scene: .defaultScene, services: services, width: 80, height: 24).plainText().contains("Short Story"))
        state.screen = .settings(SettingsState(settings: Settings()))
        XCTAssertTrue(LaunchApp.frame(state, scene: .defaultScene, services: services, width: 80, height: 24).plainText().contains("Settings"))
    }

    func testSceneStateFollowsTheScreen() {
        var state = AppState()
        var editor = EditorState(path: "s", title: "S", contentType: "x")
        editor.selectionAnchor = 1
        editor.cursor = 3
        editor.scroll = 2
        state.screen = .editor(editor)
        XCTAssertEqual(LaunchApp.sceneState(state), SceneState(documentPath: "s", selection: EditorSelection(start: 1, end: 3), scroll: 2, panel: .editor))
        state.screen = .launch
        XCTAssertEqual(LaunchApp.sceneState(state).panel, .launch)
    }

    func testRenderLaunchFrameRejectsSillySizes() {
        XCTAssertThrowsError(try renderLaunchFrame(width: 0, height: 24))
        XCTAssertNoThrow(try renderLaunchFrame(width: 80, height: 24, environment: ["HOME": "/nonexistent"]))
    }
}

final class PtySmokeTests: XCTestCase {
    /// Drives the real run loop in a pseudo-terminal when `FOLIO_PTY_SMOKE=1` (e.g. under `script`); skipped otherwise.
    func testRunLoopInAPty() async throws {
        guard ProcessInfo.processInfo.environment["FOLIO_PTY_SMOKE"] == "1", isatty(STDIN_FILENO) == 1 else { return }
        let outcome = try await LaunchApp.run(scene: .defaultScene, services: LaunchServices(recent: FakeRecent(), templates: FakeCatalog()),
                                              sceneID: "smoke", store: SceneStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("folio-smoke")))
        print("OUTCOME: \(outcome.effect)")
    }
}
