import Foundation

/// A Python HTTP/1.1 → CGI bridge for `git http-backend` on 127.0.0.1 (chunked request bodies included; request
/// targets in absolute form too, as a forwarding proxy sends them), over TLS when given a certificate and key,
/// bounded: it exits by itself after `lifetime` seconds, and the test stops it when done.
private let httpBridgeScript = #"""
import http.server, os, ssl, subprocess, sys, threading
root, port, lifetime = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
# With a fourth argument (base64 of "user:password"; "-" for none), every request must carry it as Basic auth.
auth = sys.argv[4] if len(sys.argv) > 4 and sys.argv[4] != "-" else None
# With a fifth and sixth (certificate and key files), it speaks TLS.
tls = (sys.argv[5], sys.argv[6]) if len(sys.argv) > 6 else None

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args): pass
    def body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""
    def run(self):
        data = self.body()
        if auth and self.headers.get("Authorization", "") != "Basic " + auth:
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="folio-test"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        target = self.path
        if "://" in target: target = "/" + target.split("/", 3)[3] if target.count("/") >= 3 else "/"
        path, _, query = target.partition("?")
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/"),
               "GIT_CONFIG_NOSYSTEM": "1", "GIT_PROJECT_ROOT": root, "GIT_HTTP_EXPORT_ALL": "1",
               "PATH_INFO": path, "QUERY_STRING": query, "REQUEST_METHOD": self.command,
               "CONTENT_TYPE": self.headers.get("Content-Type", ""), "CONTENT_LENGTH": str(len(data)),
               "REMOTE_ADDR": "127.0.0.1", "REMOTE_USER": "tester", "SERVER_PROTOCOL": "HTTP/1.1"}
        if self.headers.get("Git-Protocol"): env["GIT_PROTOCOL"] = self.headers["Git-Protocol"]
        out = subprocess.run(["git", "http-backend"], input=data, env=env, capture_output=True, timeout=60).stdout
        sep = out.find(b"\r\n\r\n")
        head, rest = (out[:sep], out[sep + 4:]) if sep >= 0 else (out, b"")
        status, headers = 200, []
        for line in head.split(b"\r\n"):
            name, _, value = line.decode().partition(":")
            if name.lower() == "status": status = int(value.strip().split()[0])
            elif name: headers.append((name, value.strip()))
        self.send_response(status)
        for name, value in headers: self.send_header(name, value)
        self.send_header("Content-Length", str(len(rest)))
        self.end_headers()
        self.wfile.write(rest)
    do_GET = run
    do_POST = run

server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
if tls:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tls[0], tls[1])
    server.socket = context.wrap_socket(server.socket, server_side=True)
threading.Timer(lifetime, server.shutdown).start()
print("ready", flush=True)
server.serve_forever()
"""#

/// `git http-backend` served over HTTP on loopback for the repositories under `root`; stopped when released.
public final class GitHTTPServer: @unchecked Sendable {  // immutable after init; the process is only stopped in deinit
    public let port: UInt16
    private let process: Foundation.Process

    /// Whether it speaks TLS (`url` is then https on `localhost`).
    public let tls: Bool

    /// Serves `root`; with `basicAuth` (user, password) every request must carry those credentials (else 401); with
    /// `tls` (certificate and key files, the certificate for `localhost`) over https.
    /// `port` restarts a stopped server where it was (its clones keep their URLs).
    public init(root: URL, environment: [String: String], lifetime: TimeInterval = 300, basicAuth: (String, String)? = nil,
                tls: (certificate: String, key: String)? = nil, port: UInt16? = nil) throws {
        self.tls = tls != nil
        (self.port, process) = try startOnLoopbackPort(port, seconds: 15) { port in
            let script = root.deletingLastPathComponent().appendingPathComponent("http-bridge-\(port).py")
            try Data(httpBridgeScript.utf8).write(to: script)
            let process = Foundation.Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script.path, root.path, "\(port)", "\(Int(lifetime))"]
                + [basicAuth.map { Data("\($0.0):\($0.1)".utf8).base64EncodedString() } ?? "-"]
                + (tls.map { [$0.certificate, $0.key] } ?? [])
            process.environment = environment
            process.standardOutput = Pipe()
            process.standardError = FileHandle.nullDevice
            try process.run()
            return LoopbackServerStart(server: process, pid: process.processIdentifier, isRunning: { process.isRunning },
                                       stop: { process.terminate(); process.waitUntilExit() })
        }
    }

    public func url(_ name: String) -> String { tls ? "https://localhost:\(port)/\(name)" : "http://127.0.0.1:\(port)/\(name)" }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }
}

