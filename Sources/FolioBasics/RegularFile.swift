import Glibc

/// Reads a file the way Folio reads templates and its own configuration: with open (`O_NONBLOCK`), fstat and read(2),
/// refusing anything that is not a regular file (a FIFO would block, a folder or device has nothing to read) and
/// anything larger than a cap, so a bad path gives one line naming the file and the real cause.
public enum RegularFile {
    /// 64 MiB: the largest template, partial or data file read.
    public static let defaultMaxBytes = 64 << 20

    /// Why a file could not be read.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// open(2) failed: the errno.
        case cannotOpen(Int32)
        /// Not a regular file: what it is instead ("a directory", "a FIFO (named pipe)", …).
        case notRegular(String)
        /// Larger than the cap (bytes).
        case tooLarge(Int)
        /// read(2) failed: the errno.
        case cannotRead(Int32)

        public var description: String {
            switch self {
            case .cannotOpen(let code): return String(cString: strerror(code)).lowercasedFirst
            case .notRegular(let kind): return "it is \(kind), not a regular file"
            case .tooLarge(let cap): return "it is larger than \(cap) bytes"
            case .cannotRead(let code): return "read failed: " + String(cString: strerror(code)).lowercasedFirst
            }
        }
    }

    /// The bytes of the regular file at `path`, at most `maxBytes` of them.
    public static func read(_ path: String, maxBytes: Int = defaultMaxBytes) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw .cannotOpen(errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .cannotRead(errno) }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else { throw .notRegular(describe(kind)) }
        guard info.st_size <= maxBytes else { throw .tooLarge(maxBytes) }
        return try readAll(fd, maxBytes: maxBytes)
    }

    /// Reads until end of file; a file that grew past `maxBytes` meanwhile is refused.
    private static func readAll(_ fd: Int32, maxBytes: Int) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(errno)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > maxBytes { throw .tooLarge(maxBytes) }
        }
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
}

extension String {
    /// The string with its first letter in lower case ("No such file" → "no such file").
    package var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}
