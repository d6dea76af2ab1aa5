import Foundation

/// A sync failure with its context, printed as one line.
public enum SyncError: Error, CustomStringConvertible, LocalizedError, Equatable {
    /// The document has no remote to use (path, and what to do).
    case noRemote(String)
    /// A remote name is not configured (document path, name).
    case unknownRemote(String, String)
    /// The work tree has changes not recorded as a version (document path, paths).
    case unrecordedChanges(String, [String])
    /// A push was refused (remote, reason).
    case pushRejected(String, String)
    /// A clone source is not a Folio document (URL, why).
    case notADocumentSource(String, String)
    /// A kept conflict ref does not exist (document path, ref).
    case unknownConflict(String, String)

    public var description: String {
        switch self {
        case let .noRemote(path):
            return "\(path): no remote to use; add one with 'folio remote \(path) add NAME URL'"
        case let .unknownRemote(path, name):
            return "\(path): no remote named '\(name)' (see 'folio remote \(path) list')"
        case let .unrecordedChanges(path, paths):
            let shown = paths.prefix(5).joined(separator: ", ") + (paths.count > 5 ? ", …" : "")
            return "\(path): unrecorded changes in \(shown); record them first with 'folio commit \(path)'"
        case let .pushRejected(remote, reason):
            return "push to \(remote) refused: \(reason)"
        case let .notADocumentSource(url, why):
            return "\(url): not a Folio document (\(why)); nothing was cloned"
        case let .unknownConflict(path, ref):
            return "\(path): no kept conflict '\(ref)' (see 'folio conflicts \(path)')"
        }
    }

    public var errorDescription: String? { description }
}
