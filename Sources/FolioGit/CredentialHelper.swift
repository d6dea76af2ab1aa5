import FoundationEssentials

/// One `credential.helper` the user configured, run with git's credential protocol: `get` before a login, `store`
/// after one the server accepted, `erase` after one it refused.
///
/// The helper runs as git runs it, through `/bin/sh -c`: `store` and other names as `git credential-NAME` with the
/// arguments after them (`store --file ~/.creds`), an absolute path as that program, `!command` as that shell
/// command, each followed by the action. It reads the request on standard input and answers on standard output;
/// it has `CredentialHelper.timeLimit` to do so. Its answer is untrusted: only `key=value` lines of UTF-8 text
/// without NUL, at most `CredentialHelper.answerLimit` bytes, are read; anything else is ignored, as is the helper
/// when it fails. What it writes to standard error is kept (bounded) and shown only as quoted text.
package struct CredentialHelper: Sendable, Equatable {
    /// The configured value (`store --file /x`, `/usr/bin/helper`, `!f() { …; }; f`).
    package let configured: String

    package init(_ configured: String) { self.configured = configured }

    /// How long one run may take before it is stopped.
    package static let timeLimit: Duration = .seconds(30)
    /// The most bytes of an answer read.
    static let answerLimit = 64 << 10
    /// The most bytes of standard error kept.
    static let errorLimit = 2 << 10

    /// The name Folio shows (`store`, `/usr/bin/helper`, `!f`): the first word.
    package var name: String {
        let text = configured.trimmingPrefix(while: { $0 == " " || $0 == "\t" })
        return String(text.prefix { $0 != " " && $0 != "\t" }.prefix(60))
    }

    /// The shell command line for `action` (`get`, `store`, `erase`), as git builds it.
    package func commandLine(_ action: String) -> String {
        if configured.hasPrefix("!") { return "\(configured.dropFirst()) \(action)" }
        if configured.hasPrefix("/") { return "\(configured) \(action)" }
        return "git credential-\(configured) \(action)"
    }
}

/// What git's credential protocol carries for one server: the request Folio sends and the answer a helper gives.
package struct CredentialFields: Sendable, Equatable {
    package var protocolName: String
    /// The host with `:port` when the URL had one.
    package var host: String
    /// The repository's path (only with `credential.useHttpPath`).
    package var path: String?
    package var username: String?
    package var password: String?

    package init(protocolName: String, host: String, path: String? = nil, username: String? = nil, password: String? = nil) {
        self.protocolName = protocolName
        self.host = host
        self.path = path
        self.username = username
        self.password = password
    }

    /// The request text: `key=value` lines and an empty line; nil when a value holds a newline or NUL (which would
    /// let one field forge another, as git refuses it too).
    package func request() -> String? {
        let fields: [(String, String?)] = [("protocol", protocolName), ("host", host), ("path", path), ("username", username), ("password", password)]
        var text = ""
        for case let (key, value?) in fields {
            guard !value.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\0" }) else { return nil }
            text += "\(key)=\(value)\n"
        }
        return text + "\n"
    }
}

/// A helper's answer to `get`, checked.
package struct CredentialAnswer: Sendable, Equatable {
    package var username: String?
    package var password: String?
    /// The helper asked that no further helper be asked (`quit=1`).
    package var quit = false

    /// Reads `data`: UTF-8 `key=value` lines up to an empty line or the end; nil when it is too long, holds a NUL
    /// or a line without `=`, or is not UTF-8. Keys other than username, password and quit are ignored.
    package init?(_ data: some Collection<UInt8>) {
        guard data.count <= CredentialHelper.answerLimit, !data.contains(0), String(validating: Array(data), as: UTF8.self) != nil else { return nil }
        // Lines split on the byte: a Character would take "\r\n" as one.
        for bytes in Array(data).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let trimmed = bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes
            guard !trimmed.isEmpty else { break }
            guard let line = String(validating: Array(trimmed), as: UTF8.self) else { return nil }
            guard let equals = line.firstIndex(of: "=") else { return nil }
            let key = line[..<equals], value = String(line[line.index(after: equals)...])
            switch key {
            case "username": username = value
            case "password": password = value
            case "quit": quit = GitUserConfig.bool(.some(value), fallback: false)
            default: continue
            }
        }
    }
}
