import FolioBasics
import Foundation
import XCTest

/// `ChildSpawn`, the one way Folio starts a program: the child gets the descriptors it is given and no others.
final class ChildSpawnTests: XCTestCase {
    /// Runs `/bin/sh -c SCRIPT` with its standard output on a pipe read here; returns what it printed and its status.
    private func run(_ script: String, extra: [(child: Int32, source: ChildSpawn.Source)] = []) throws -> (String, Int32) {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        let pid = try ChildSpawn(program: "/bin/sh", arguments: ["-c", script], environment: ["PATH": "/usr/bin:/bin"],
                                 descriptors: [(0, .nullForReading), (1, .descriptor(fds[1])), (2, .nullForWriting)] + extra).start()
        close(fds[1])
        let output = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true).readDataToEndOfFile()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (String(decoding: output, as: UTF8.self), status)
    }

    func testGivenADescriptorOpenInFolioWithoutCloseOnExecWhenAChildIsStartedThenTheChildDoesNotHaveIt() throws {
        // Given a descriptor (a document's lock, say) open in this process and inherited across exec
        let file = open("/dev/null", O_RDONLY)
        let leaked = fcntl(file, F_DUPFD, 100)
        close(file)
        defer { close(leaked) }
        XCTAssertGreaterThanOrEqual(leaked, 100)
        // When a child is started with only its standard descriptors
        let (listed, status) = try run("ls /proc/self/fd")
        // Then it ran and sees its 0, 1 and 2 (and the listing's own), never that descriptor
        XCTAssertEqual(status, 0)
        let numbers = listed.split(whereSeparator: \.isWhitespace).compactMap { Int32($0) }
        XCTAssertTrue(Set([0, 1, 2]).isSubset(of: numbers), listed)
        XCTAssertFalse(numbers.contains(leaked), listed)
    }

    func testGivenADescriptorGivenToTheChildAsItsOwnNumberWhenStartedThenTheChildCanWriteToIt() throws {
        // Given a pipe whose write end is given to the child as descriptor 3
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        // When the child writes to descriptor 3
        let (_, status) = try run("echo reported >&3", extra: [(3, .descriptor(fds[1]))])
        close(fds[1])
        let report = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true).readDataToEndOfFile()
        // Then what it wrote arrives here
        XCTAssertEqual(status, 0)
        XCTAssertEqual(String(decoding: report, as: UTF8.self), "reported\n")
    }

    func testGivenAProgramThatDoesNotExistWhenStartedThenTheFailureNamesTheCallAndTheReason() {
        // Given a program path that does not exist; When it is started; Then posix_spawn's failure is thrown
        XCTAssertThrowsError(try ChildSpawn(program: "/nonexistent/folio-test", arguments: [], environment: [:],
                                            descriptors: [(0, .nullForReading)]).start()) { error in
            XCTAssertEqual("\(error)", "posix_spawn failed: No such file or directory")
        }
    }
}
