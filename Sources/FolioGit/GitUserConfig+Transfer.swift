import FoundationEssentials

extension GitUserConfig {
    /// `url` as git rewrites it with `url.<base>.insteadOf` (and, when `forPush`, `url.<base>.pushInsteadOf` first):
    /// the longest matching prefix wins and is replaced by its base, applied once; `url` itself when none matches.
    package func rewrite(url: String, forPush: Bool) -> String {
        if forPush, let pushed = rewrite(url, key: "pushinsteadof") { return pushed }
        return rewrite(url, key: "insteadof") ?? url
    }

    private func rewrite(_ url: String, key: String) -> String? {
        var best: (base: Substring, prefix: String)?
        for entry in entries where entry.section == "url" && entry.key == key {
            guard let base = entry.subsection, let prefix = entry.value, !prefix.isEmpty, url.hasPrefix(prefix),
                  prefix.count > (best?.prefix.count ?? 0) else { continue }
            best = (base, prefix)
        }
        guard let best else { return nil }
        return String(best.base) + url.dropFirst(best.prefix.count)
    }

    /// The credential helpers configured for `url`, in the order git asks them: every `credential.helper` and
    /// matching `credential.<url>.helper` in config order, an empty value clearing those before it.
    package func credentialHelpers(for url: String) -> [String] {
        var helpers: [String] = []
        for value in allMatched("credential", "helper", url: url) {
            guard let value, !value.isEmpty else { helpers.removeAll(); continue }
            helpers.append(value)
        }
        return helpers
    }

    /// `credential.<url>.username` (or `credential.username`) for `url`, the last matching one; nil when unset.
    package func credentialUsername(for url: String) -> String? {
        allMatched("credential", "username", url: url).last.flatMap { $0 }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether helpers are told the path of `url` (`credential.useHttpPath`, false by default, as git).
    package func credentialUsesHTTPPath(for url: String) -> Bool {
        guard let last = allMatched("credential", "usehttppath", url: url).last else { return false }
        return Self.bool(.some(last), fallback: false)
    }

    /// Whether TLS certificates of `url`'s server are checked (`http.sslVerify`, `http.<url>.sslVerify`; true
    /// unless the user's own config says false).
    package func sslVerify(for url: String) -> Bool { Self.bool(matched("http", "sslverify", url: url), fallback: true) }

    /// The CA file that certifies `url`'s server, when the user named one: `http.<url>.sslCAInfo` or `http.sslCAInfo`,
    /// else `GIT_SSL_CAINFO`, else `SSL_CERT_FILE` (a leading `~/` is the home folder).
    package func caFile(for url: String) -> String? {
        let configured = matched("http", "sslcainfo", url: url).flatMap { $0 }.flatMap { $0.isEmpty ? nil : $0 }
        let path = configured ?? [environment["GIT_SSL_CAINFO"], environment["SSL_CERT_FILE"]].compactMap { $0 }.first { !$0.isEmpty }
        guard let path else { return nil }
        if path.hasPrefix("~/"), let home = homeForPaths { return home + path.dropFirst(1) }
        return path
    }

    /// Where redirects may lead (`http.followRedirects`): git's `initial` unless the user said `true` or `false`.
    package enum FollowRedirects: Sendable, Equatable { case never, initial, always }

    /// `http.followRedirects` (or `http.<url>.followRedirects`) for `url`.
    package func followRedirects(for url: String) -> FollowRedirects {
        guard let value = matched("http", "followredirects", url: url) else { return .initial }
        if value?.lowercased() == "initial" { return .initial }
        return Self.bool(value, fallback: true) ? .always : .never
    }
}
