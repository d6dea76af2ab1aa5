@testable import FolioCLI
import FolioCore
@testable import FolioLaunch
import FolioTestSupport
import Foundation
import XCTest

/// A new document's destination that exists already is asked about, never silently replaced by "NAME-2".
final class NewDestinationTests: XCTestCase {
    var dir: TemporaryDirectory!
    var io: CommandIO!

    override func setUp() {
        dir = TemporaryDirectory("folio-destination")
        io = CommandIO(environment: dir.environment(), currentDirectory: dir.url, isInteractive: false, out: { _ in }, err: { _ in }, stdin: { Data() })
    }

    func testGivenAFreeNameThenItIsTheDestinationAndItsFolderIsMade() throws {
        XCTAssertEqual(try newDestination("docs/novel", io: io).path, dir.path("docs/novel").path)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("docs").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("docs/novel").path), "nothing is made at the destination itself")
    }

    func testGivenATakenFolderThenTheErrorAsksAndOffersTheFirstFreeNameAndNothingIsMade() throws {
        for name in ["docs/novel", "docs/novel-2"] { try FileManager.default.createDirectory(at: dir.path(name), withIntermediateDirectories: true) }
        XCTAssertThrowsError(try newDestination("docs/novel", io: io)) { error in
            XCTAssertEqual("\(error)", "'docs/novel' already exists (a folder): ⏎ creates 'docs/novel-3' instead, or type another name")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("docs/novel-3").path))
    }

    func testGivenATakenFileWithAnExtensionThenTheOfferKeepsTheExtension() throws {
        try Data("x".utf8).write(to: dir.path("notes.txt"))
        XCTAssertThrowsError(try newDestination("notes.txt", io: io)) { error in
            XCTAssertEqual("\(error)", "'notes.txt' already exists: ⏎ creates 'notes-2.txt' instead, or type another name")
        }
    }

    func testGivenTheFormThatAskedThenItsDestinationHoldsTheOfferAndTheOtherAnswersAreKept() throws {
        try FileManager.default.createDirectory(at: dir.path("untitled"), withIntermediateDirectories: true)
        let form = FormState(title: "New", purpose: .blank("public.plain-text"), fields: [
            .init(name: "title", label: "Title", value: "My title", choices: [], required: false, pattern: nil, message: nil),
            .init(name: "destination", label: "Destination", value: "untitled", choices: [], required: true, pattern: nil, message: nil),
        ], focus: 1)
        var asked: (any Error)?
        XCTAssertThrowsError(try newDestination("untitled", io: io)) { asked = $0 }
        let again = DestinationTaken.suggesting(in: form, after: try XCTUnwrap(asked))
        XCTAssertEqual(again.fields.map(\.value), ["My title", "untitled-2"])
        XCTAssertEqual(DestinationTaken.suggesting(in: form, after: FolioError.alreadyExists("x")), form, "other failures leave the form as it was")
    }
}
