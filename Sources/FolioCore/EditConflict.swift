import FoundationEssentials
import Glibc

/// A command made on a version of the document that has changed since, whose change cannot be combined with the
/// newer one. Nothing was written.
public struct EditConflict: Error, CustomStringConvertible, Equatable {
    /// The command ("rename").
    public let command: String
    /// What conflicts, one line each (from the editor's merge, or the text merge's summary).
    public let conflicts: [String]
    public init(command: String, conflicts: [String]) { self.command = command; self.conflicts = conflicts }
    public var description: String {
        let what = conflicts.isEmpty ? "" : " (" + conflicts.prefix(3).joined(separator: "; ") + (conflicts.count > 3 ? "; …" : "") + ")"
        return "'\(command)' conflicts with a change made to the document since it was shown\(what); nothing was changed"
    }
}
