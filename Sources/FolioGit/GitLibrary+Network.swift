import CGit2
import CGitNetworkStart

extension GitLibrary {
    /// Starts libgit2's TLS and SSH support if `git_libgit2_init` put them off, once per process, before anything
    /// connects: every remote operation calls it first (`Repository.withRemote`). Only `folio` puts them off (it
    /// links libgit2 with `--wrap` on their start functions, see `CGitNetworkStart`); elsewhere this does nothing.
    /// Opening a TLS stream or an SSH session starts them too, so no path can connect before they have started.
    ///
    /// Throws when the start fails (mbedTLS could not seed its random generator, libssh2 could not start); every later
    /// call throws the same, as libgit2's own start-up failing would have refused every remote operation.
    public static func startNetworkIfDeferred() throws {
        ensureInitialized()
        let code = folio_git_start_network()
        PhaseTrace.mark("TLS and SSH started (code \(code))")
        try check(code, "start TLS and SSH")
    }

    /// Whether TLS and SSH have started in this process (always true where nothing is put off).
    static var networkStarted: Bool { folio_git_network_started() != 0 }
}
