import FolioConfinement
import FolioPluginWire
#if canImport(Glibc)
import Glibc
#endif

/// The plugin host's confinement: applied once the plugin library and its runtime are loaded and before the plugin's
/// first call, for the rest of the process's life. The plugin gets its document over the wire and returns its answers
/// there, so it is granted no file, no new socket, no program, no process and no other process; what it is refused
/// fails with EPERM, and each refusal is written on `HostWire.refusalFD` for Folio to name (and to the host's log).
/// A Swift plugin needs no file after its load: the runtime's libraries are loaded with it (lazily bound symbols
/// resolve in memory), so no folder is left readable.
enum HostConfinement {
    /// The policy for a plugin: nothing readable and no connection beyond `grant`, refusals reported to Folio (when it
    /// gave the descriptor) and logged.
    static func policy(_ grant: PluginGrant = PluginGrant()) -> ConfinementPolicy {
        var info = stat()
        let reporting = fstat(HostWire.refusalFD, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
        return ConfinementPolicy(readableFolders: grant.readablePaths, connectPorts: grant.connectPorts,
                                 refusalDescriptor: reporting ? HostWire.refusalFD : nil, logsRefusals: true)
    }

    /// Confines this process after `library` was loaded, granting `grant` where the kernel can hold the plugin to it;
    /// returns what is in force (one line, for Folio). A plugin that started threads while loading is refused: they
    /// would run unconfined.
    static func confine(library: String, grant: PluginGrant = PluginGrant()) throws(HostRefusal) -> String {
        do {
            return try Confinement.apply(policy(grant)).description
        } catch {
            throw HostRefusal(file: library, reason: "it started threads while loading (\(error.threads) threads), which a plugin must not: they could not be confined")
        }
    }

    /// `folio-plugin-host --confinement [GRANT]`: confines this process as a plugin's host granted `grant` (a
    /// `PluginGrant`'s text) and prints what is in force (one line).
    static func printReport(grant: String) -> Int32 {
        let line: String
        if let grant = PluginGrant(decoding: Array(grant.utf8)) {
            do { line = try Confinement.apply(policy(grant)).description } catch { line = "none (\(error))" }
        } else {
            line = "none (a malformed grant)"
        }
        let text = line + "\n"
        _ = text.withCString { write(1, $0, strlen($0)) }
        return 0
    }
}
