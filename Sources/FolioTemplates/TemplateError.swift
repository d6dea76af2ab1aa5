import FoundationEssentials
import Glibc

/// A template failure with its context: which source, template or file, what failed and why. Prints as one line.
public struct TemplateError: Error, CustomStringConvertible, LocalizedError, Sendable, Equatable {
    /// What the error is about: a source name, a template id, or a file inside a template.
    public let subject: String
    /// Why it failed.
    public let message: String
    /// What kind of failure it is, for callers that act on it (the CLI's hints).
    public let kind: Kind

    /// The failures a caller may want to tell apart (the CLI adds its hints for them).
    public enum Kind: Sendable, Equatable {
        /// A required variable (its name) got no answer and has no default.
        case missingAnswer(variable: String)
        /// A ref was given for a source that is a plain folder, which has no refs.
        case refOnPlainFolder
        /// Working offline, and the remote source has no cached copy yet.
        case noOfflineCopy
        /// A file of a template, its catalog or a test fixture is malformed (JSON, keys, values) or inconsistent.
        case invalidFile
        /// A template, source folder, template.json, commit or ref asked for is not there.
        case notFound
        /// A file or folder of a template or its source could not be read.
        case unreadable
        /// Writing failed (the cache repository, rewritten expected files).
        case writeFailed
        /// The source cannot be used: not a repository, no usable commit, its cached copy could not be refreshed.
        case sourceUnavailable
        /// The source is not the one trusted for the document.
        case untrustedSource
        /// A template folder is over its file-count or byte limit.
        case tooLarge
        /// A file name or partial is not valid UTF-8.
        case notUTF8
        /// A path, link or entry the template would write is refused (outside the document, through a link,
        /// colliding, a submodule).
        case refusedPath
        /// An answer names a variable the template does not ask for.
        case unknownVariable
        /// An answer is not what its variable takes.
        case invalidAnswer
        /// The template needs a newer Folio (`minFolioVersion`).
        case needsNewerFolio
        /// Expected files can be rewritten only for a template folder on disk.
        case notAFolderOnDisk
        /// The template needs what Folio does not have (a cookiecutter Jinja extension, an environment option).
        case unsupported
    }

    /// Creates an error about `subject`, of the kind that names what failed.
    public init(_ subject: String, _ message: String, kind: Kind) {
        self.subject = subject
        self.message = message
        self.kind = kind
    }

    public var description: String {
        let text = subject.isEmpty ? message : "\(subject): \(message)"
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    public var errorDescription: String? { description }
}

/// Folio's own release, which `minFolioVersion` in `template.json` is checked against.
public enum FolioRelease {
    /// The running Folio's version (`FolioVersion.current` in the CLI should be this value).
    public static let version = "0.1.0"
}

/// A semantic version `MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]`, ordered by semver rules.
public struct SemanticVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    public let major: Int
    public let minor: Int
    public let patch: Int
    public let prerelease: [String]

    /// Parses `1.2.3`, `1.2.3-beta.1`, `v1.2.3` (a leading `v` is allowed); nil when it is not a version.
    public init?(_ text: String) {
        var body = Substring(text)
        if body.first == "v" || body.first == "V" { body = body.dropFirst() }
        if let plus = body.firstIndex(of: "+") { body = body[..<plus] }
        var pre: [String] = []
        if let dash = body.firstIndex(of: "-") {
            pre = body[body.index(after: dash)...].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !pre.isEmpty, !pre.contains(where: { $0.isEmpty }) else { return nil }
            body = body[..<dash]
        }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let major = Int(parts[0]), let minor = Int(parts[1]), let patch = Int(parts[2]) else { return nil }
        self.major = major; self.minor = minor; self.patch = patch; self.prerelease = pre
    }

    public var description: String {
        "\(major).\(minor).\(patch)" + (prerelease.isEmpty ? "" : "-" + prerelease.joined(separator: "."))
    }

    public static func < (a: SemanticVersion, b: SemanticVersion) -> Bool {
        if (a.major, a.minor, a.patch) != (b.major, b.minor, b.patch) { return (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch) }
        if a.prerelease.isEmpty != b.prerelease.isEmpty { return !a.prerelease.isEmpty }
        for (x, y) in zip(a.prerelease, b.prerelease) where x != y {
            switch (Int(x), Int(y)) {
            case let (i?, j?): return i < j
            case (.some, nil): return true
            case (nil, .some): return false
            default: return x < y
            }
        }
        return a.prerelease.count < b.prerelease.count
    }
}
