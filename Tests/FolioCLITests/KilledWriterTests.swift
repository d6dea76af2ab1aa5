import FolioCore
import FolioCLITestSupport
import Foundation
import XCTest

/// A real `folio write` killed (SIGKILL) while it writes the work tree: the next open finishes the change and removes
/// the temporary file it left.
final class KilledWriterTests: XCTestCase {
    func testGivenAWriterKilledWhileWritingTheWorkTreeWhenTheDocumentIsOpenedThenTheTemporaryFileIsGoneAndTheChangeIsThere() throws {
        let dir = TemporaryDirectory()
        let env = dir.environment()
        XCTAssertEqual(runFolio(["new", "Doc"], environment: env, cwd: dir.url).status, 0)
        let doc = dir.path("Doc")
        // Given `folio write` of 64 MB of zeros (a small object, a long work-tree write), killed once its temporary
        // file appears
        let input = dir.path("big.in")
        FileManager.default.createFile(atPath: input.path, contents: nil)
        let handle = try FileHandle(forWritingTo: input)
        try handle.truncate(atOffset: 64 << 20)
        try handle.close()
        let process = Process()
        process.executableURL = folioExecutable
        process.arguments = ["write", doc.path, "big.bin"]
        process.environment = env
        process.standardInput = try FileHandle(forReadingFrom: input)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        var seen: [String] = []
        while process.isRunning, Date() < deadline, seen.isEmpty {
            seen = ((try? FileManager.default.contentsOfDirectory(atPath: doc.path)) ?? []).filter { $0.hasPrefix(".folio-tmp-") }
            if seen.isEmpty { usleep(200) }
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        guard !seen.isEmpty, process.terminationReason == .uncaughtSignal else {
            throw XCTSkip("the writer finished before it could be killed mid-write")
        }
        XCTAssertFalse(((try? FileManager.default.contentsOfDirectory(atPath: doc.path)) ?? []).filter { $0.hasPrefix(".folio-tmp-") }.isEmpty,
                       "the killed writer left its temporary file")
        // When the document is opened again
        let document = try DocumentStore(environment: env).open(at: doc)
        // Then the temporary file is gone, the change is finished and git sees a clean work tree
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: doc.path).filter { $0.hasPrefix(".folio-tmp-") }, [])
        XCTAssertEqual(try document.log().first?.summary, "Edit big.bin")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: doc.path + "/big.bin")[.size] as? Int, 64 << 20)
        XCTAssertEqual(try git(["status", "--porcelain"], in: doc, environment: env).stdout, "")
    }
}
