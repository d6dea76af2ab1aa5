import FoundationEssentials
import FolioBasics
import Glibc

/// The one way Folio reads its own configuration and state files (settings.json, launch.json, recent.json, scene
/// state, trusted template sources, the plugin quarantine, the plugin lock, the manifest cache): open with
/// `O_NONBLOCK` and `fstat` the open file, so that a folder, a FIFO, a device or a socket in a file's place is an
/// error naming it — never a hang on a FIFO, never silently read as "no file".
public enum ConfigFile {
    /// 16 MiB: larger than any file Folio writes for itself; a bigger one is refused unread.
    public static let defaultMaxBytes = 16 << 20

    /// The bytes of the regular file at `url`; nil when nothing is there (`ENOENT`). Anything else in its place, a
    /// file that cannot be opened or read, or one over `maxBytes` throws `FolioError.unreadableFile` naming it.
    public static func read(_ url: URL, maxBytes: Int = defaultMaxBytes) throws -> Data? {
        try read(atPath: url.path, maxBytes: maxBytes)
    }

    /// `read(_:maxBytes:)` for a file-system path.
    public static func read(atPath path: String, maxBytes: Int = defaultMaxBytes) throws -> Data? {
        do throws(RegularFile.Failure) {
            return Data(try RegularFile.read(path, maxBytes: maxBytes))
        } catch .cannotOpen(ENOENT) {
            return nil
        } catch {
            throw FolioError.unreadableFile(path: path, reason: reason(error, maxBytes: maxBytes))
        }
    }

    /// Renames the file (or whatever is) at `url` to `<name>.damaged-<UTC time>` beside it, so that a damaged state
    /// file is kept for the user while a new one replaces it; returns the new location.
    public static func setAside(_ url: URL, now: Date = Date()) throws -> URL {
        let stamp = ISO8601Seconds.format(now).replacing("-", with: "").replacing(":", with: "")
        let base = url.path + ".damaged-" + stamp
        var target = base
        var counter = 1
        var info = stat()
        while lstat(target, &info) == 0 {
            counter += 1
            target = base + "-\(counter)"
        }
        guard rename(url.path, target) == 0 else { throw POSIXFailure(operation: "rename", path: url.path) }
        return URL(fileURLWithPath: target)
    }

    /// The reason given for `failure`, in the words of Folio's configuration errors.
    private static func reason(_ failure: RegularFile.Failure, maxBytes: Int) -> String {
        switch failure {
        case let .cannotOpen(code): return reason(code)
        case let .notRegular(kind): return "it is \(kind), not a regular file"
        case .tooLarge: return "it is larger than \(maxBytes >> 20) MiB"
        case let .cannotRead(code): return "read failed: " + reason(code)
        }
    }

    private static func reason(_ code: Int32) -> String {
        code == ENOTDIR ? "a folder on its path is not a folder" : String(cString: strerror(code)).lowercased()
    }
}
