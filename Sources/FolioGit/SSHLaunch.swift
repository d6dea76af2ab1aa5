import FoundationEssentials
import Glibc

/// How a transfer runs the system's ssh client, chosen as git chooses it: `GIT_SSH_COMMAND`, else `core.sshCommand`
/// from the user's or the system's git config (never a document's own `.git/config`), both run by `/bin/sh` as git
/// runs them; else `GIT_SSH`, a program; else `ssh` found on `PATH`. Nil from `resolve` when none of these is set and
/// no `ssh` is installed: libgit2's built-in libssh2 then does ssh, as before.
///
/// The program is run as git runs it: `PROGRAM [OPTIONS] [-p PORT] [USER@]HOST "git-upload-pack 'PATH'"` (or
/// `git-receive-pack`), so that the user's `~/.ssh/config` (aliases, `HostName`, `Port`, `User`, `IdentityFile`,
/// `ProxyJump`, `ProxyCommand`, `IdentityAgent`, `ControlMaster`…), the agent, FIDO keys, known_hosts and
/// `StrictHostKeyChecking` apply as they do for git. Folio adds `-o BatchMode=yes` (no prompt: ssh's standard input
/// is Folio's pipe and it runs in a session of its own, without the terminal) after the user's own options, so a
/// `-o BatchMode=no` in the user's command wins (ssh then asks through `SSH_ASKPASS` if set, never the terminal), and
/// `-v`, whose `Server host key` line gives the fingerprint of a refused host key. `FOLIO_SSH_KEY` adds
/// `-i KEY -o IdentitiesOnly=yes`; `FOLIO_SSH_KNOWN_HOSTS` (colon-separated) `-o UserKnownHostsFile=…` with those
/// files before `~/.ssh/known_hosts`.
///
/// A program that is not OpenSSH's `ssh` (by its name, or `GIT_SSH_VARIANT` / `ssh.variant` set to `simple`) gets
/// only `[USER@]HOST COMMAND`, as git's `simple` variant; a URL with a port is refused for it.
package struct SSHLaunch: Sendable, Equatable {
    /// What is run.
    package enum Program: Sendable, Equatable {
        /// A command line, run by `/bin/sh` with ssh's arguments after it (`GIT_SSH_COMMAND`, `core.sshCommand`).
        case shell(String)
        /// A program, a path or a name looked up on `PATH` (`GIT_SSH`, `ssh`).
        case program(String)
    }

    /// Where the choice came from (named in errors).
    package enum Origin: String, Sendable, Equatable {
        case gitSSHCommand = "GIT_SSH_COMMAND", coreSSHCommand = "core.sshCommand", gitSSH = "GIT_SSH", path = "PATH"
    }

    package var program: Program
    package var origin: Origin
    /// Whether the program takes OpenSSH's options (`-p`, `-o`, `-v`): git's `ssh` variant, else `simple`.
    package var isOpenSSH: Bool
    /// The environment the program runs with (the transfer's).
    package var environment: [String: String]

    /// The program for `environment` (see the type's documentation), nil when libssh2 must do ssh.
    /// `userConfig`, when given, is the transfer's reading of the user's git config (`GitUserConfig`), else the files
    /// are read here.
    package static func resolve(environment: [String: String], userConfig: GitUserConfig? = nil) -> SSHLaunch? {
        let files = GitConfigFiles(environment: environment)
        let configured = { (name: String) in userConfig.map { $0.last(name.lowercased()).flatMap { $0 } } ?? files.userString(name) }
        let variant = nonEmpty(environment["GIT_SSH_VARIANT"]) ?? configured("ssh.variant")
        if let command = nonEmpty(environment["GIT_SSH_COMMAND"]) {
            return SSHLaunch(program: .shell(command), origin: .gitSSHCommand, isOpenSSH: isOpenSSH(command, variant), environment: environment)
        }
        if let command = nonEmpty(configured("core.sshCommand")) {
            return SSHLaunch(program: .shell(command), origin: .coreSSHCommand, isOpenSSH: isOpenSSH(command, variant), environment: environment)
        }
        if let program = nonEmpty(environment["GIT_SSH"]) {
            return SSHLaunch(program: .program(program), origin: .gitSSH, isOpenSSH: isOpenSSH(program, variant, firstWordOnly: false),
                             environment: environment)
        }
        guard let path = installedSSH(environment) else { return nil }
        return SSHLaunch(program: .program(path), origin: .path, isOpenSSH: true, environment: environment)
    }

    /// `ssh` on the environment's `PATH`, if installed.
    package static func installedSSH(_ environment: [String: String]) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/ssh" }.first { access($0, X_OK) == 0 }
    }

    private static func nonEmpty(_ value: String?) -> String? { value.flatMap { $0.isEmpty ? nil : $0 } }

    /// git's variant rule: `ssh.variant`/`GIT_SSH_VARIANT` when it says `ssh` or `simple`, else by the program's
    /// name (`ssh`). git's `auto` probe (running the program with `-G`) is not done: another name is `simple`.
    private static func isOpenSSH(_ command: String, _ variant: String?, firstWordOnly: Bool = true) -> Bool {
        switch variant?.lowercased() {
        case "ssh": return true
        case "simple", "plink", "putty", "tortoiseplink": return false
        default:
            let program = firstWordOnly ? command.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? "" : command
            let name = program.split(separator: "/").last.map(String.init) ?? program
            return name == "ssh" || name == "ssh.exe"
        }
    }

    // MARK: Arguments

    /// Options from Folio's own settings (`FOLIO_SSH_KEY`, `FOLIO_SSH_KNOWN_HOSTS`), for OpenSSH.
    var folioOptions: [String] {
        var options: [String] = []
        if let key = Self.nonEmpty(environment["FOLIO_SSH_KEY"]) { options += ["-i", key, "-o", "IdentitiesOnly=yes"] }
        let files = (environment["FOLIO_SSH_KNOWN_HOSTS"] ?? "").split(separator: ":").map(String.init)
        if !files.isEmpty {
            let list = (files.map { "\"\($0.replacing("\"", with: "\\\""))\"" } + ["~/.ssh/known_hosts", "~/.ssh/known_hosts2"])
            options += ["-o", "UserKnownHostsFile=" + list.joined(separator: " ")]
        }
        return options
    }

    /// What Folio adds for a run of its own: no prompt, and the log lines that name the server's host key.
    static let batchOptions = ["-o", "BatchMode=yes", "-v"]

    /// The arguments after the program for `address`, ending with `remote` (a command; nil for none), with
    /// `extra` options (Folio's batch options, or `-G`) after the user's.
    func arguments(_ address: SSHAddress, extra: [String], remote: String?) throws(SSHLaunchRefused) -> [String] {
        var arguments: [String] = []
        if isOpenSSH {
            arguments += folioOptions + extra
            if let port = address.port { arguments += ["-p", String(port)] }
        } else if address.port != nil {
            throw SSHLaunchRefused(reason: "the ssh program from \(origin.rawValue) is not OpenSSH's ssh and cannot be given a port (set ssh.variant to ssh if it takes -p)")
        }
        return arguments + [address.destination] + (remote.map { [$0] } ?? [])
    }

    /// The program and full argument list (`argv[0]` first) to run with `arguments`.
    func commandLine(_ arguments: [String]) -> [String] {
        switch program {
        case let .shell(command): ["/bin/sh", "-c", command + " \"$@\"", command] + arguments
        case let .program(path): [path] + arguments
        }
    }

    /// How a user runs the same at a shell prompt (for messages): the command and the arguments, shell-quoted.
    func shown(_ arguments: [String]) -> String {
        let head: String = switch program {
        case let .shell(command): command
        case let .program(path): origin == .path ? "ssh" : SSHAddress.shellQuoted(path)
        }
        return ([head] + arguments.map { $0.allSatisfy { $0.isLetter || $0.isNumber || "-_./=@:,+".contains($0) } ? $0 : SSHAddress.shellQuoted($0) })
            .joined(separator: " ")
    }
}

/// An ssh remote Folio will not run ssh for: the address or the program chosen cannot work together.
public struct SSHLaunchRefused: Error, CustomStringConvertible, Sendable, Equatable {
    public let reason: String
    public var description: String { reason }
}
