import FoundationEssentials
import Glibc
import FolioCore

/// Why a kept conflict cannot be settled with the choices given; nothing was written.
public enum SettleError: Error, CustomStringConvertible, LocalizedError, Equatable {
    /// Conflicting items (or files, keyed by path) without a choice (document path, conflict ref, the keys).
    case missingChoices(document: String, ref: String, keys: [String])
    /// Choices naming no conflicting item or file (document path, conflict ref, the keys, the keys that conflict).
    case unknownKeys(document: String, ref: String, keys: [String], known: [String])
    /// `both` chosen for a file settled whole (document path, the file).
    case bothForWholeFile(document: String, path: String)
    /// The editor's result did not come out as chosen (document path, editor, the item's key or nil for the whole
    /// primary file, why).
    case editorCouldNotSettle(document: String, editor: String, item: String?, why: String)

    public var description: String {
        switch self {
        case let .missingChoices(path, ref, keys):
            return "\(path): no choice for \(Self.list(keys)) of conflict \(Self.short(ref)); nothing was written"
        case let .unknownKeys(path, ref, keys, known):
            let conflicting = known.isEmpty ? "nothing conflicts item by item" : "the conflicting ones are \(Self.list(known))"
            return "\(path): \(Self.list(keys)) \(keys.count == 1 ? "is" : "are") not in conflict \(Self.short(ref)) (\(conflicting)); nothing was written"
        case let .bothForWholeFile(path, file):
            return "\(path): '\(file)' is settled as a whole file, so it takes mine or theirs, not both; nothing was written"
        case let .editorCouldNotSettle(path, editor, item?, why):
            return "\(path): editor '\(editor)' could not settle item \(item) that way (\(why)); nothing was written"
        case let .editorCouldNotSettle(path, editor, nil, why):
            return "\(path): editor '\(editor)' could not combine the two versions with these choices (\(why)); nothing was written"
        }
    }

    public var errorDescription: String? { description }

    /// `'3'`, `'3', '5'`, `6 keys ('3' … '9')`.
    static func list(_ keys: [String]) -> String {
        let quoted = keys.map { "'\($0)'" }
        switch quoted.count {
        case 0: return "nothing"
        case 1...4: return quoted.joined(separator: ", ")
        default: return "\(quoted.count) keys (\(quoted.prefix(3).joined(separator: ", ")), …)"
        }
    }

    static func short(_ ref: String) -> String {
        ref.hasPrefix(Document.conflictRefPrefix) ? String(ref.dropFirst(Document.conflictRefPrefix.count)) : ref
    }
}
