import FolioCore
import FolioGit
import FolioTestSupport
import Foundation
import XCTest

/// `GIT_AUTHOR_DATE` / `GIT_COMMITTER_DATE`: what git refuses is a one-line error naming the variable, never a trap
/// or a commit that `git fsck --strict` rejects.
final class CommitDateHostileInputTests: XCTestCase {
    func testGivenHostileDatesWhenParsedThenEachIsRefusedNamingTheVariable() {
        let bad = ["nan", "inf", "-inf", "1e30 +0000", "-1e30", "-1", "1.5", "0x10", "1700000000 +999999999999", "1700000000 +9999",
                   "1700000000 +2460", "1700000000 +2400", "1700000000 -2400", "1700000000 +0100 extra", "1700000000 0100",
                   "1700000000 +01", "1700000000 +1:00", "@", "@-5", "99999999999999999999", "9223372036854775807",
                   "\(GitDate.maximumSeconds + 1) +0000", "1700000000 +０１００", "１７００"]
        for text in bad {
            XCTAssertThrowsError(try GitDate(parsing: text, variable: "GIT_AUTHOR_DATE"), text) { error in
                let message = "\(error)"
                XCTAssertTrue(message.hasPrefix("GIT_AUTHOR_DATE: '"), message)
                XCTAssertFalse(message.contains("\n"), message)
            }
        }
    }

    func testGivenRandomDateTextWhenParsedThenNothingTrapsAndWhatIsAcceptedIsInRange() {
        let alphabet = Array("0123456789@+- .eEnaifx:")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...24, using: &generator)
            let text = String((0..<length).compactMap { _ in alphabet.randomElement(using: &generator) })
            guard let date = try? GitDate(parsing: text, variable: "GIT_AUTHOR_DATE") else { continue }
            XCTAssertTrue((0...GitDate.maximumSeconds).contains(date.seconds), text)
            XCTAssertLessThan(abs(date.offsetMinutes), 24 * 60, text)
            XCTAssertLessThan(abs(date.offsetMinutes) % 60, 60, text)
        }
    }

    func testGivenGitRawDatesWhenParsedThenSecondsAndZoneAreKept() throws {
        let cases: [(String, Int64, Int)] = [
            ("1700000000 +0100", 1_700_000_000, 60), ("@1700000000 -0530", 1_700_000_000, -330), ("@0", 0, 0),
            ("1700000000", 1_700_000_000, 0), ("  1700000000   +2359 ", 1_700_000_000, 1439), ("1 -2359", 1, -1439),
            ("\(GitDate.maximumSeconds) +0000", GitDate.maximumSeconds, 0),
        ]
        for (text, seconds, offset) in cases {
            let date = try GitDate(parsing: text.trimmingCharacters(in: .whitespaces), variable: "GIT_COMMITTER_DATE")
            XCTAssertEqual(date.seconds, seconds, text)
            XCTAssertEqual(date.offsetMinutes, offset, text)
        }
    }

    func testGivenABadCommitterDateWhenWritingThenTheChangeIsRefusedAndNothingIsCommitted() throws {
        let dir = TemporaryDirectory()
        let store = DocumentStore(settings: Settings(sync: .none), environment: dir.environment())
        let document = try store.create(at: dir.path("Doc"))
        let before = try document.head().id
        let hostile = DocumentStore(settings: Settings(sync: .none), environment: dir.environment(["GIT_COMMITTER_DATE": "nan"]))
        let reopened = try hostile.open(at: document.url)
        XCTAssertThrowsError(try reopened.write(Data("x".utf8), to: "document.txt", message: "m")) { error in
            XCTAssertTrue("\(error)".hasPrefix("GIT_COMMITTER_DATE: 'nan'"), "\(error)")
        }
        XCTAssertEqual(try reopened.head().id, before)
        // Creating a document with a bad date leaves nothing behind.
        let refused = DocumentStore(settings: Settings(sync: .none), environment: dir.environment(["GIT_AUTHOR_DATE": "1700000000 +9999"]))
        XCTAssertThrowsError(try refused.create(at: dir.path("Other")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("Other").path))
    }

    func testGivenTheExtremeZonesGitAcceptsWhenCommittedThenGitFsckStrictIsClean() throws {
        let dir = TemporaryDirectory()
        for (name, date) in [("East", "1700000000 +2359"), ("West", "@1700000000 -2359"), ("Epoch", "0 +0000"),
                             ("Far", "\(GitDate.maximumSeconds) +0000")] {
            let env = dir.environment(["GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date])
            let store = DocumentStore(settings: Settings(sync: .none), environment: env)
            let document = try store.create(at: dir.path(name))
            try document.write(Data("text\n".utf8), to: "document.txt", message: "Write")
            let fsck = try git(["fsck", "--strict"], in: document.url, environment: env)
            XCTAssertEqual(fsck.status, 0, "\(date): \(fsck.stdout)\(fsck.stderr)")
            let shown = try git(["log", "-1", "--format=%ad|%cd", "--date=raw"], in: document.url, environment: env).stdout
            let raw = date.hasPrefix("@") ? String(date.dropFirst()) : date
            XCTAssertEqual(shown, "\(raw)|\(raw)\n")
        }
    }
}
