import FoundationEssentials
import Glibc

/// A file-system call Folio made itself (not libgit2) failed on a repository's files: what it was doing, the path,
/// and the cause (errno's text). Shown as a libgit2 failure is (`path: operation failed: reason`).
public struct FileSystemError: Error, CustomStringConvertible, LocalizedError, Sendable, Equatable {
    /// What Folio was doing, e.g. "fsync" or "remove broken ref refs/heads/main".
    public let operation: String
    /// The file or folder (or the repository) it was about.
    public let path: String
    /// Why it failed.
    public let reason: String

    /// The failure of `operation` on `path` with the current `errno`'s text.
    static func errno(_ operation: String, path: String, step: String? = nil) -> FileSystemError {
        let text = String(cString: strerror(Glibc.errno))
        return FileSystemError(operation: operation, path: path, reason: step.map { "\($0): \(text)" } ?? text)
    }

    public var description: String { "\(path): \(operation) failed: \(reason)" }
    public var errorDescription: String? { description }
}
