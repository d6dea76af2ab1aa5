import FoundationEssentials
import Glibc
import FolioTerminal
import FolioCore
import Synchronization

/// The process's standard descriptors and raw arguments, checked before anything else runs.
public enum StandardStreams {
    /// The descriptors among 0, 1 and 2 that were closed when the process started (bit `fd` set), so that reading
    /// standard input that was closed is an error rather than the empty content of the `/dev/null` put there.
    private static let closedAtStart = Atomic<UInt8>(0)

    /// Opens `/dev/null` on each of descriptors 0, 1 and 2 that is closed, and remembers which were.
    ///
    /// Run first: a closed descriptor is the lowest free number, so the next file opened (a document's lock, a blob)
    /// would take it, and whatever is printed or read "on standard output" would land in that file.
    public static func ensureOpen() {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            closedAtStart.bitwiseOr(UInt8(1) << UInt8(fd), ordering: .relaxed)
            let opened = open("/dev/null", O_RDWR)
            if opened >= 0, opened != fd {
                // Checked in order, the lowest free descriptor is `fd` itself; this is only a safeguard.
                _ = dup2(opened, fd)
                _ = close(opened)
            }
        }
    }

    /// Reads all of standard input; one that was closed when the process started is an error (nothing was given, which
    /// is not the same as empty content).
    static func readStandardInput() throws -> Data {
        if closedAtStart.load(ordering: .relaxed) & 1 != 0 { throw FolioError.unreadableInput(name: "standard input", problem: "is closed") }
        return try readAll(STDIN_FILENO)
    }

    /// Reads `fd` to its end with read(2); a directory, a write-only descriptor or a read error is a one-line error
    /// naming `name` (Foundation's FileHandle traps on these).
    public static func readAll(_ fd: Int32, name: String = "standard input") throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count == 0 {
                return data
            } else if errno != EINTR {
                throw FolioError.unreadableInput(name: name, problem: readProblem(errno))
            }
        }
    }

    /// Writes `text` to standard error with write(2); a failed write (a hung-up terminal) is ignored, where
    /// `FileHandle.standardError.write` would trap.
    static func writeError(_ text: String) {
        var text = text
        text.withUTF8 { _ = AtomicFile.writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
    }

    static func readProblem(_ code: Int32) -> String {
        switch code {
        case EISDIR: return "is a directory"
        case EBADF: return "is not open for reading"
        default: return String(cString: strerror(code)).lowercased()
        }
    }

    /// The command-line arguments (without the program name) as given, refusing any that is not valid UTF-8
    /// (Swift's `CommandLine.arguments` silently replaces such bytes with U+FFFD).
    public static func arguments() throws -> [String] {
        var result: [String] = []
        for index in stride(from: 1, to: Int(CommandLine.argc), by: 1) {  // argc may be 0
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            guard let text = String(validatingCString: pointer) else {
                throw UsageError("argument \(index) is not valid UTF-8: '\(escaped(pointer))'")
            }
            result.append(text)
        }
        return result
    }

    /// The bytes of a C string shown as text: invalid UTF-8 and control bytes as visible escapes (`\xE9`, `\e`).
    static func escaped(_ pointer: UnsafePointer<CChar>) -> String {
        // Int8 and UInt8 may alias: the same bytes read unsigned, as LogOutput reads commit messages.
        TerminalText.visible(utf8: UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
    }
}

/// Checks on the path given to `folio new`.
enum NewDocumentPath {
    /// Refuses a path whose last part is `.` or `..` (it names a folder that exists, or its parent), or that has a
    /// `.git` part in any letter case (a document there would sit inside, or be, a repository's own folder).
    static func check(_ path: String) throws {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard let last = parts.last, last != ".", last != ".." else {
            throw FolioError.invalidDocumentPath(path: path, problem: .noName)
        }
        if parts.contains(where: { $0.lowercased() == ".git" }) {
            throw FolioError.invalidDocumentPath(path: path, problem: .gitFolder)
        }
    }
}

/// Checks on files and folders named on the command line, before a library reads them.
enum InputFiles {
    /// Refuses a data file that is a directory, or a regular file that is not JSON Folio accepts (lone surrogates,
    /// duplicate keys, invalid UTF-8…), naming the file with line and column. Pipes and devices are left to the reader
    /// (they can be read only once).
    static func checkJSON(_ url: URL) throws {
        var info = stat()
        guard stat(url.path, &info) == 0 else { throw FolioError.unreadableInput(name: url.path, problem: String(cString: strerror(errno)).lowercased()) }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: throw FolioError.unreadableInput(name: url.path, problem: "is a directory, not a JSON file")
        case S_IFREG:
            let fd = open(url.path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw FolioError.unreadableInput(name: url.path, problem: String(cString: strerror(errno)).lowercased()) }
            defer { close(fd) }
            let data = try StandardStreams.readAll(fd, name: url.path)
            do { _ = try JSONNode.parse(data) } catch { throw FolioError.invalidFile(path: url.path, problem: JSONKeys.describe(error)) }
        default: return
        }
    }
}
