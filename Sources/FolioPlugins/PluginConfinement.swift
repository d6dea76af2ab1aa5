import FolioDisplayWidth
import FolioPluginWire
import FoundationEssentials
import Glibc

/// What the kernel refused a confined plugin, as its host wrote it on `HostWire.refusalFD` (one `CATEGORY SYSCALL` line
/// per refused call): named for the user in Folio's words ("open a network connection (connect)"). The lines come from
/// the plugin's process, so they are hostile: only known categories and short call names are kept.
public struct PluginRefusedCalls: Sendable, Equatable, CustomStringConvertible {
    /// Each refused kind of call, once, in the order first tried, with the system calls refused for it.
    public private(set) var attempts: [(what: String, calls: [String])] = []

    /// The most bytes of refusals read after one call (a plugin looping on refused calls writes many).
    static let readCap = 16 << 10

    /// What each category the host writes means, as "the plugin tried to …".
    static let phrases: [String: String] = [
        "network": "open a network connection", "listen": "accept network connections", "program": "run a program",
        "process": "start a process", "file-read": "read a file", "file-write": "write a file",
        "file-change": "change the file system", "debug": "look into another process",
        "namespace": "change its namespaces or mounts", "keyring": "use the kernel's keyring",
        "kernel": "use a privileged kernel interface", "signal": "signal another process",
    ]

    /// The refusals in `bytes` (lines of `CATEGORY SYSCALL`); unknown categories and malformed lines are dropped.
    public init(parsing bytes: Data) {
        for line in bytes.prefix(Self.readCap).split(separator: UInt8(ascii: "\n")) {
            let words = line.split(separator: UInt8(ascii: " "))
            guard words.count == 2, let phrase = Self.phrases[String(decoding: words[0], as: UTF8.self)],
                  words[1].count <= 32, words[1].allSatisfy({ $0 == UInt8(ascii: "_") || (0x61...0x7a).contains($0) || (0x30...0x39).contains($0) })
            else { continue }
            let call = String(decoding: words[1], as: UTF8.self)
            if let index = attempts.firstIndex(where: { $0.what == phrase }) {
                if !attempts[index].calls.contains(call) { attempts[index].calls.append(call) }
            } else {
                attempts.append((phrase, [call]))
            }
        }
    }

    public var isEmpty: Bool { attempts.isEmpty }

    /// "the plugin tried to read a file (openat) and open a network connection (connect), which it has not declared".
    public var description: String {
        let named = attempts.map { "\($0.what) (\($0.calls.joined(separator: ", ")))" }
        let list = named.count <= 1 ? named.joined() : named.dropLast().joined(separator: ", ") + " and " + named[named.count - 1]
        return "the plugin tried to \(list), which it has not declared"
    }

    public static func == (lhs: PluginRefusedCalls, rhs: PluginRefusedCalls) -> Bool {
        lhs.attempts.map(\.what) == rhs.attempts.map(\.what) && lhs.attempts.map(\.calls) == rhs.attempts.map(\.calls)
    }
}

extension PluginIsolation {
    /// The names of the variables a plugin host is started with, when Folio has them: the language and time zone a
    /// plugin may format with, and the library path its runtime may be found on. Nothing else reaches a plugin: no
    /// tokens (`FOLIO_GIT_TOKEN`, `*_TOKEN`), passwords, `SSH_AUTH_SOCK`, `NETRC`, `GIT_*`, `HOME` or `PATH`.
    public static let hostEnvironmentNames: Set<String> = ["LANG", "LANGUAGE", "TZ", "LD_LIBRARY_PATH"]

    /// The environment of a plugin host (and of `plugins check` and `validate`'s children) made from Folio's: only
    /// `hostEnvironmentNames` and the `LC_*` locale variables; the one place it is decided.
    public static func hostEnvironment(from environment: [String: String]) -> [String: String] {
        environment.filter { name, _ in
            hostEnvironmentNames.contains(name) || (name.hasPrefix("LC_") && name.dropFirst(3).allSatisfy { $0.isUppercase || $0 == "_" })
        }
    }

    /// What confinement a plugin host is under on this machine, as the host reports it after confining itself
    /// (`folio-plugin-host --confinement`): "landlock ABI 7 (files, tcp, …), seccomp, no-new-privs, own session", and
    /// for a plugin granted `permissions`, what of them is granted and what withheld ("; granted: read /usr/share/dict").
    public func confinementInForce(granting permissions: PluginPermissions = .none) throws -> String {
        let host = try hostExecutable()
        let grant = String(decoding: permissions.grant(home: environment["HOME"]).encoded, as: UTF8.self)
        let result = try ChildProcess.run(executable: host.path, arguments: ["--confinement"] + (permissions.isEmpty ? [] : [grant]), environment: Self.hostEnvironment(from: environment),
                                          timeout: .seconds(5))
        let line = String(decoding: result.output.prefix(64 << 10), as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        guard result.status == 0, !line.isEmpty else {
            throw PluginHostFailure(editor: PluginIsolation.hostName, command: "--confinement",
                                    cause: .crashed(result.signal.map { ChildProcess.signalName($0) ?? "signal \($0)" } ?? "exit status \(result.status)"))
        }
        return line.shownAsText
    }
}
