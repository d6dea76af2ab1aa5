import CGit2
import CGitCertificates

extension GitLibrary {
    /// Has libgit2 parse the system CA certificates that its start-up put off, once per process, before anything
    /// connects. Every remote operation calls it first (`Repository.withRemote`), so no TLS handshake runs before
    /// the certificates are in place or while they are being replaced. Only `folio` defers them (it links libgit2
    /// with `--wrap=mbedtls_x509_crt_parse_file`, see `CGitCertificates`); elsewhere this does nothing.
    ///
    /// When the bundle cannot be parsed, libgit2 keeps an empty chain, as its own start-up would have: every HTTPS
    /// server then fails verification (never the reverse).
    public static func loadCertificatesIfDeferred() {
        _ = certificatesLoaded
    }

    /// How many CA certificates the deferred parse loaded (0 when nothing was deferred or it has not run yet).
    static var loadedCertificateCount: Int { Int(folio_certificates_loaded_count()) }

    private static let certificatesLoaded: Bool = {
        ensureInitialized()
        guard let path = folio_certificates_deferred_path() else { return false }
        let code = folio_git_set_ssl_cert_file(path)
        PhaseTrace.mark("CA certificates loaded (\(loadedCertificateCount), code \(code))")
        return code == 0
    }()
}
