import FolioCLITestSupport
import Foundation
import XCTest

/// The test servers' port choice: a server counts as started only when its own process listens on the port, so a port
/// taken by someone else between the choice and the bind is never mistaken for the server.
final class LoopbackServerTests: XCTestCase {
    /// A listening socket on a free loopback port, held by this test process.
    private func occupyPort() throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        XCTAssertEqual(bound, 0)
        XCTAssertEqual(listen(fd, 1), 0)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    private func pythonServer(_ port: UInt16) throws -> LoopbackServerStart<Foundation.Process> {
        let process = Foundation.Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import socket,time; s=socket.socket(); s.bind(('127.0.0.1', \(port))); s.listen(); time.sleep(30)"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        return LoopbackServerStart(server: process, pid: process.processIdentifier, isRunning: { process.isRunning },
                                   stop: { process.terminate(); process.waitUntilExit() })
    }

    func testGivenAPortAnotherProcessListensOnWhenAServerIsStartedThereThenItIsNotTakenForTheServer() throws {
        // Given a port this test process listens on
        let (fd, port) = try occupyPort()
        defer { close(fd) }
        XCTAssertTrue(listens(pid: getpid(), onLoopbackPort: port))
        // When a server is asked to start on that very port (as a restart does), it cannot bind it
        XCTAssertThrowsError(try startOnLoopbackPort(port, seconds: 5) { try pythonServer($0) })
    }

    func testGivenAFreePortWhenAServerStartsThenItsOwnProcessIsTheListener() throws {
        // When a server starts on a free port, then the port it reports is one its own process listens on
        let (port, server) = try startOnLoopbackPort(nil, seconds: 10) { try pythonServer($0) }
        XCTAssertTrue(listens(pid: server.processIdentifier, onLoopbackPort: port))
        server.terminate(); server.waitUntilExit()
        XCTAssertFalse(listens(pid: server.processIdentifier, onLoopbackPort: port), "a stopped server listens nowhere")
    }
}
