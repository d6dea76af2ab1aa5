import Foundation
import Synchronization

/// A TCP listener on 127.0.0.1 that accepts every connection and never sends a byte (it reads and drops what it is
/// sent), or, with `accepting: false`, a listener whose queue is full so that a new connection is never completed.
/// Stopped (threads ended, listener and connections closed) when released.
public final class SilentServer: Sendable {
    public let port: UInt16
    /// What the server's threads share; they hold this, never the server, so releasing the server stops them.
    private let shared: Shared

    /// `replies`: bytes sent on each accepted connection, one chunk after each delay (a server that answers slowly);
    /// empty for one that never answers.
    public init(accepting: Bool = true, replies: [(delay: Double, bytes: Data)] = []) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        guard bound == 0, listen(listener, accepting ? 16 : 0) == 0 else { close(listener); throw SilentServerError() }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        port = UInt16(bigEndian: address.sin_port)
        shared = Shared(listener: listener)
        if accepting {
            let shared = shared
            Thread { shared.acceptLoop(replies.map { Reply(delay: $0.delay, bytes: $0.bytes) }) }.start()
        } else {
            // Fill the accept queue (backlog 0 holds one connection): later connections get no answer at all.
            for _ in 0..<2 { shared.fillQueue(port: port) }
            shared.done.signal()
        }
    }

    /// `host:port` on loopback.
    public var address: String { "127.0.0.1:\(port)" }
    /// Connections accepted so far.
    public var acceptedConnections: Int { shared.accepted.load(ordering: .acquiring) }
    /// Accepted connections the client has not closed yet.
    public var openConnections: Int { shared.open.load(ordering: .acquiring) }

    deinit { shared.stop() }
}

private struct Reply: Sendable {
    let delay: Double
    let bytes: Data
}

private final class Shared: Sendable {
    let listener: Int32
    let connections = Mutex<[Int32]>([])
    let stopped = Atomic<Bool>(false)
    let open = Atomic<Int>(0)
    let accepted = Atomic<Int>(0)
    let done = DispatchSemaphore(value: 0)
    /// Serving threads still running (each closes nothing itself; `stop` closes every socket once they are gone).
    let serving = Atomic<Int>(0)

    init(listener: Int32) { self.listener = listener }

    func fillQueue(port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        connections.withLock { $0.append(fd) }
        usleep(50_000)
    }

    func acceptLoop(_ replies: [Reply]) {
        defer { done.signal() }
        while !stopped.load(ordering: .acquiring) {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { continue }
            connections.withLock { $0.append(fd) }
            open.add(1, ordering: .releasing)
            accepted.add(1, ordering: .releasing)
            serving.add(1, ordering: .releasing)
            Thread { [self] in serve(fd, replies); serving.subtract(1, ordering: .releasing) }.start()
        }
    }

    /// Drains what the client sends; sends `replies` on their schedule; keeps the connection open until stopped.
    private func serve(_ fd: Int32, _ replies: [Reply]) {
        var pending = replies
        var next = Date().addingTimeInterval(pending.first?.delay ?? .infinity)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !stopped.load(ordering: .acquiring) {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 20) > 0 {
                if recv(fd, &buffer, buffer.count, 0) <= 0 { open.subtract(1, ordering: .releasing); return }
            }
            if !pending.isEmpty, Date() >= next {
                let chunk = pending.removeFirst()
                _ = chunk.bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                next = Date().addingTimeInterval(pending.first?.delay ?? .infinity)
            }
        }
    }

    /// Ends the threads, then closes the listener and every connection.
    func stop() {
        stopped.store(true, ordering: .releasing)
        done.wait()
        while serving.load(ordering: .acquiring) > 0 { usleep(5_000) }
        close(listener)
        for fd in connections.withLock({ $0 }) { close(fd) }
    }
}

public struct SilentServerError: Error {}

/// Runs `body` on another thread and waits at most `seconds` for it: nil when it is still running then (a hang the
/// test reports instead of hanging the suite; the thread is left to end when its server goes away).
public func runBounded<T>(seconds: Double, _ body: @escaping () throws -> T) -> Result<T, any Error>? {
    let box = BoundedRun(body)
    let done = DispatchSemaphore(value: 0)
    Thread { box.result = Result { try box.body() }; done.signal() }.start()
    guard done.wait(timeout: .now() + seconds) == .success else { return nil }
    return box.result
}

/// Unchecked: the body runs on one other thread while the caller only waits; the result is read after the signal.
private final class BoundedRun<T>: @unchecked Sendable {
    let body: () throws -> T
    var result: Result<T, any Error>?
    init(_ body: @escaping () throws -> T) { self.body = body }
}
