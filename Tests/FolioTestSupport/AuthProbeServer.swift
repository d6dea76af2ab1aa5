import Foundation

/// A Python HTTP server on loopback for credential tests: it answers every request with 401 and `WWW-Authenticate:
/// Basic`, recording each `Authorization` header it receives (one line each in `log`), or, with `redirect`, answers
/// 302 to that base URL (the same path) without asking for anything.
private let authProbeScript = #"""
import http.server, sys, threading
port, lifetime, log, redirect = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3], (sys.argv[4] if len(sys.argv) > 4 else "")

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args): pass
    def run(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length: self.rfile.read(length)
        with open(log, "a") as f: f.write(self.headers.get("Authorization", "-") + "\n")
        if redirect:
            self.send_response(302)
            self.send_header("Location", redirect + self.path)
        else:
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="probe"')
        self.send_header("Content-Length", "0")
        self.end_headers()
    do_GET = run
    do_POST = run

server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
threading.Timer(lifetime, server.shutdown).start()
server.serve_forever()
"""#

public final class AuthProbeServer: @unchecked Sendable {  // immutable after init; the process is only stopped in deinit
    public let port: UInt16
    public let log: URL
    private let process: Foundation.Process

    /// Starts the probe in `folder` (its log and script there); `redirect` makes it redirect to that base URL.
    public init(folder: URL, redirect: String? = nil, lifetime: TimeInterval = 120) throws {
        let log = folder.appendingPathComponent("auth-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        self.log = log
        (port, process) = try startOnLoopbackPort(nil, seconds: 15) { port in
            let script = folder.appendingPathComponent("auth-probe-\(port).py")
            try Data(authProbeScript.utf8).write(to: script)
            let process = Foundation.Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script.path, "\(port)", "\(Int(lifetime))", log.path] + (redirect.map { [$0] } ?? [])
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return LoopbackServerStart(server: process, pid: process.processIdentifier, isRunning: { process.isRunning },
                                       stop: { process.terminate(); process.waitUntilExit() })
        }
    }

    public func url(_ name: String) -> String { "http://127.0.0.1:\(port)/\(name)" }

    /// The Authorization headers received, one per request (`-` for none).
    public var authorizations: [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }
}
