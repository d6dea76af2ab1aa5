import CGit2
import FoundationEssentials
import FolioBasics
import Glibc

/// Transfer progress of a fetch or push (made only here, from libgit2's figures).
public struct TransferProgress: Sendable, Equatable {
    public var totalObjects = 0
    public var receivedObjects = 0
    public var indexedObjects = 0
    public var localObjects = 0
    public var receivedBytes = 0
}

extension TransferProgress {
    init(_ p: git_indexer_progress) {
        self.init(totalObjects: Int(p.total_objects), receivedObjects: Int(p.received_objects),
                  indexedObjects: Int(p.indexed_objects), localObjects: Int(p.local_objects), receivedBytes: p.received_bytes)
    }
}

/// A configured remote: its name and URL.
public struct RemoteInfo: Sendable, Equatable, Encodable {
    public let name: String
    /// The URL as configured (for transfers); `shownURL` is how Folio shows it.
    public let url: String

    /// The URL with its user information redacted (`RemoteURL.redacted`).
    public var shownURL: String { RemoteURL.redacted(url) }

    enum CodingKeys: String, CodingKey { case name, url }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(shownURL, forKey: .url)
    }
}

/// How a transfer authenticates and reports: credentials, progress, cancellation.
///
/// Credentials, from `environment`: ssh goes through the system's `ssh` program when there is one (`SSHLaunch`:
/// `GIT_SSH_COMMAND`, `core.sshCommand` from the user's or system git config, `GIT_SSH`, `ssh` on `PATH`), which reads
/// the user's ssh config, agent, keys and known_hosts itself (`FOLIO_SSH_KEY` and `FOLIO_SSH_KNOWN_HOSTS` passed to
/// it as options). Without one, libssh2 does ssh with the key file `FOLIO_SSH_KEY` alone when it is set (its public
/// half beside it as `KEY.pub` if present), else the ssh agent and then `~/.ssh/id_ed25519`, `id_ecdsa`, `id_rsa`; a
/// key's passphrase from `FOLIO_GIT_SSH_PASSPHRASE`. Over http(s), a user name and password from the user's git
/// credential helpers (`CredentialHelper`), else `FOLIO_GIT_USERNAME` / `FOLIO_GIT_PASSWORD` (or `FOLIO_GIT_TOKEN`),
/// else the server's `machine` entry (or `default`) in `$NETRC` or `~/.netrc` (`Netrc`); a malformed credentials file
/// stops the transfer with a `NetrcError`. The user's git configuration (`GitUserConfig`, read from `environment` once
/// per transfer, never from the document) also rewrites the URL (`insteadOf`), picks the proxy and the CA file.
///
/// Through `ssh`, ssh checks host keys; a refusal is `HostKeyRefused` (fingerprint from ssh's log, the command that
/// accepts an unknown key), any other failure of ssh `SSHFailed` with its last lines. Through libssh2, an ssh
/// server's host key must be listed for it in known_hosts (`SSHKnownHosts`: `FOLIO_SSH_KNOWN_HOSTS`, then
/// `~/.ssh/known_hosts`, then `/etc/ssh/ssh_known_hosts`); an unknown, changed or revoked key stops the transfer with
/// an error naming the host and the key's SHA-256 fingerprint. TLS certificates are checked by libgit2 against the
/// system's CAs, or by Folio against the CA file the user named (`CertificateRefused`), or not at all where the
/// user's own config says `http.sslVerify=false`.
public struct TransferOptions: Sendable {
    public var environment: [String: String]
    /// Called as objects arrive; may be called often.
    public var progress: (@Sendable (TransferProgress) -> Void)?
    /// Polled during the transfer, also while the server is silent (ten times a second); returning true aborts it.
    public var isCancelled: (@Sendable () -> Bool)?
    /// How long the transfer may go without progress (no byte sent or received, no callback from libgit2) before it
    /// gives up with `TransferTimedOut`: a server that accepts the connection and never answers cannot hang it.
    public var timeout: Duration

    /// Folio's default: 30 seconds without progress.
    public static let defaultTimeout: Duration = .seconds(30)

    public init(environment: [String: String] = ProcessInfo.processInfo.environment,
                progress: (@Sendable (TransferProgress) -> Void)? = nil, isCancelled: (@Sendable () -> Bool)? = nil,
                timeout: Duration = TransferOptions.defaultTimeout) {
        self.environment = environment
        self.progress = progress
        self.isCancelled = isCancelled
        self.timeout = timeout
    }
}

/// A push refused by the remote, or by libgit2 before sending because the remote's branch is not an ancestor of what
/// would replace it.
public struct PushRefused: Error, CustomStringConvertible, Sendable, Equatable {
    /// The remote's name or URL.
    public let remote: String
    /// Whether the remote has versions not here (not a fast-forward: libgit2's `GIT_ENONFASTFORWARD`, or a ref the
    /// server refused as "non-fast-forward" or "fetch first"), so that bringing them in first can let it through.
    public let remoteAhead: Bool
    /// libgit2's message, or the refused refs with the server's status for each (text from outside: show it as text).
    public let reason: String

    public var description: String { "\(remote): push failed: \(reason)" }
}

/// The state shared with libgit2's C callbacks for one transfer.
final class TransferContext {
    let options: TransferOptions
    /// The user's git configuration, read once for this transfer.
    let userConfig: GitUserConfig
    /// The URL as the user gave or configured it (before `url.*.insteadOf`), for what Folio shows.
    let shownURL: String
    var sshKeyAttempts = 0
    var passwordAttempts = 0
    /// The refs the remote refused, with its status for each (the remote's words).
    var rejected: [(ref: String, status: String)] = []
    var cancelled = false
    /// The URL being connected to (for the ssh port, which libgit2's host key callback does not pass).
    let remoteURL: String
    /// Why a host key was refused, set by the certificate callback (libgit2 replaces its error message).
    var hostKeyRefusal: (host: String, fingerprint: String, reason: HostKeyRefused.Reason)?
    /// A credentials file that could not be used (`NetrcError`), or credentials withheld (`CredentialRefused`): the
    /// transfer's error instead of libgit2's.
    var credentialProblem: (any Error)?
    /// Whether `FOLIO_GIT_TOKEN` was there but not sent (plain http to a host the user did not allow it for).
    var tokenWithheld = false
    /// Whether a user name and password were handed to libgit2 (so an authentication failure is a refusal).
    var sentLogin: Bool { loginSource != nil }
    /// Where the login handed to libgit2 came from.
    var loginSource: CredentialRefused.Source?
    /// The login a credential helper gave (to `store` after a success, `erase` after a refusal).
    var helperLogin: CredentialFields?
    /// The helpers asked (their names), and what went wrong with any of them (quoted).
    var helpersAsked: [String] = []
    var helperNotes: [String] = []
    /// Why a TLS certificate was refused by the check against the user's CA file.
    var certificateRefusal: CertificateRefused?
    /// The proxy's URL for libgit2 (owned here, freed with the context).
    private let proxyURL: UnsafeMutablePointer<CChar>?
    /// Stops the transfer on a cancel or when it stalls, even while libgit2 waits on a silent socket.
    let watch: TransferWatch

    /// The context of a transfer to `remoteURL` (already rewritten by `url.*.insteadOf`), which the user knows as
    /// `shownURL`.
    init(_ options: TransferOptions, userConfig: GitUserConfig, remoteURL: String, shownURL: String) {
        self.options = options
        self.userConfig = userConfig
        self.remoteURL = remoteURL
        self.shownURL = shownURL
        let proxy = userConfig.proxy(for: remoteURL)
        proxyURL = proxy.flatMap { strdup($0) }
        let ssh = TransferWatch.isSSH(remoteURL) ? SSHLaunch.resolve(environment: options.environment, userConfig: userConfig) : nil
        self.watch = TransferWatch(remote: RemoteURL.redacted(shownURL), timeout: options.timeout, isCancelled: options.isCancelled,
                                   forwardingProxy: proxy.flatMap { Self.forwardingProxy(to: remoteURL, through: $0) }, connecting: remoteURL, ssh: ssh)
        self.usesLibssh2 = ssh == nil && TransferWatch.isSSH(remoteURL)
    }

    deinit { free(proxyURL) }

    /// The socket redirection a plain-http transfer to `url` through the http proxy `proxy` needs (see
    /// `TransferWatch.ForwardingProxy`); nil for https (libgit2 tunnels it with CONNECT) and other schemes.
    private static func forwardingProxy(to url: String, through proxy: String) -> TransferWatch.ForwardingProxy? {
        guard let target = MatchedURL(url), target.scheme == "http", let via = MatchedURL(proxy), via.scheme == "http" else { return nil }
        let bare = { (host: String) in host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host }
        return .init(targetHost: bare(target.host), targetPort: "\(target.port)", proxyHost: bare(via.host), proxyPort: "\(via.port)")
    }

    /// libgit2's proxy options for this transfer: the user's proxy (`GitUserConfig.proxy(for:)`), else none — never
    /// libgit2's own detection, which would read the document's config and the process's environment.
    func proxyOptions() throws -> git_proxy_options {
        var proxy = git_proxy_options()
        try check(git_proxy_options_init(&proxy, UInt32(GIT_PROXY_OPTIONS_VERSION)), "proxy options")
        proxy.type = proxyURL == nil ? GIT_PROXY_NONE : GIT_PROXY_SPECIFIED
        proxy.url = UnsafePointer(proxyURL)
        return proxy
    }

    /// Where redirects may lead, from the user's `http.followRedirects` (never the document's).
    var followRedirects: git_remote_redirect_t {
        switch userConfig.followRedirects(for: remoteURL) {
        case .never: return GIT_REMOTE_REDIRECT_NONE
        case .initial: return GIT_REMOTE_REDIRECT_INITIAL
        case .always: return GIT_REMOTE_REDIRECT_ALL
        }
    }

    /// Whether ssh goes through libgit2's libssh2 (no `ssh` program: `SSHLaunch.resolve`).
    let usesLibssh2: Bool

    var home: String { options.environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path }

    /// The ssh keys to offer, in order: `FOLIO_SSH_KEY` alone, else the agent and the usual key files.
    var sshKeys: [String?] {
        let env = options.environment
        if let key = env["FOLIO_SSH_KEY"], !key.isEmpty { return [key] }
        let files = ["id_ed25519", "id_ecdsa", "id_rsa"].map { "\(home)/.ssh/\($0)" }.filter { FileManager.default.fileExists(atPath: $0) }
        return (env["SSH_AUTH_SOCK"] != nil ? [nil] : []) + files
    }

    /// Host key check for an ssh connection libgit2 could not verify itself: 0 to accept, an error code to refuse.
    func checkHostKey(_ cert: git_cert_hostkey, host: String) -> Int32 {
        let port = SSHKnownHosts.port(ofRemoteURL: remoteURL)
        let name = SSHKnownHosts.entryName(host: host, port: port)
        let fingerprint = cert.type.rawValue & GIT_CERT_SSH_SHA256.rawValue != 0
            ? withUnsafeBytes(of: cert.hash_sha256) { SSHKnownHosts.fingerprint(sha256: Data($0)) }
            : "unavailable"
        guard cert.type.rawValue & GIT_CERT_SSH_RAW.rawValue != 0, let raw = cert.hostkey, cert.hostkey_len > 0 else {
            hostKeyRefusal = (name, fingerprint, .noKey)
            return GIT_ECERTIFICATE.rawValue
        }
        let key = Data(bytes: raw, count: cert.hostkey_len)
        switch SSHKnownHosts(environment: options.environment).verdict(host: host, port: port, key: key) {
        case .known: return 0
        case .unknown: hostKeyRefusal = (name, fingerprint, .unknown)
        case .changed: hostKeyRefusal = (name, fingerprint, .changed)
        case .revoked: hostKeyRefusal = (name, fingerprint, .revoked)
        }
        return GIT_ECERTIFICATE.rawValue
    }

    /// The host key refusal as the transfer's error, when there was one.
    func throwIfHostKeyRefused(_ operation: String, _ subject: String) throws {
        guard let (host, fingerprint, reason) = hostKeyRefusal else { return }
        throw HostKeyRefused(operation: operation, remote: subject, host: host, fingerprint: fingerprint, reason: reason)
    }
}

private func installCallbacks(_ callbacks: inout git_remote_callbacks, context: TransferContext) {
    callbacks.payload = Unmanaged.passUnretained(context).toOpaque()
    callbacks.credentials = { out, url, usernameFromURL, allowed, payload in
        guard let out, let payload else { return GIT_PASSTHROUGH.rawValue }
        let context = Unmanaged<TransferContext>.fromOpaque(payload).takeUnretainedValue()
        context.watch.progressed(.waiting)
        let env = context.options.environment
        let user = usernameFromURL.map { String(cString: $0) } ?? env["FOLIO_GIT_USERNAME"] ?? env["USER"] ?? "git"
        if allowed & GIT_CREDENTIAL_USERNAME.rawValue != 0 {
            return git_credential_username_new(out, user)
        }
        if allowed & GIT_CREDENTIAL_SSH_KEY.rawValue != 0 {
            // Each key once, in order (nil is the agent); then give up.
            let keys = context.sshKeys
            let index = context.sshKeyAttempts
            context.sshKeyAttempts += 1
            if index < keys.count {
                guard let key = keys[index] else { return git_credential_ssh_key_from_agent(out, user) }
                let pub = FileManager.default.fileExists(atPath: key + ".pub") ? key + ".pub" : nil
                return git_credential_ssh_key_new(out, user, pub, key, env["FOLIO_GIT_SSH_PASSPHRASE"])
            }
        }
        if allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT.rawValue != 0, context.passwordAttempts == 0 {
            context.passwordAttempts += 1
            return context.httpLogin(out, asking: url.map { String(cString: $0) } ?? "",
                                     urlUser: usernameFromURL.map { String(cString: $0) }, fallbackUser: user)
        }
        return GIT_PASSTHROUGH.rawValue
    }
    callbacks.certificate_check = { cert, valid, host, payload in
        guard let cert, let payload else { return GIT_PASSTHROUGH.rawValue }
        let context = Unmanaged<TransferContext>.fromOpaque(payload).takeUnretainedValue()
        context.watch.progressed(.waiting)  // the ssh or TLS handshake is done
        // TLS: libgit2's check against the system's CAs, unless the user named a CA file or turned checks off
        // (`checkTLS`). ssh keys libgit2 found in its own known_hosts are accepted, the rest are checked here.
        if cert.pointee.cert_type == GIT_CERT_X509 {
            let x509 = UnsafeRawPointer(cert).assumingMemoryBound(to: git_cert_x509.self).pointee
            return context.checkTLS(x509, valid: valid != 0, host: host.map { String(cString: $0) } ?? "")
        }
        guard cert.pointee.cert_type == GIT_CERT_HOSTKEY_LIBSSH2 else { return GIT_PASSTHROUGH.rawValue }
        if valid != 0 { return 0 }
        let hostkey = UnsafeRawPointer(cert).assumingMemoryBound(to: git_cert_hostkey.self).pointee
        return context.checkHostKey(hostkey, host: host.map { String(cString: $0) } ?? "")
    }
    callbacks.transfer_progress = { stats, payload in
        guard let payload else { return 0 }
        let context = Unmanaged<TransferContext>.fromOpaque(payload).takeUnretainedValue()
        if context.options.isCancelled?() == true { context.cancelled = true; return -1 }
        if let stats {
            context.watch.progressed(stats.pointee.total_objects > 0 ? .receiving : nil)
            context.options.progress?(TransferProgress(stats.pointee))
        }
        return 0
    }
    callbacks.sideband_progress = { _, _, payload in
        guard let payload else { return 0 }
        let context = Unmanaged<TransferContext>.fromOpaque(payload).takeUnretainedValue()
        if context.options.isCancelled?() == true { context.cancelled = true; return -1 }
        context.watch.progressed()
        return 0
    }
    callbacks.pack_progress = { _, _, _, payload in
        guard let payload else { return 0 }
        let context = Unmanaged<TransferContext>.fromOpaque(payload).takeUnretainedValue()
        if context.options.isCancelled?() == true { context.cancelled = true; return -1 }
        context.watch.progressed()  // building the pack to push: Folio's own work, not a silent server
        return 0
    }
    callbacks.push_transfer_progress = { _, _, _, payload in
        guard let payload else { return 0 }
        let context = Unmanaged<TransferContext>.fromOpaque(payload).takeUnretainedValue()
        if context.options.isCancelled?() == true { context.cancelled = true; return -1 }
        context.watch.progressed(.sending)
        return 0
    }
    callbacks.push_update_reference = { refname, status, payload in
        guard let payload else { return 0 }
        let context = Unmanaged<TransferContext>.fromOpaque(payload).takeUnretainedValue()
        context.watch.progressed()
        if let status {
            context.rejected.append((refname.map { String(cString: $0) } ?? "?", String(cString: status)))
        }
        return 0
    }
}

extension Repository {
    /// The configured remotes.
    public func remotes() throws -> [RemoteInfo] {
        var names = git_strarray()
        try check(git_remote_list(&names, pointer), "list remotes", displayPath)
        defer { git_strarray_dispose(&names) }
        var result: [RemoteInfo] = []
        for index in 0..<names.count {
            guard let cName = names.strings[index] else { continue }
            var remote: OpaquePointer?
            guard git_remote_lookup(&remote, pointer, cName) == 0 else { continue }
            defer { git_remote_free(remote) }
            result.append(RemoteInfo(name: String(cString: cName), url: git_remote_url(remote).map { String(cString: $0) } ?? ""))
        }
        return result
    }

    /// Adds a remote; `fetchRefspec` defaults to git's `+refs/heads/*:refs/remotes/NAME/*`.
    public func addRemote(_ name: String, url: String, fetchRefspec: String? = nil) throws {
        var remote: OpaquePointer?
        if let fetchRefspec {
            try check(git_remote_create_with_fetchspec(&remote, pointer, name, url, fetchRefspec), "add remote \(name)", displayPath)
        } else {
            try check(git_remote_create(&remote, pointer, name, url), "add remote \(name)", displayPath)
        }
        git_remote_free(remote)
    }

    /// Changes a remote's URL.
    public func setRemoteURL(_ name: String, url: String) throws {
        try check(git_remote_set_url(pointer, name, url), "set URL of remote \(name)", displayPath)
    }

    /// Removes a remote and its remote-tracking refs.
    public func removeRemote(_ name: String) throws {
        try check(git_remote_delete(pointer, name), "remove remote \(name)", displayPath)
    }

    private func withRemote<R>(_ nameOrURL: String, _ body: (OpaquePointer?) throws -> R) throws -> R {
        try GitLibrary.startNetworkIfDeferred()  // before anything can connect
        var remote: OpaquePointer?
        if git_remote_lookup(&remote, pointer, nameOrURL) != 0 {
            try check(git_remote_create_anonymous(&remote, pointer, nameOrURL), "use remote '\(RemoteURL.redacted(nameOrURL))'", displayPath)
        }
        defer { git_remote_free(remote) }
        return try body(remote)
    }

    /// Runs a transfer with `nameOrURL` (its push URL when `pushing`) under a `TransferWatch`: a cancel or a stall
    /// of `options.timeout` ends it with `TransferCancelled` or `TransferTimedOut`, whatever libgit2 itself reported.
    /// Every transfer's URL goes through here: it is rewritten by the user's `url.*.insteadOf` (`pushInsteadOf`)
    /// for this connection only, while errors keep showing the URL as given.
    private func withTransfer<R>(_ nameOrURL: String, _ operation: String, options: TransferOptions, pushing: Bool = false,
                                 _ body: (OpaquePointer?, TransferContext) throws -> R) throws -> R {
        try WatchedSocketStream.register()
        let userConfig = try GitUserConfig(environment: options.environment, repository: self)
        try OpenSSHTransport.register()
        return try withRemote(nameOrURL) { remote in
            let (url, rewritten) = try useRewrittenURL(remote, nameOrURL, userConfig: userConfig, pushing: pushing)
            let context = TransferContext(options, userConfig: userConfig, remoteURL: rewritten, shownURL: url)
            do {
                let result = try context.watch.run { try body(remote, context) }
                context.approveLogin()
                return result
            } catch {
                if let problem = context.credentialProblem { throw problem }
                if let refusal = context.certificateRefusal { throw refusal }
                if let stop = context.watch.stopError(operation, RemoteURL.redacted(nameOrURL)) { throw stop }
                if let ended = context.watch.sshFailure, !(error is HostKeyRefused) {
                    throw ended.error(operation, RemoteURL.redacted(nameOrURL))
                }
                if let git = error as? GitError, git.code == GIT_EAUTH.rawValue || git.message.contains("authentication required")
                    || git.message.contains("authentication replays") || git.message.contains("401") {
                    throw context.refusal(url: url)
                }
                if context.usesLibssh2, let git = error as? GitError, git.errorClass == GIT_ERROR_SSH.rawValue || git.errorClass == GIT_ERROR_NET.rawValue {
                    throw GitError(code: git.code, operation: git.operation, subject: git.subject,
                                   message: git.message + " (no ssh program found: Folio used its built-in libssh2, which reads no ~/.ssh/config)")
                }
                throw error
            }
        }
    }

    /// Points `remote` (for this connection only) at its URL as the user's config rewrites it; returns the URL as
    /// configured or given and the rewritten one. The document's own `url.*.insteadOf` (which libgit2 applied when
    /// it looked the remote up) plays no part: the rewrite starts from the URL as written.
    private func useRewrittenURL(_ remote: OpaquePointer?, _ nameOrURL: String, userConfig: GitUserConfig,
                                 pushing: Bool) throws -> (url: String, rewritten: String) {
        let named = remote.flatMap { git_remote_name($0) }.map { String(cString: $0) }
        let configuredURL = named.flatMap { configString("remote.\($0).url") }
        let configuredPushURL = pushing ? named.flatMap { configString("remote.\($0).pushurl") } : nil
        let url = named == nil ? nameOrURL : configuredPushURL ?? configuredURL ?? git_remote_url(remote).map { String(cString: $0) } ?? nameOrURL
        let rewritten = userConfig.rewrite(url: url, forPush: pushing && configuredPushURL == nil)
        if pushing {
            try check(git_remote_set_instance_pushurl(remote, rewritten), "use push URL", RemoteURL.redacted(nameOrURL))
        } else {
            try check(git_remote_set_instance_url(remote, rewritten), "use URL", RemoteURL.redacted(nameOrURL))
        }
        return (url, rewritten)
    }

    /// Fetches straight into this repository, unchecked: only `fetch(_:refspecs:options:pruning:downloadTags:rules:)`
    /// calls it, on its quarantine. Refs move only once the pack is complete. A server silent for `options.timeout`
    /// ends it with `TransferTimedOut`.
    func fetchIntoThisRepository(_ nameOrURL: String, refspecs: [String], options: TransferOptions,
                                 pruning: Bool, downloadTags: Bool) throws -> TransferProgress {
        try withTransfer(nameOrURL, "fetch", options: options) { remote, context in
            var fetchOptions = git_fetch_options()
            try check(git_fetch_options_init(&fetchOptions, UInt32(GIT_FETCH_OPTIONS_VERSION)), "fetch options")
            installCallbacks(&fetchOptions.callbacks, context: context)
            fetchOptions.proxy_opts = try context.proxyOptions()
            fetchOptions.follow_redirects = context.followRedirects
            fetchOptions.prune = pruning ? GIT_FETCH_PRUNE : GIT_FETCH_NO_PRUNE
            fetchOptions.download_tags = downloadTags ? GIT_REMOTE_DOWNLOAD_TAGS_ALL : GIT_REMOTE_DOWNLOAD_TAGS_AUTO
            let code = try withStrArray(refspecs) { specs in
                git_remote_fetch(remote, refspecs.isEmpty ? nil : specs, &fetchOptions, "fetch")
            }
            if context.cancelled { throw TransferCancelled(operation: "fetch", remote: RemoteURL.redacted(nameOrURL)) }
            if code < 0 { try context.throwIfHostKeyRefused("fetch", RemoteURL.redacted(nameOrURL)) }
            try check(code, "fetch", RemoteURL.redacted(nameOrURL))
            return git_remote_stats(remote).map { TransferProgress($0.pointee) } ?? TransferProgress()
        }
    }

    /// Connects `remote` for fetching with the transfer's callbacks (credentials, host keys, the watch); a refused
    /// host key is reported as such. The caller disconnects.
    private func connectForFetch(_ remote: OpaquePointer?, context: TransferContext, _ nameOrURL: String) throws {
        var connect = git_remote_connect_options()
        try check(git_remote_connect_options_init(&connect, UInt32(GIT_REMOTE_CONNECT_OPTIONS_VERSION)), "connect options")
        installCallbacks(&connect.callbacks, context: context)
        connect.proxy_opts = try context.proxyOptions()
        connect.follow_redirects = context.followRedirects
        let connected = git_remote_connect_ext(remote, GIT_DIRECTION_FETCH, &connect)
        if connected < 0 { try context.throwIfHostKeyRefused("connect", RemoteURL.redacted(nameOrURL)) }
        try check(connected, "connect", RemoteURL.redacted(nameOrURL))
    }

    /// The branch a remote's HEAD points at (`refs/heads/main`), asked over the network.
    public func remoteDefaultBranch(_ nameOrURL: String, options: TransferOptions = TransferOptions()) throws -> String? {
        try withTransfer(nameOrURL, "connect", options: options) { remote, context in
            try connectForFetch(remote, context: context, nameOrURL)
            defer { git_remote_disconnect(remote) }
            var buf = git_buf()
            defer { git_buf_dispose(&buf) }
            let code = git_remote_default_branch(&buf, remote)
            if code == GIT_ENOTFOUND.rawValue { return nil }
            try check(code, "read default branch", RemoteURL.redacted(nameOrURL))
            return buf.ptr.map { String(cString: $0) }
        }
    }

    /// The commit `branch` (`refs/heads/main`) names on a remote, asked over the network without fetching anything
    /// (git's ref advertisement, like `git ls-remote`); nil when the remote has no such branch. The id comes from the
    /// remote and is untrusted: compare it with a tracking ref, and bring anything new in only through a fetch.
    public func remoteBranchTip(_ nameOrURL: String, branch: String, options: TransferOptions = TransferOptions()) throws -> ObjectID? {
        try withTransfer(nameOrURL, "look at", options: options) { remote, context in
            try connectForFetch(remote, context: context, nameOrURL)
            defer { git_remote_disconnect(remote) }
            var heads: UnsafeMutablePointer<UnsafePointer<git_remote_head>?>?
            var count = 0
            try check(git_remote_ls(&heads, &count, remote), "list refs", RemoteURL.redacted(nameOrURL))
            guard let heads else { return nil }
            for index in 0..<count {
                guard let head = heads[index], let name = head.pointee.name, String(cString: name) == branch else { continue }
                return withUnsafePointer(to: head.pointee.oid) { ObjectID($0) }
            }
            return nil
        }
    }

    /// Pushes `refspecs` (e.g. `refs/heads/main:refs/heads/main`) to a remote. A ref the remote refuses, or that
    /// libgit2 will not send because the remote's branch has versions not here, ends it with `PushRefused`; a server
    /// silent for `options.timeout` with `TransferTimedOut`.
    public func push(_ nameOrURL: String, refspecs: [String], options: TransferOptions = TransferOptions()) throws {
        try withTransfer(nameOrURL, "push", options: options, pushing: true) { remote, context in
            var pushOptions = git_push_options()
            try check(git_push_options_init(&pushOptions, UInt32(GIT_PUSH_OPTIONS_VERSION)), "push options")
            installCallbacks(&pushOptions.callbacks, context: context)
            pushOptions.proxy_opts = try context.proxyOptions()
            pushOptions.follow_redirects = context.followRedirects
            let code = try withStrArray(refspecs) { specs in git_remote_push(remote, specs, &pushOptions) }
            if context.cancelled { throw TransferCancelled(operation: "push", remote: RemoteURL.redacted(nameOrURL)) }
            if code < 0 { try context.throwIfHostKeyRefused("push", RemoteURL.redacted(nameOrURL)) }
            do { try check(code, "push", RemoteURL.redacted(nameOrURL)) } catch let error as GitError where error.code == GIT_ENONFASTFORWARD.rawValue {
                throw PushRefused(remote: nameOrURL, remoteAhead: true, reason: error.message)
            }
            if !context.rejected.isEmpty {
                let ahead = context.rejected.contains { $0.status.contains("non-fast-forward") || $0.status.contains("fetch first") }
                let refs = context.rejected.map { "\($0.ref): \($0.status)" }.joined(separator: "; ")
                throw PushRefused(remote: nameOrURL, remoteAhead: ahead, reason: "rejected: " + refs)
            }
        }
    }

    /// Makes HEAD a symbolic ref to `branch` (`refs/heads/main`).
    public func setHead(_ branch: String) throws {
        try check(git_repository_set_head(pointer, branch), "set HEAD to \(branch)", displayPath)
    }
}

private func withStrArray<R>(_ strings: [String], _ body: (UnsafeMutablePointer<git_strarray>) throws -> R) throws -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    defer { pointers.forEach { free($0) } }
    return try pointers.withUnsafeMutableBufferPointer { buffer in
        var array = git_strarray(strings: buffer.baseAddress, count: buffer.count)
        return try body(&array)
    }
}
