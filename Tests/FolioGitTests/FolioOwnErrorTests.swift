@testable import FolioGit
import FolioTestSupport
import Foundation
import XCTest

/// Failures of Folio's own file-system calls on a repository are Folio's type, not a libgit2 `GitError` with code -1.
final class FolioOwnErrorTests: XCTestCase {
    func testGivenARefFolderHoldingOtherRefsWhenItIsClearedThenTheErrorIsAFileSystemErrorNamingTheRefs() throws {
        // Given a folder in the place of a ref that holds another ref
        let dir = TemporaryDirectory()
        let repo = try Repository.create(at: dir.path("r"))
        let folder = repo.gitDirectoryPath + "refs/heads/topic"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("0123456789012345678901234567890123456789\n".utf8).write(to: URL(fileURLWithPath: folder + "/inner"))
        // When Folio is asked to clear it as a broken ref
        XCTAssertThrowsError(try repo.removeBrokenLooseReference("refs/heads/topic")) { error in
            // Then the error is Folio's, says what it was doing and why, and is worded as before
            XCTAssertFalse(error is GitError, "\(error)")
            guard let problem = error as? FileSystemError else { return XCTFail("\(type(of: error)): \(error)") }
            XCTAssertEqual(problem.operation, "remove folder refs/heads/topic")
            XCTAssertEqual(problem.reason, "it holds other refs (refs/heads/topic/inner)")
            XCTAssertEqual("\(error)", "\(repo.displayPath): remove folder refs/heads/topic failed: it holds other refs (refs/heads/topic/inner)")
        }
        // And nothing was removed
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/inner"))
    }
}
