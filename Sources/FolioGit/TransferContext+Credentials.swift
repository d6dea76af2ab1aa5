import CGit2
import FoundationEssentials

extension TransferContext {
    /// A user name and password for the http(s) server that asks (`asking`), in order: the user's credential helpers
    /// (`GitUserConfig.credentialHelpers(for:)`), then `FOLIO_GIT_PASSWORD` / `FOLIO_GIT_TOKEN`, then `.netrc`. Only
    /// to the server the transfer was asked for (`CredentialScope`). Returns libgit2's code.
    func httpLogin(_ out: UnsafeMutablePointer<UnsafeMutablePointer<git_credential>?>, asking: String, urlUser: String?,
                   fallbackUser: String) -> Int32 {
        // Credentials go only to the server the transfer was asked for: never after a redirect elsewhere.
        guard CredentialScope.sameServer(asking, remoteURL) else {
            credentialProblem = CredentialRefused(url: asking, reason: .redirected(from: shownURL))
            return GIT_EUSER.rawValue
        }
        let env = options.environment
        if let (helper, login) = loginFromHelpers(urlUser: urlUser), let password = login.password {
            loginSource = .helper(helper)
            helperLogin = login
            return git_credential_userpass_plaintext_new(out, login.username ?? fallbackUser, password)
        }
        if let secret = env["FOLIO_GIT_PASSWORD"] ?? env["FOLIO_GIT_TOKEN"] {
            // A token names no host: it goes to this server only over https, or http where the user allowed it.
            if CredentialScope.allowsToken(to: asking, environment: env) {
                loginSource = .token
                return git_credential_userpass_plaintext_new(out, env["FOLIO_GIT_USERNAME"] ?? fallbackUser, secret)
            }
            tokenWithheld = true
        }
        do {
            let host = RemoteURL.origin(asking)?.host ?? ""
            if let found = try Netrc.load(environment: env)?.credentials(host: host) {
                loginSource = .netrc
                return git_credential_userpass_plaintext_new(out, found.login ?? fallbackUser, found.password)
            }
        } catch {
            credentialProblem = error
            return GIT_EUSER.rawValue
        }
        return GIT_PASSTHROUGH.rawValue
    }

    /// The request git's credential protocol sends for this transfer's server; nil for a URL it cannot describe.
    private func credentialRequest(urlUser: String?) -> CredentialFields? {
        guard let url = MatchedURL(remoteURL) else { return nil }
        let path = userConfig.credentialUsesHTTPPath(for: remoteURL) && !url.path.isEmpty ? url.path : nil
        return CredentialFields(protocolName: url.scheme, host: url.authority, path: path,
                                username: urlUser ?? userConfig.credentialUsername(for: remoteURL))
    }

    /// Asks each helper in turn (`get`) until one gives a password or asks to stop; returns the helper that gave it
    /// and the login. A helper that fails or answers badly is noted and skipped.
    private func loginFromHelpers(urlUser: String?) -> (String, CredentialFields)? {
        let helpers = userConfig.credentialHelpers(for: remoteURL).map(CredentialHelper.init)
        guard !helpers.isEmpty, var login = credentialRequest(urlUser: urlUser) else { return nil }
        for helper in helpers {
            helpersAsked.append(helper.name)
            guard let request = login.request() else { return nil }
            watch.progressed(.waiting)
            defer { watch.progressed(.waiting) }
            guard let run = note(helper, "get", try helper.run("get", request: request, environment: options.environment)) else { continue }
            guard let answer = CredentialAnswer(run.output) else {
                helperNotes.append("credential helper '\(helper.name)' gave an answer that is not key=value text; it was ignored")
                continue
            }
            login.username = answer.username ?? login.username
            login.password = answer.password ?? login.password
            if login.password != nil { return (helper.name, login) }
            if answer.quit { return nil }
        }
        return nil
    }

    /// `run`'s result when the helper ran and succeeded; else nil, with a note of what went wrong (its standard
    /// error quoted).
    private func note(_ helper: CredentialHelper, _ action: String, _ run: @autoclosure () throws -> CredentialHelperRun) -> CredentialHelperRun? {
        do {
            let ran = try run()
            if ran.succeeded { return ran }
            let how = ran.timedOut ? "did not finish within \(CredentialHelper.timeLimit)" : ran.status.map { "exited with status \($0)" } ?? "was stopped by a signal"
            helperNotes.append("credential helper '\(helper.name)' \(action) \(how)" + (ran.quotedErrors.map { ": \($0)" } ?? ""))
        } catch {
            helperNotes.append("\(error)")
        }
        return nil
    }

    /// After a transfer the server let through: a helper's login is stored by every helper (`store`), as git does.
    func approveLogin() { tellHelpers("store") }

    /// The refusal of a login (or of none), naming where Folio looked; a helper's login is erased from every
    /// helper first (`erase`), as git does.
    func refusal(url: String) -> CredentialRefused {
        var refused = CredentialRefused(url: url, reason: passwordAttempts > 0 && !tokenWithheld && loginSource != nil
                                        ? .refused(from: loginSource ?? .token) : .noneFound(tokenWithheld: tokenWithheld))
        if case .refused(.helper) = refused.reason { tellHelpers("erase") }
        refused.helpers = helpersAsked
        refused.helperNotes = helperNotes
        return refused
    }

    /// Runs `action` (`store`, `erase`) with the helper's login on every configured helper; failures are noted only.
    private func tellHelpers(_ action: String) {
        guard let login = helperLogin, let request = login.request() else { return }
        for helper in userConfig.credentialHelpers(for: remoteURL).map(CredentialHelper.init) {
            _ = note(helper, action, try helper.run(action, request: request, environment: options.environment))
        }
    }

    /// The TLS certificate check: turned off by the user's `http.sslVerify=false`; against the CA file the user named
    /// (`GitUserConfig.caFile(for:)`, which alone decides, as with git); else libgit2's verdict. Returns libgit2's code.
    func checkTLS(_ cert: git_cert_x509, valid: Bool, host: String) -> Int32 {
        if !userConfig.sslVerify(for: remoteURL) { return 0 }
        guard let caFile = userConfig.caFile(for: remoteURL) else { return GIT_PASSTHROUGH.rawValue }
        guard let problem = CertificateRefused.problem(der: UnsafeRawBufferPointer(start: cert.data, count: cert.len), host: host, caFile: caFile) else { return 0 }
        certificateRefusal = CertificateRefused(url: shownURL, host: host, caFile: caFile, problem: problem)
        return GIT_ECERTIFICATE.rawValue
    }
}
