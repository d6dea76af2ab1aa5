import FoundationEssentials
import Glibc

/// Why a document's work tree cannot take a change, or why writing into it failed. Every case names the path the
/// user sees (the document's folder joined with the file) and the cause, on one line.
public enum WorkTreeError: Error, CustomStringConvertible, LocalizedError, Equatable {
    /// A part of the path is longer than file names may be (`NAME_MAX`, 255 bytes).
    case nameTooLong(path: String, name: String, bytes: Int)
    /// The whole path is longer than paths may be (`PATH_MAX`, 4096 bytes with the terminating NUL).
    case pathTooLong(path: String, bytes: Int)
    /// A folder on the way to `path` is a file in the work tree (or in the same change).
    case notAFolder(path: String, file: String)
    /// `path` is a folder in the work tree, where a file is to be written.
    case isAFolder(path: String)
    /// A folder on the way to `path` is a symbolic link; Folio never writes through one.
    case linkInPath(path: String, link: String)
    /// A system call on the work tree failed: which path, what was done, and errno.
    case systemCallFailed(path: String, operation: String, code: Int32)
    /// The change could not be stored in the document's history (the object store failed).
    case storeFailed(path: String, cause: String)
    /// The work tree does not show the current version: these files are out of date (paths relative to the
    /// document), for `cause`. Nothing is lost: the history has every change.
    case outOfDate(document: String, files: [String], cause: String)
    /// The document's git folder is not a plain folder inside it (a link or a `gitdir:` file pointing elsewhere).
    case redirectedGitFolder(document: String, what: String)
    /// Folio's own folder `.git/folio` or its lock cannot be used.
    case lockUnavailable(path: String, cause: String)
    /// A part of the path starts with `.folio-tmp-`, which Folio reserves for its temporary files.
    case reservedName(path: String, name: String)

    public var description: String {
        switch self {
        case let .nameTooLong(path, name, bytes):
            return "\(path): the name '\(Self.abbreviate(name))' is \(bytes) bytes long; file names can have at most \(WorkTree.nameMax) bytes"
        case let .pathTooLong(path, bytes):
            return "\(Self.abbreviate(path)): the path is \(bytes) bytes long; paths can have at most \(WorkTree.pathMax - 1) bytes"
        case let .notAFolder(path, file):
            return "\(path): cannot be written because '\(file)' is a file, not a folder"
        case let .isAFolder(path):
            return "\(path): cannot be written because it is a folder"
        case let .linkInPath(path, link):
            return "\(path): cannot be written because '\(link)' is a symbolic link (Folio does not write through links)"
        case let .systemCallFailed(path, operation, code):
            return "\(path): \(operation) failed (\(String(cString: strerror(code))))"
        case let .storeFailed(path, cause):
            return "\(path): the change could not be saved (\(cause))"
        case let .outOfDate(document, files, cause):
            return "\(document): work tree out of date: \(Self.list(files)) (\(cause))"
        case let .redirectedGitFolder(document, what):
            return "\(document): not used as a Folio document: \(what)"
        case let .lockUnavailable(path, cause):
            return "\(path): cannot lock the document (\(cause))"
        case let .reservedName(path, name):
            return "\(path): the name '\(Self.abbreviate(name))' is reserved: names starting with '\(WorkTree.temporaryPrefix)' are Folio's temporary files"
        }
    }

    public var errorDescription: String? { description }

    /// The same error with paths under `old` reported under `new` (a document built in a staging folder).
    func replacingRoot(_ old: String, with new: String) -> WorkTreeError {
        func fix(_ path: String) -> String { path.hasPrefix(old) ? new + path.dropFirst(old.count) : path }
        switch self {
        case let .nameTooLong(path, name, bytes): return .nameTooLong(path: fix(path), name: name, bytes: bytes)
        case let .pathTooLong(path, bytes): return .pathTooLong(path: fix(path), bytes: bytes)
        case let .notAFolder(path, file): return .notAFolder(path: fix(path), file: file)
        case let .isAFolder(path): return .isAFolder(path: fix(path))
        case let .linkInPath(path, link): return .linkInPath(path: fix(path), link: link)
        case let .systemCallFailed(path, operation, code): return .systemCallFailed(path: fix(path), operation: operation, code: code)
        case let .storeFailed(path, cause): return .storeFailed(path: fix(path), cause: cause)
        case let .outOfDate(document, files, cause): return .outOfDate(document: fix(document), files: files, cause: cause)
        case let .redirectedGitFolder(document, what): return .redirectedGitFolder(document: fix(document), what: what)
        case let .lockUnavailable(path, cause): return .lockUnavailable(path: fix(path), cause: cause)
        case let .reservedName(path, name): return .reservedName(path: fix(path), name: name)
        }
    }

    /// The first files of a list, then how many more.
    static func list(_ files: [String]) -> String {
        files.count <= 5 ? files.joined(separator: ", ") : files.prefix(5).joined(separator: ", ") + " and \(files.count - 5) more"
    }

    /// A long name shortened for one line: its first 40 and last 20 characters.
    static func abbreviate(_ text: String) -> String {
        text.count <= 80 ? text : text.prefix(40) + "…" + text.suffix(20)
    }
}

/// Whether the work tree shows the document's current version. Encoded as `current`, `outOfDate` and `cause` (null
/// when current or unknown, never left out).
public struct WorkTreeStatus: Sendable, Equatable, Encodable {
    /// Files (relative to the document) whose work-tree content is not the current version's; empty when current.
    public let outOfDate: [String]
    /// Why the last attempt to write them failed (errno's message), when known.
    public let cause: String?

    /// True when the work tree shows the current version.
    public var isCurrent: Bool { outOfDate.isEmpty }

    public init(outOfDate: [String], cause: String?) {
        self.outOfDate = outOfDate
        self.cause = cause
    }

    public static let current = WorkTreeStatus(outOfDate: [], cause: nil)

    private enum CodingKeys: String, CodingKey { case current, outOfDate, cause }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(isCurrent, forKey: .current)
        try container.encode(outOfDate, forKey: .outOfDate)
        try container.encode(cause, forKey: .cause)
    }
}
