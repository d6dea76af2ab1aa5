import CGit2

/// What a name is for: each kind is checked against the rule git applies to it.
public enum GitNameKind: Sendable, Equatable {
    /// A tag's short name (`v1.0`): `refs/tags/<name>` must be a valid ref name, and the tag object's own name too
    /// (`git fsck`'s `badTagName`).
    case tag
    /// A branch's short name (`main`): `refs/heads/<name>`.
    case branch
    /// A remote's name (`origin`): its refspec `refs/remotes/<name>/*` and its config section.
    case remote
}

/// Why git (or Folio, for names it shows) refuses a name.
public enum GitNameProblem: Sendable, Equatable, CustomStringConvertible {
    case empty
    /// Starts with `-` (it would read as an option).
    case startsWithDash
    /// Holds a control character (C0, DEL or C1) or a bidirectional-text control, which cannot be shown as typed.
    case controlCharacter
    /// Holds one of the characters git keeps for revision syntax: space `~ ^ : ? * [ \`.
    case forbiddenCharacter(Character)
    /// Starts or ends with `/`.
    case slashAtEdge
    /// Holds `//` (an empty part).
    case emptyPart
    /// Starts with `.`.
    case startsWithDot
    /// A part after a `/` starts with `.`.
    case partStartsWithDot
    /// Ends with `.lock`.
    case endsWithLock
    /// A part before a `/` ends with `.lock`.
    case partEndsWithLock
    /// Ends with `.`.
    case endsWithDot
    /// Holds `..`.
    case doubleDot
    /// Holds `@{`.
    case atBrace
    /// Holds a character outside the ones allowed for this kind of name (remotes: letters, digits, `-`, `_`, `.`).
    case notAllowed(Character)
    /// libgit2 refuses it for a reason not listed above.
    case refusedByGit

    public var description: String {
        switch self {
        case .empty: return "it is empty"
        case .startsWithDash: return "it cannot start with '-'"
        case .controlCharacter: return "it holds a control character"
        case let .forbiddenCharacter(character): return character == " " ? "it cannot hold spaces" : "it cannot hold '\(character)'"
        case .slashAtEdge: return "it cannot start or end with '/'"
        case .emptyPart: return "it cannot hold '//'"
        case .startsWithDot: return "it cannot start with '.'"
        case .partStartsWithDot: return "no part after a '/' can start with '.'"
        case .endsWithLock: return "it cannot end with '.lock'"
        case .partEndsWithLock: return "no part before a '/' can end with '.lock'"
        case .endsWithDot: return "it cannot end with '.'"
        case .doubleDot: return "it cannot hold '..'"
        case .atBrace: return "it cannot hold '@{'"
        case let .notAllowed(character): return "it cannot hold '\(GitNames.shown(String(character)))' (only letters, digits, '-', '_' and '.')"
        case .refusedByGit: return "git does not allow it"
        }
    }
}

/// git's rules for the names Folio writes into a repository, so that `git fsck --strict` never meets a name Folio
/// wrote: libgit2 decides (`git_tag_name_is_valid`, `git_branch_name_is_valid`, `git_remote_name_is_valid`), and the
/// rules of git's `check_refname_format` that libgit2 1.5 does not apply (it takes DEL, and normalizes `/x` and
/// `a//b` when writing instead of refusing them) are applied here, with a reason in words for each.
public enum GitNames {
    /// Why `name` cannot be used as a `kind` name, nil when git (and Folio) accept it.
    public static func problem(with name: String, as kind: GitNameKind) -> GitNameProblem? {
        if let problem = describedProblem(name, kind) { return problem }
        return acceptedByLibgit2(name, kind) ? nil : .refusedByGit
    }

    /// `name` with control characters and bidirectional-text controls written as `\u{…}`, for messages.
    public static func shown(_ name: String) -> String {
        var text = ""
        for scalar in name.unicodeScalars {
            if isControl(scalar) { text += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}" } else { text.unicodeScalars.append(scalar) }
        }
        return text
    }

    private static func acceptedByLibgit2(_ name: String, _ kind: GitNameKind) -> Bool {
        GitLibrary.ensureInitialized()
        var valid: Int32 = 0
        let code: Int32
        switch kind {
        case .tag: code = git_tag_name_is_valid(&valid, name)
        case .branch: code = git_branch_name_is_valid(&valid, name)
        case .remote: code = git_remote_name_is_valid(&valid, name)
        }
        // Only an allocation failure makes these fail; a name that cannot even be checked is not accepted.
        guard (try? check(code, "check name", name)) != nil else { return false }
        return valid == 1
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true  // bidirectional-text controls
        default: return false
        }
    }

    /// The first rule of git's `check_refname_format` (and Folio's, for names it shows) that `name` breaks.
    private static func describedProblem(_ name: String, _ kind: GitNameKind) -> GitNameProblem? {
        if name.isEmpty { return .empty }
        if name.hasPrefix("-") { return .startsWithDash }
        if name.unicodeScalars.contains(where: isControl) { return .controlCharacter }
        if let character = name.first(where: { " ~^:?*[\\".contains($0) }) { return .forbiddenCharacter(character) }
        if kind == .remote, let character = name.first(where: { !($0.isLetter || $0.isNumber || "-_.".contains($0)) }) {
            return .notAllowed(character)
        }
        if name.hasPrefix("/") || name.hasSuffix("/") { return .slashAtEdge }
        if name.contains("//") { return .emptyPart }
        let parts = name.split(separator: "/")
        if name.hasPrefix(".") { return .startsWithDot }
        if parts.contains(where: { $0.hasPrefix(".") }) { return .partStartsWithDot }
        if name.hasSuffix(".lock") { return .endsWithLock }
        if parts.contains(where: { $0.hasSuffix(".lock") }) { return .partEndsWithLock }
        if name.hasSuffix(".") { return .endsWithDot }
        if name.contains("..") { return .doubleDot }
        if name.contains("@{") { return .atBrace }
        return nil
    }
}
