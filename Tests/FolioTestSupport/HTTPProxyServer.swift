import Foundation

/// A Python http proxy on loopback: `CONNECT host:port` tunnels (for https), and requests in absolute form
/// (`GET http://host:port/path`, for http) forwarded to their server, the connection then relayed as it is. It
/// records the first request line of every connection (one line each in `log`).
private let proxyScript = #"""
import select, socket, sys, threading
port, lifetime, log = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]

def relay(a, b):
    try:
        while True:
            ready, _, _ = select.select([a, b], [], [], 60)
            if not ready: return
            for s in ready:
                data = s.recv(65536)
                if not data: return
                (b if s is a else a).sendall(data)
    except OSError: pass
    finally:
        a.close(); b.close()

def handle(client):
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = client.recv(65536)
        if not chunk: client.close(); return
        head += chunk
    line = head.split(b"\r\n", 1)[0].decode("latin-1")
    with open(log, "a") as f: f.write(line + "\n")
    method, target = line.split(" ")[:2]
    try:
        if method == "CONNECT":
            host, _, p = target.rpartition(":")
            upstream = socket.create_connection((host, int(p)))
            client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
            rest = head.split(b"\r\n\r\n", 1)[1]
            if rest: upstream.sendall(rest)
        else:
            host, _, p = target.split("/")[2].rpartition(":")
            upstream = socket.create_connection((host, int(p or 80)))
            upstream.sendall(head)
    except OSError:
        client.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n"); client.close(); return
    relay(client, upstream)

listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", port))
listener.listen(16)
threading.Timer(lifetime, lambda: __import__("os")._exit(0)).start()
while True:
    client, _ = listener.accept()
    threading.Thread(target=handle, args=(client,), daemon=True).start()
"""#

/// An http proxy on loopback (see `proxyScript`), stopped when released.
public final class HTTPProxyServer: @unchecked Sendable {  // immutable after init; the process is only stopped in deinit
    public let port: UInt16
    public let log: URL
    private let process: Foundation.Process

    /// Starts the proxy in `folder` (its log and script there).
    public init(folder: URL, lifetime: TimeInterval = 120) throws {
        let log = folder.appendingPathComponent("proxy-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        self.log = log
        (port, process) = try startOnLoopbackPort(nil, seconds: 15) { port in
            let script = folder.appendingPathComponent("proxy-\(port).py")
            try Data(proxyScript.utf8).write(to: script)
            let process = Foundation.Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script.path, "\(port)", "\(Int(lifetime))", log.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return LoopbackServerStart(server: process, pid: process.processIdentifier, isRunning: { process.isRunning },
                                       stop: { process.terminate(); process.waitUntilExit() })
        }
    }

    /// `http://127.0.0.1:PORT`.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// The first request line of each connection the proxy took (`CONNECT localhost:443 HTTP/1.1`).
    public var requests: [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }
}

/// A CA of its own for TLS tests, made with `openssl` in `folder`: `caFile` (its certificate, PEM) and a server
/// certificate and key for `localhost` it signed.
public struct TestCertificateAuthority {
    public let caFile: String
    public let certificate: String
    public let key: String

    public init(folder: URL) throws {
        let path = { folder.appendingPathComponent($0).path }
        caFile = path("ca.pem")
        certificate = path("server.pem")
        key = path("server.key")
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Self.openssl(["req", "-x509"] + ec + ["-keyout", path("ca.key"), "-out", caFile, "-days", "2", "-subj", "/CN=Folio Test CA",
                          "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        try Self.openssl(["req"] + ec + ["-keyout", key, "-out", path("server.csr"), "-subj", "/CN=localhost"])
        try Data("subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\n".utf8).write(to: folder.appendingPathComponent("server.ext"))
        try Self.openssl(["x509", "-req", "-in", path("server.csr"), "-CA", caFile, "-CAkey", path("ca.key"), "-CAcreateserial",
                          "-out", certificate, "-days", "2", "-extfile", path("server.ext")])
    }

    private static func openssl(_ arguments: [String]) throws {
        let made = try runProgram("openssl", arguments)
        guard made.status == 0 else { throw LoopbackServerError(description: "openssl \(arguments[0]) failed: \(made.stderr)") }
    }
}
