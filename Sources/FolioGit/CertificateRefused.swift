import CGit2
import FoundationEssentials

/// A TLS server whose certificate the CA file the user named does not vouch for (http.sslCAInfo, GIT_SSL_CAINFO or
/// SSL_CERT_FILE): which server, which file, and what was wrong.
public struct CertificateRefused: Error, CustomStringConvertible, Sendable, Equatable {
    /// The URL asked for (shown redacted).
    public let url: String
    public let host: String
    public let caFile: String
    /// What the check found, in Folio's words.
    public let problem: String

    public var description: String {
        "\(RemoteURL.redacted(url)): the certificate of \(host) was refused: \(problem) (checked against \(caFile), "
            + "from http.sslCAInfo, GIT_SSL_CAINFO or SSL_CERT_FILE)"
    }

    /// Checks the server certificate `der` (libgit2's `git_cert_x509`) for `host` against `caFile`; nil when it is
    /// signed by a certificate there and names `host`, else why not.
    ///
    /// Only the server's own certificate is at hand (libgit2 passes no chain), so an intermediate CA must be in the
    /// file beside its root. This check is per transfer: libgit2's `GIT_OPT_SET_SSL_CERT_LOCATIONS` would replace the
    /// CA bundle of every transfer in the process, other documents' and other environments' included.
    static func problem(der: UnsafeRawBufferPointer, host: String, caFile: String) -> String? {
        guard let base = der.baseAddress?.assumingMemoryBound(to: UInt8.self), !der.isEmpty else { return "the server sent no certificate" }
        var flags: UInt32 = 0
        let result = folio_tls_verify_with_ca_file(base, der.count, caFile, host, &flags)
        switch result {
        case 0: return nil
        case -1: return "the server's certificate could not be read"
        case -2: return "the CA file holds no readable certificate"
        default: return describe(flags: flags)
        }
    }

    /// mbedTLS's verification flags in words.
    private static func describe(flags: UInt32) -> String {
        let names: [(UInt32, String)] = [(UInt32(MBEDTLS_X509_BADCERT_NOT_TRUSTED), "not signed by a CA in the file"),
                                         (UInt32(MBEDTLS_X509_BADCERT_CN_MISMATCH), "it does not name this host"),
                                         (UInt32(MBEDTLS_X509_BADCERT_EXPIRED), "it has expired"),
                                         (UInt32(MBEDTLS_X509_BADCERT_FUTURE), "it is not valid yet"),
                                         (UInt32(MBEDTLS_X509_BADCERT_REVOKED), "it is revoked")]
        let found = names.filter { flags & $0.0 != 0 }.map(\.1)
        return found.isEmpty ? "it could not be verified" : found.joined(separator: "; ")
    }
}
