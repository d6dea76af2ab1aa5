import Foundation
import FolioGit

/// Who commits: from `GIT_AUTHOR_*`, the Folio settings, git config, or the login name and host — never failing.
public enum Identity {
    /// Resolves the author for a repository; `repository` supplies git config (its own, global and system).
    public static func author(settings: Settings, environment: [String: String], repository: Repository?) -> Signature {
        resolve(prefix: "GIT_AUTHOR", settings: settings, environment: environment, repository: repository)
    }

    /// Resolves the committer: `GIT_COMMITTER_*`, else the same sources as the author.
    public static func committer(settings: Settings, environment: [String: String], repository: Repository?) -> Signature {
        resolve(prefix: "GIT_COMMITTER", settings: settings, environment: environment, repository: repository)
    }

    private static func resolve(prefix: String, settings: Settings, environment: [String: String], repository: Repository?) -> Signature {
        let login = environment["USER"] ?? environment["LOGNAME"] ?? loginName() ?? "folio"
        let name = nonEmpty(environment["\(prefix)_NAME"]) ?? nonEmpty(settings.author?.name)
            ?? nonEmpty(repository?.configString("user.name")) ?? login
        let email = nonEmpty(environment["\(prefix)_EMAIL"]) ?? nonEmpty(settings.author?.email)
            ?? nonEmpty(repository?.configString("user.email")) ?? nonEmpty(environment["EMAIL"]) ?? "\(login)@\(hostName())"
        var signature = Signature(name: name, email: email)
        if let date = environment["\(prefix)_DATE"], let parsed = parseDate(date) {
            signature.time = parsed.0
            signature.timeZoneOffset = parsed.1
        }
        return signature
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }

    /// git's raw date form `1700000000 +0100`, or `@1700000000`.
    private static func parseDate(_ text: String) -> (Date, Int)? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: " ")
        guard let first = parts.first, let seconds = Double(first.hasPrefix("@") ? first.dropFirst() : first) else { return nil }
        var offset = 0
        if parts.count > 1, let zone = Int(parts[1]) { offset = (zone / 100) * 60 + (zone % 100) }
        return (Date(timeIntervalSince1970: seconds), offset)
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
