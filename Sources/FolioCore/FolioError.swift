import Foundation

/// A Folio failure with its context: what failed, on which file or object, and why.
public enum FolioError: Error, CustomStringConvertible, LocalizedError, Equatable {
    /// A file Folio read is malformed: path and problem (with line and column when known).
    case invalidFile(String, String)
    /// A path is not a Folio document.
    case notADocument(String, String)
    /// A revision could not be resolved in a document.
    case unknownRevision(String, String)
    /// A destination that must not exist already does.
    case alreadyExists(String)
    /// A file is not in a version of a document.
    case fileNotFound(String, String)
    /// A request that is well-formed but cannot be done, with the reason.
    case invalidRequest(String)
    /// Another writer kept the document busy for too long.
    case busy(String)
    /// An environment variable holds a value Folio refuses: the variable and the problem.
    case invalidEnvironment(String, String)

    public var description: String {
        switch self {
        case let .invalidFile(path, problem): return "\(path): \(problem)"
        case let .notADocument(path, why): return "\(path): not a Folio document (\(why))"
        case let .unknownRevision(rev, path): return "\(path): unknown version '\(rev)'"
        case let .alreadyExists(path): return "\(path): already exists"
        case let .fileNotFound(file, where_): return "\(file): no such file in \(where_)"
        case let .invalidRequest(why): return why
        case let .busy(path): return "\(path): document is busy (another writer holds its lock)"
        case let .invalidEnvironment(variable, problem): return "\(variable): \(problem)"
        }
    }

    public var errorDescription: String? { description }
}
