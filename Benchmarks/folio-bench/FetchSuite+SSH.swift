import FolioGit
import Foundation

/// `fetch` over ssh (issue 36): the same source cloned (Folio's checked fetch into an empty repository) and fetched
/// again when up to date (connection, handshake, ref advertisement), through the system's OpenSSH `ssh`, through
/// libgit2's libssh2 (the transfer's PATH without `ssh`), and by git (`git clone --bare`, `git fetch`), against an
/// `sshd` on loopback started for the run; runs alternate, best of 5. Skipped with a note when sshd is not installed.
func sshFetchComparison(_ bench: Bench, source: URL, commits: Int) throws {
    guard let sshd = ["/usr/sbin/sshd", "/usr/bin/sshd"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        print("fetch over ssh: skipped (no sshd: install openssh-server, see scripts/setup)")
        return
    }
    let server = try BenchSSHServer(sshd: sshd, in: bench.work.appendingPathComponent("sshd"), env: bench.environment)
    defer { server.stop() }
    let url = "ssh://\(server.user)@127.0.0.1:\(server.port)\(source.path)"
    var openSSH = bench.environment
    openSSH["GIT_SSH_COMMAND"] = "ssh -F /dev/null"  // not the user's ~/.ssh/config
    openSSH["FOLIO_SSH_KEY"] = server.clientKey
    openSSH["FOLIO_SSH_KNOWN_HOSTS"] = server.knownHosts
    openSSH.removeValue(forKey: "SSH_AUTH_SOCK")
    var libssh2 = openSSH
    libssh2.removeValue(forKey: "GIT_SSH_COMMAND")
    libssh2["PATH"] = "/nonexistent"
    let gitSSH = "ssh -F /dev/null -i \(server.clientKey) -o IdentitiesOnly=yes -o UserKnownHostsFile=\(server.knownHosts) -o BatchMode=yes"
    var git = bench.environment
    git["GIT_SSH_COMMAND"] = gitSSH
    var times: [String: [Double]] = [:]
    for round in 0..<5 {
        for (name, env) in [("openssh", openSSH), ("libssh2", libssh2)] {
            let folder = bench.work.appendingPathComponent("ssh-\(name)-\(round)")
            let repository = try Repository.create(at: folder, bare: true)
            try repository.addRemote("origin", url: url)
            times["clone " + name, default: []].append(try time { try repository.fetch("origin", options: TransferOptions(environment: env), downloadTags: false) })
            times["fetch " + name, default: []].append(try time { try repository.fetch("origin", options: TransferOptions(environment: env), downloadTags: false) })
            try? FileManager.default.removeItem(at: folder)
        }
        let folder = bench.work.appendingPathComponent("ssh-git-\(round)")
        times["clone git", default: []].append(try time {
            guard try run("git", ["clone", "-q", "--bare", url, folder.path], env: git).0 == 0 else { throw BenchFailure("git clone \(url)") }
        })
        times["fetch git", default: []].append(try time {
            guard try run("git", ["-C", folder.path, "fetch", "-q", "origin", "+refs/heads/*:refs/heads/*"], env: git).0 == 0 else { throw BenchFailure("git fetch \(url)") }
        })
        try? FileManager.default.removeItem(at: folder)
    }
    let best = { (key: String) in times[key]?.min() ?? 0 }
    let medians = { (key: String) in String(format: "%.3f", median(times[key] ?? [])) }
    for step in ["clone", "fetch"] {
        let what = step == "clone" ? "clone \(commits) commits over ssh through OpenSSH" : "fetch (up to date) over ssh through OpenSSH"
        bench.record(what, folio: best("\(step) openssh"), peer: "libssh2", best("\(step) libssh2"), unit: "s", higherIsBetter: false,
                     note: "medians \(medians("\(step) openssh")) vs \(medians("\(step) libssh2")) s")
        bench.record(what, folio: best("\(step) openssh"), peer: "git \(step)", best("\(step) git"), unit: "s", higherIsBetter: false,
                     note: "median git \(medians("\(step) git")) s")
    }
    bench.reproduceWith("GIT_SSH_COMMAND='\(gitSSH)' git clone --bare URL x && git -C x fetch origin '+refs/heads/*:refs/heads/*' (URL \(url))")
}

/// A throwaway `sshd` on loopback for the benchmark: its own host and client keys, config and known_hosts.
private final class BenchSSHServer {
    let port: UInt16
    let user: String
    let clientKey: String
    let knownHosts: String
    private let pid: pid_t

    init(sshd: String, in directory: URL, env: [String: String]) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let hostKey = directory.appendingPathComponent("host_key").path
        clientKey = directory.appendingPathComponent("client_key").path
        for key in [hostKey, clientKey] {
            guard try run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", key], env: env).0 == 0 else { throw BenchFailure("ssh-keygen") }
        }
        user = String(cString: getpwuid(getuid()).pointee.pw_name)
        port = UInt16.random(in: 20_000...60_000)
        knownHosts = directory.appendingPathComponent("known_hosts").path
        let publicHostKey = try String(contentsOfFile: hostKey + ".pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        try Data("[127.0.0.1]:\(port) \(publicHostKey)\n".utf8).write(to: URL(fileURLWithPath: knownHosts))
        if getuid() == 0 { try? FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true) }
        let config = directory.appendingPathComponent("sshd_config").path
        try Data("""
        Port \(port)
        ListenAddress 127.0.0.1
        HostKey \(hostKey)
        PidFile \(directory.appendingPathComponent("sshd.pid").path)
        AuthorizedKeysFile \(clientKey).pub
        AllowUsers \(user)
        StrictModes no
        UsePAM no
        PasswordAuthentication no
        KbdInteractiveAuthentication no
        PermitRootLogin prohibit-password
        SetEnv GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null

        """.utf8).write(to: URL(fileURLWithPath: config))
        let words: [String] = [sshd, "-D", "-e", "-f", config]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 2, directory.appendingPathComponent("sshd.log").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var pid: pid_t = 0
        guard posix_spawn(&pid, sshd, &actions, nil, argv, nil) == 0 else { throw BenchFailure("sshd") }
        self.pid = pid
        for _ in 0..<100 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            close(fd)
            if connected == 0 { return }
            usleep(50_000)
        }
        stop()
        throw BenchFailure("sshd did not start on port \(port)")
    }

    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
}
