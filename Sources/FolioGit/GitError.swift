import CGit2
import Foundation

/// A libgit2 failure: what Folio was doing, on which object or path, libgit2's code and its message.
public struct GitError: Error, CustomStringConvertible, LocalizedError, Sendable {
    /// libgit2's return code (`GIT_ENOTFOUND`, `GIT_EMODIFIED`, …).
    public let code: Int32
    /// libgit2's error class (`GIT_ERROR_REFERENCE`, …), or 0.
    public let errorClass: Int32
    /// What Folio was doing, e.g. "open repository".
    public let operation: String
    /// The path, ref or object the operation was about, if any.
    public let subject: String?
    /// libgit2's own message.
    public let message: String

    public var description: String {
        let prefix = subject.map { "\($0): " } ?? ""
        return "\(prefix)\(operation) failed: \(message)"
    }
    public var errorDescription: String? { description }

    public var isNotFound: Bool { code == GIT_ENOTFOUND.rawValue }
    public var isModified: Bool { code == GIT_EMODIFIED.rawValue }
    public var isLocked: Bool { code == GIT_ELOCKED.rawValue }
    public var isExists: Bool { code == GIT_EEXISTS.rawValue }
    public var isAmbiguous: Bool { code == GIT_EAMBIGUOUS.rawValue }

    /// An error raised by Folio itself, not libgit2, in the same shape.
    public init(code: Int32 = -1, operation: String, subject: String? = nil, message: String) {
        self.code = code
        self.errorClass = 0
        self.operation = operation
        self.subject = subject
        self.message = message
    }

    fileprivate init(code: Int32, operation: String, subject: String?) {
        self.code = code
        if let last = git_error_last(), let text = last.pointee.message {
            self.errorClass = last.pointee.klass
            self.message = String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
        } else {
            self.errorClass = 0
            self.message = "libgit2 error \(code)"
        }
        self.operation = operation
        self.subject = subject
    }
}

/// The one place every libgit2 return code goes through: negative codes become a `GitError` built from `git_error_last()`.
@discardableResult
@inline(__always)
func check(_ code: Int32, _ operation: @autoclosure () -> String, _ subject: @autoclosure () -> String? = nil) throws -> Int32 {
    if code < 0 { throw GitError(code: code, operation: operation(), subject: subject()) }
    return code
}

/// Process-wide libgit2 set-up, done once before any handle is created.
public enum GitLibrary {
    private static let initialized: Bool = {
        git_libgit2_init()
        // Folio refers only to objects it has just written or read (a change's blob, tree and commit; a fetched
        // commit), so libgit2's check that each one exists would re-read it from disk four times per change.
        // Revisions typed by users are resolved (and so proven to exist) before anything refers to them.
        _ = folio_git_set_strict_object_creation(0)
        return true
    }()

    /// Initializes libgit2 (idempotent).
    public static func ensureInitialized() { _ = initialized }

    /// Turns fsync of objects, refs and the index on or off for the whole process.
    public static func setFsync(_ enabled: Bool) {
        ensureInitialized()
        _ = folio_git_set_fsync_gitdir(enabled ? 1 : 0)
    }

    /// Turns libgit2's object cache on or off for the whole process.
    public static func setCaching(_ enabled: Bool) {
        ensureInitialized()
        _ = folio_git_set_caching(enabled ? 1 : 0)
    }

    /// Points libgit2's global, XDG and system config search at the folders `environment` names (HOME,
    /// XDG_CONFIG_HOME, GIT_CONFIG_NOSYSTEM), so that an embedding program or a test with its own environment
    /// reads the same git config the git CLI would with that environment.
    public static func configureConfigSearch(environment: [String: String]) {
        ensureInitialized()
        if let home = environment["HOME"] { _ = folio_git_set_search_path(Int32(GIT_CONFIG_LEVEL_GLOBAL.rawValue), home) }
        let xdg = environment["XDG_CONFIG_HOME"].map { $0 + "/git" } ?? environment["HOME"].map { $0 + "/.config/git" }
        if let xdg { _ = folio_git_set_search_path(Int32(GIT_CONFIG_LEVEL_XDG.rawValue), xdg) }
        if let flag = environment["GIT_CONFIG_NOSYSTEM"], flag == "1" || flag == "true" {
            _ = folio_git_set_search_path(Int32(GIT_CONFIG_LEVEL_SYSTEM.rawValue), "")
        }
    }
}
