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
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw FolioError.unreadableFile(path: path, reason: reason(errno))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FolioError.unreadableFile(path: path, reason: reason(errno)) }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else { throw FolioError.unreadableFile(path: path, reason: "it is \(describe(kind)), not a regular file") }
        guard info.st_size <= maxBytes else { throw FolioError.unreadableFile(path: path, reason: "it is larger than \(maxBytes >> 20) MiB") }
        return try readAll(fd, path: path, maxBytes: maxBytes)
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

    /// What a file type is, for errors: "a directory", "a FIFO (named pipe)", …
    public static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        default: return "not a plain file"
        }
    }

    private static func reason(_ code: Int32) -> String {
        code == ENOTDIR ? "a folder on its path is not a folder" : String(cString: strerror(code)).lowercased()
    }

    /// Reads to the end; a file that grew past `maxBytes` meanwhile is refused.
    private static func readAll(_ fd: Int32, path: String, maxBytes: Int) throws -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FolioError.unreadableFile(path: path, reason: "read failed: " + reason(errno))
            }
            if count == 0 { return data }
            data.append(contentsOf: chunk[0..<count])
            if data.count > maxBytes { throw FolioError.unreadableFile(path: path, reason: "it is larger than \(maxBytes >> 20) MiB") }
        }
    }
}
