import FoundationEssentials

extension GitUserConfig {
    /// The proxy a transfer to `url` goes through, nil for none, as git with curl chooses it:
    /// - the user's `http.<url>.proxy` or `http.proxy` (an empty value: no proxy, whatever the environment says);
    /// - else, over https, `https_proxy` or `HTTPS_PROXY`; over http, `http_proxy` (lower-case only: curl ignores
    ///   `HTTP_PROXY`, which a CGI program gets from a request's `Proxy:` header); then `all_proxy` or `ALL_PROXY`;
    /// - either way none when `no_proxy` or `NO_PROXY` names the host (`*`, the host, or a domain it is in).
    /// A proxy written without a scheme (`proxy.example:3128`) is an http proxy, as curl takes it. Only http(s)
    /// transfers use a proxy.
    package func proxy(for url: String) -> String? {
        guard let target = MatchedURL(url), target.scheme == "https" || target.scheme == "http" else { return nil }
        let configured = matched("http", "proxy", url: url).map { $0 ?? "" }
        let fromEnvironment = target.scheme == "https" ? ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] : ["http_proxy", "all_proxy", "ALL_PROXY"]
        let chosen = configured ?? fromEnvironment.lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        guard let chosen, !chosen.isEmpty, !bypassesProxy(host: target.host) else { return nil }
        return chosen.contains("://") ? chosen : "http://" + chosen
    }

    /// Whether `no_proxy` (else `NO_PROXY`) names `host`: `*`, the host itself, or a domain it is in (`example.com`
    /// and `.example.com` both cover `git.example.com`); entries are separated by commas or spaces.
    func bypassesProxy(host: String) -> Bool {
        guard let list = [environment["no_proxy"], environment["NO_PROXY"]].compactMap({ $0 }).first(where: { !$0.isEmpty }) else { return false }
        let bare = host.trimmingPrefix("[").lowercased()
        let host = bare.hasSuffix("]") ? String(bare.dropLast()) : bare
        for item in list.split(whereSeparator: { $0 == "," || $0 == " " }) {
            var name = item.lowercased()
            if name == "*" { return true }
            while name.hasPrefix(".") { name.removeFirst() }
            if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
            if !name.isEmpty, host == name || host.hasSuffix("." + name) { return true }
        }
        return false
    }
}
