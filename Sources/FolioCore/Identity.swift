import FoundationEssentials
import FolioBasics
import Glibc
import FolioGit

/// Who commits: from `GIT_AUTHOR_*`, the Folio settings, git config, or the login name and host. Only a
/// `GIT_*_DATE` that git would refuse is an error; every other source falls back to the next.
public enum Identity {
    /// Resolves the author for a repository; `repository` supplies git config (its own, global and system).
    public static func author(settings: Settings, environment: [String: String], repository: Repository?) throws -> Signature {
        try resolve(prefix: "GIT_AUTHOR", settings: settings, environment: environment, repository: repository)
    }

    /// Resolves the committer: `GIT_COMMITTER_*`, else the same sources as the author.
    public static func committer(settings: Settings, environment: [String: String], repository: Repository?) throws -> Signature {
        try resolve(prefix: "GIT_COMMITTER", settings: settings, environment: environment, repository: repository)
    }

    private static func resolve(prefix: String, settings: Settings, environment: [String: String], repository: Repository?) throws -> Signature {
        let login = environment["USER"] ?? environment["LOGNAME"] ?? loginName() ?? "folio"
        // git config is read from the files this environment names, not through libgit2's process-wide search paths
        // (which another environment in this process may have set).
        let files = GitConfigFiles(environment: environment)
        let name = nonEmpty(environment["\(prefix)_NAME"]) ?? nonEmpty(settings.author?.name)
            ?? nonEmpty(repository?.configString("user.name", files: files)) ?? login
        let email = nonEmpty(environment["\(prefix)_EMAIL"]) ?? nonEmpty(settings.author?.email)
            ?? nonEmpty(repository?.configString("user.email", files: files)) ?? nonEmpty(environment["EMAIL"]) ?? "\(login)@\(hostName())"
        var signature = Signature(name: name, email: email)
        let variable = "\(prefix)_DATE"
        if let text = nonEmpty(environment[variable]) {
            let date = try GitDate(parsing: text, variable: variable)
            signature.time = Date(timeIntervalSince1970: Double(date.seconds))
            signature.timeZoneOffset = date.offsetMinutes
        }
        return signature
    }

    /// Whether `GIT_<prefix>_DATE` fixes the time (an empty value means "now", as in git).
    public static func fixesDate(_ variable: String, environment: [String: String]) -> Bool {
        nonEmpty(environment[variable]) != nil
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value = value?.trimming(.whitespaces), !value.isEmpty else { return nil }
        return value
    }

    private static func loginName() -> String? {
        guard let entry = getpwuid(getuid()), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }

    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let name = String(decoding: bytes, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }
}

/// A commit date in git's raw form: `SECONDS [+HHMM]` or `@SECONDS [+HHMM]`, checked as git checks it.
public struct GitDate: Equatable, Sendable {
    /// The largest timestamp accepted (2106-02-07): libgit2 1.5 writes a commit time as an unsigned 32-bit
    /// number, so a later one would be committed wrapped around (git itself would take up to `Int64.max`).
    public static let maximumSeconds = Int64(UInt32.max)
    /// Seconds since 1970, never negative (git's commit headers have no sign).
    public let seconds: Int64
    /// The zone's offset from UTC in minutes, within ±23:59 as git's date parser accepts.
    public let offsetMinutes: Int

    /// Parses `text`, naming `variable` in the one-line error when git would refuse it.
    public init(parsing text: String, variable: String) throws {
        func refuse(_ why: String) -> FolioError {
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return FolioError.invalidEnvironment(variable: variable, problem: "'\(shown)' \(why) (expected SECONDS [+HHMM] or @SECONDS [+HHMM], e.g. '1700000000 +0100')")
        }
        let parts = text.split(separator: " ")
        guard (1...2).contains(parts.count), var stamp = parts.first else { throw refuse("is not a git date") }
        if stamp.hasPrefix("@") { stamp = stamp.dropFirst() }
        guard !stamp.isEmpty, stamp.utf8.allSatisfy({ (48...57).contains($0) }) else {
            throw refuse("is not a git date: the time must be whole seconds since 1970, not negative")
        }
        guard let seconds = Int64(stamp), seconds <= Self.maximumSeconds else { throw refuse("is after \(Self.maximumSeconds), the latest time a commit can hold") }
        self.seconds = seconds
        if parts.count == 2 {
            guard let zone = Self.zone(parts[1]) else {
                throw refuse("has a bad time zone: use +HHMM or -HHMM, hours below 24 and minutes below 60")
            }
            offsetMinutes = zone
        } else {
            offsetMinutes = 0
        }
    }

    /// `+HHMM` / `-HHMM` with HH < 24 and MM < 60 (what git's date parser takes), in minutes.
    static func zone(_ text: Substring) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 5, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
              bytes.dropFirst().allSatisfy({ (48...57).contains($0) }) else { return nil }
        let digits = bytes.dropFirst().map { Int($0 - 48) }
        let hours = digits[0] * 10 + digits[1], minutes = digits[2] * 10 + digits[3]
        guard hours < 24, minutes < 60 else { return nil }
        return (bytes[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 60 + minutes)
    }
}
