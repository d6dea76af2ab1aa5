import FolioCore
import FolioCLITestSupport
import Foundation
import XCTest

/// `folio edit` warns, as `folio write` does, when its change could not reach the work tree.
final class EditWorkTreeWarningTests: XCTestCase {
    func testGivenAWorkTreeThatCannotBeWrittenWhenEditingThenTheChangeIsKeptAndOneWarningNamesTheFilesAndTheMend() throws {
        let dir = TemporaryDirectory("folio-plugins")
        let env = dir.environment()
        guard let disk = SmallFileSystem(at: dir.path("disk"), bytes: 2 << 20) else { throw XCTSkip("mounting a tmpfs needs root") }
        let doc = disk.url.appendingPathComponent("List").path
        XCTAssertEqual(runFolio(["new", doc, "--type", "org.folio.checklist"], environment: env, cwd: dir.url).status, 0)
        // Given a full disk that left a written file out of date
        try disk.fill(leaving: 64 << 10)
        XCTAssertEqual(runFolio(["write", doc, "big.txt"], environment: env, cwd: dir.url, stdin: Data(count: 300_000)).status, 0)
        // When an editor command changes the document
        let edit = runFolio(["edit", doc, "add", "Milk"], environment: env, cwd: dir.url)
        // Then the change is made and one warning says what is out of date, why, and how it is mended
        XCTAssertEqual(edit.status, 0, edit.stderr)
        XCTAssertTrue(edit.stdout.hasSuffix("] added 'Milk'\n"), edit.stdout)
        XCTAssertTrue(edit.stderr.hasPrefix("folio: warning: work tree out of date: big.txt"), edit.stderr)
        XCTAssertTrue(edit.stderr.contains("(\(String(cString: strerror(ENOSPC))))"), edit.stderr)
        XCTAssertTrue(edit.stderr.contains("folio status \(doc) --repair"), edit.stderr)
        XCTAssertEqual(edit.stderr.split(separator: "\n").count, 1)
        let log = try DocumentStore(environment: env).open(at: URL(fileURLWithPath: doc), readOnly: true).log().map(\.summary)
        XCTAssertEqual(log.first, "added 'Milk'")
    }
}
