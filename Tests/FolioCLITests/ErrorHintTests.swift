@testable import FolioCLI
import FolioCore
import FolioLaunch
import FolioSync
import FolioCLITestSupport
import Foundation
import XCTest

/// Library errors carry facts; the command line adds the option or command that helps.
final class ErrorHintTests: XCTestCase {
    var dir: TemporaryDirectory!

    override func setUp() { dir = TemporaryDirectory() }

    func run(_ args: String...) -> RunResult { runFolio(args, environment: dir.environment(), cwd: dir.url) }

    func testGivenABadFrameSizeWhenRenderedThenTheLibrarySaysWhatAndTheCommandLineNamesTheOptions() {
        // Through the library: the size, typed, and no option
        XCTAssertThrowsError(try renderLaunchFrame(width: 0, height: 24, environment: dir.environment())) { error in
            XCTAssertEqual(error as? LaunchError, .invalidFrameSize(width: 0, height: 24))
            XCTAssertFalse("\(error)".contains("--"), "\(error)")
        }
        // Through the command line: one line with the options to change
        let result = run("launch", "--render", "--width", "0")
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "folio launch: frame size 0×24: width and height must be from 1 to 1000 (--width, --height)\n")
    }

    func testGivenABadSceneNameWhenCheckedThenItIsTypedWithoutTheOption() {
        XCTAssertThrowsError(try SceneStore.sceneID(requested: ".hidden")) { error in
            XCTAssertEqual(error as? LaunchError, .invalidSceneName(".hidden"))
            XCTAssertFalse("\(error)".contains("--"), "\(error)")
        }
        XCTAssertEqual(CommandHints.hint(for: LaunchError.invalidSceneName("x")), " (--scene)")
    }

    func testGivenADocumentWithoutRemotesWhenPushedThenOnlyTheCommandLineSuggestsAddingOne() throws {
        // Given a document with no remote
        XCTAssertEqual(run("new", "Doc").status, 0)
        let document = try DocumentStore(environment: dir.environment()).open(at: dir.path("Doc"))
        // Through the library: the case names the document, the message no command
        XCTAssertThrowsError(try document.push()) { error in
            XCTAssertEqual(error as? SyncError, .noRemote(document: document.url.path))
            XCTAssertFalse("\(error)".contains("folio "), "\(error)")
        }
        // Through the command line: the hint names the command
        let result = run("push", "Doc")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("no remote to use; add one with 'folio remote \(document.url.path) add NAME URL'"), result.stderr)
    }

    func testGivenAnUnknownTemplateSourceWhenNamedThenTheCommandLineSaysHowToListAndAdd() {
        let result = run("templates", "remove", "nope")
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "folio templates: no template source named 'nope' (see folio templates list; add one with folio templates add)\n")
    }
}
