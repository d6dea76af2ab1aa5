import FolioBasics
import FoundationEssentials
import Glibc

/// A program from outside Folio (a template's hook or task) run confined: through the plugin host's
/// `--run-confined`, reading and running only what is beneath `readable`, changing only what is beneath `writable`,
/// without network unless `network`, for at most `timeout`; its whole process group ends with it.
public struct ConfinedProgram: Sendable {
    public var arguments: [String]
    public var folder: String
    public var readable: [String]
    public var writable: [String]
    public var network: Bool
    public var environment: [String: String]
    public var timeout: Duration

    public init(arguments: [String], folder: String, readable: [String], writable: [String], network: Bool,
                environment: [String: String], timeout: Duration) {
        self.arguments = arguments; self.folder = folder; self.readable = readable; self.writable = writable
        self.network = network; self.environment = environment; self.timeout = timeout
    }

    /// How a confined program ended, with the end of what it printed (untrusted text).
    public struct Outcome: Sendable {
        public var status: Int32
        public var signal: Int32?
        public var timedOut: Bool
        public var output: String
        public var errors: String
        public var succeeded: Bool { status == 0 && signal == nil && !timedOut }

        /// How it ended, in words: "exit status 1", "killed by SIGSEGV", "still running after 60 s".
        public func ending(timeout: Duration) -> String {
            if timedOut { return "still running after \(timeout.components.seconds) s, stopped" }
            if let signal { return "killed by \(ChildProcess.signalName(signal) ?? "signal \(signal)")" }
            return "exit status \(status)"
        }
    }

    /// The folders every program needs to start: the system's programs and libraries, its configuration, /proc.
    public static let systemFolders = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/etc", "/proc", "/dev/urandom", "/dev/random"]

    /// Runs it with the plugin host found by `isolation`.
    public func run(isolation: PluginIsolation) throws -> Outcome {
        let host = try isolation.hostExecutable()
        var launcher = ["--run-confined", "--cwd", folder, "--cpu", String(max(1, timeout.components.seconds))]
        for path in readable { launcher += ["--read", path] }
        for path in writable { launcher += ["--write", path] }
        if network { launcher.append("--network") }
        let result = try ChildProcess.run(executable: host.path, arguments: launcher + ["--"] + arguments, environment: environment,
                                          timeout: timeout, keepErrors: true, environmentAsGiven: true, killGroup: true)
        return Outcome(status: result.status, signal: result.signal, timedOut: result.timedOut,
                       output: String(decoding: result.output.suffix(8 << 10), as: UTF8.self),
                       errors: String(decoding: result.errors, as: UTF8.self))
    }

    /// `environment` without what opens the user's accounts: Folio's and git's credentials, the ssh agent, tokens and
    /// passwords of any tool (names ending in _TOKEN, _PASSWORD, _SECRET, _KEY, _CREDENTIALS), cloud credentials.
    public static func withoutCredentials(_ environment: [String: String]) -> [String: String] {
        let named: Set<String> = ["SSH_AUTH_SOCK", "SSH_AGENT_PID", "NETRC", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_SSH_COMMAND", "GIT_SSH",
                                  "GIT_CONFIG_PARAMETERS", "GNUPGHOME", "GPG_AGENT_INFO", "DBUS_SESSION_BUS_ADDRESS", "KRB5CCNAME"]
        let prefixes = ["FOLIO_GIT_", "FOLIO_SSH_", "AWS_", "AZURE_", "GOOGLE_", "GCLOUD_", "GIT_CONFIG_"]
        let suffixes = ["_TOKEN", "_PASSWORD", "_PASSWD", "_SECRET", "_KEY", "_CREDENTIALS", "_PAT"]
        return environment.filter { name, _ in
            let upper = name.uppercased()
            return !named.contains(upper) && !prefixes.contains { upper.hasPrefix($0) } && !suffixes.contains { upper.hasSuffix($0) }
        }
    }
}
