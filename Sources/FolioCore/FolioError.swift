import FoundationEssentials
import Glibc
import FolioGit

/// A Folio failure with its context: what failed, on which file or object, and why. Each case is something a caller
/// can act on differently; `description` is one line naming the file or object and the cause, and never suggests a
/// command-line option (the CLI adds its own hints by matching on the case).
public enum FolioError: Error, CustomStringConvertible, LocalizedError, Equatable {
    /// A file Folio read is malformed: what is wrong with its content (with line and column when known).
    case invalidFile(path: String, problem: String)
    /// A file could not be read at all: the cause (no such file, a folder, no permission…).
    case unreadableFile(path: String, reason: String)
    /// An input given on the command line (standard input, or a file named to be read) could not be read: what
    /// stopped it (closed, a folder, a read error), said as it is (`standard input: is closed`).
    case unreadableInput(name: String, problem: String)
    /// A path is not a Folio document.
    case notADocument(path: String, why: String)
    /// A revision could not be resolved in a document.
    case unknownRevision(revision: String, document: String)
    /// A short version id matches more than one version of the document: the revision and the document's path.
    case ambiguousRevision(revision: String, document: String)
    /// A destination that must not exist already does.
    case alreadyExists(String)
    /// The folder a new document is to be created or cloned in does not exist (the folder's path).
    case missingFolder(String)
    /// A path that must be an existing folder (one to look in) is not one.
    case notAFolder(String)
    /// A path given for a document, or for a file inside one, is refused: the path and why.
    case invalidDocumentPath(path: String, problem: DocumentPathProblem)
    /// A file is not in a version of a document.
    case fileNotFound(file: String, location: String)
    /// The document (path) has no change left to undo.
    case nothingToUndo(document: String)
    /// The document (path) has no undone change to redo.
    case nothingToRedo(document: String)
    /// A request would change nothing: why (for example, the version asked for is the current one).
    case noChange(String)
    /// A version name (tag) is not allowed: the name.
    case invalidVersionName(String)
    /// The document already has a version with this name: the name and the document's path.
    case versionExists(name: String, document: String)
    /// The document (path) was not made from a template, so there is nothing to update or replay.
    case notFromTemplate(document: String)
    /// No template source has this name in the settings.
    case unknownTemplateSource(String)
    /// A template source with this name is already configured.
    case templateSourceExists(String)
    /// Input ended before the question (a template variable's name) was answered.
    case inputEnded(question: String)
    /// Another writer kept the document busy for too long.
    case busy(String)
    /// An environment variable holds a value Folio refuses: the variable and the problem.
    case invalidEnvironment(variable: String, problem: String)
    /// A version refused before it became current or reached the work tree (document path, the object and rule).
    case refusedVersion(document: String, refused: RefusedObject)

    public var description: String {
        switch self {
        case let .invalidFile(path, problem): return "\(path): \(problem)"
        case let .unreadableFile(path, reason): return "\(path): cannot read the file (\(reason))"
        case let .unreadableInput(name, problem): return "\(name): \(problem)"
        case let .notADocument(path, why): return "\(path): not a Folio document (\(why))"
        case let .unknownRevision(rev, path): return "\(path): unknown version '\(rev)'"
        case let .ambiguousRevision(rev, path): return "\(path): version '\(rev)' is ambiguous; give more digits"
        case let .alreadyExists(path): return "\(path): already exists"
        case let .missingFolder(path): return "\(path): the folder to put the document in does not exist"
        case let .notAFolder(path): return "\(path): no such folder"
        case let .invalidDocumentPath(path, problem): return "'\(path)': \(problem)"
        case let .fileNotFound(file, location): return "\(file): no such file in \(location)"
        case let .nothingToUndo(path): return "\(path): nothing to undo"
        case let .nothingToRedo(path): return "\(path): nothing to redo"
        case let .noChange(why): return "no change: \(why)"
        case let .invalidVersionName(name):
            return "'\(GitNames.shown(name))' is not a valid version name: \(Document.versionNameProblem(name) ?? "git does not allow it")"
        case let .versionExists(name, path): return "\(path): a version named '\(name)' already exists"
        case let .notFromTemplate(path): return "\(path): was not made from a template; nothing to update or replay"
        case let .unknownTemplateSource(name): return "no template source named '\(name)'"
        case let .templateSourceExists(name): return "a template source named '\(name)' already exists (remove it first)"
        case let .inputEnded(question): return "no answer for '\(question)': standard input ended"
        case let .busy(path): return "\(path): document is busy (another writer holds its lock)"
        case let .invalidEnvironment(variable, problem): return "\(variable): \(problem)"
        case let .refusedVersion(path, refused): return "\(path): refused \(refused); nothing was changed"
        }
    }

    public var errorDescription: String? { description }

    /// An `unreadableFile` error for `path`, with the cause found by looking at it (missing, a folder, no permission).
    public static func unreadable(_ path: String) -> FolioError {
        var info = stat()
        guard stat(path, &info) == 0 else { return .unreadableFile(path: path, reason: String(cString: strerror(errno))) }
        if (info.st_mode & S_IFMT) == S_IFDIR { return .unreadableFile(path: path, reason: "it is a folder") }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .unreadableFile(path: path, reason: String(cString: strerror(errno))) }
        close(fd)
        return .unreadableFile(path: path, reason: "reading it failed")
    }
}

/// Why a path for a document, or for a file inside a document, is refused.
public enum DocumentPathProblem: Sendable, Equatable, CustomStringConvertible {
    /// A document named `.git` or inside a `.git` folder (any letter case).
    case gitFolder
    /// A new document's path names no new folder (`.`, `..` or nothing).
    case noName
    /// A file path holds a backslash or NUL.
    case forbiddenCharacter
    /// A file path is absolute or has `.`, `..` or empty parts.
    case notRelative
    /// A file path goes into `.git` (any letter case).
    case insideGit
    /// A file path goes into `.folio`, which Folio manages itself.
    case folioFolder
    /// A new document would be inside the document at this path (a document never holds another repository).
    case insideDocument(String)

    public var description: String {
        switch self {
        case .gitFolder: return "a document cannot be named .git or be made inside a .git folder"
        case .noName: return "a new document needs a name, not '.', '..' or nothing"
        case .forbiddenCharacter: return "backslashes and NUL are not allowed in document paths"
        case .notRelative: return "a file in a document must be a relative path without '.', '..' or empty parts"
        case .insideGit: return "files inside .git cannot be written"
        case .folioFolder: return ".folio is managed by Folio"
        case let .insideDocument(outer): return "it would be inside the document \(outer); a document cannot be made inside another"
        }
    }
}
