import FoundationEssentials
import FolioBasics
import Glibc

/// A `.netrc` file's credentials for http(s) remotes: `$NETRC`, else `~/.netrc`. Read only when a server asks for a
/// password; never copied anywhere (a document's `.git/config` holds no secret).
///
/// The format is the usual one, parsed strictly: tokens separated by white space (a token may be written in double
/// quotes, with `\"` and `\\` inside), `machine NAME` or `default` starting an entry, then `login NAME`,
/// `password SECRET` and `account NAME` (ignored); `macdef NAME` and the lines after it up to an empty line are
/// skipped. Anything else — an unknown word, a keyword without its value, a login before any machine, an
/// unterminated quote — is a `NetrcError` naming the file and the line.
public struct Netrc: Sendable, Equatable {
    /// One `machine` (or `default`) entry.
    public struct Entry: Sendable, Equatable {
        /// The host name; nil for `default`.
        public var machine: String?
        public var login: String?
        public var password: String?
    }

    public var entries: [Entry]

    /// The file to read for an environment: `$NETRC` when set, else `$HOME/.netrc`.
    public static func path(environment: [String: String]) -> String {
        if let path = environment["NETRC"], !path.isEmpty { return path }
        return (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.netrc"
    }

    /// The credentials file of `environment`; nil when there is none. A file that cannot be read or parsed is a
    /// `NetrcError`.
    public static func load(environment: [String: String]) throws -> Netrc? {
        let path = path(environment: environment)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw NetrcError(path: path, line: nil, problem: "not a regular file")
        }
        guard info.st_size <= 1 << 20 else { throw NetrcError(path: path, line: nil, problem: "larger than 1 MiB") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw NetrcError(path: path, line: nil, problem: String(cString: strerror(errno)))
        }
        guard let text = String(data: data, encoding: .utf8) else { throw NetrcError(path: path, line: nil, problem: "not UTF-8 text") }
        return try parse(text, path: path)
    }

    /// The login and password for `host`: its `machine` entry, else `default`; nil when neither gives a password.
    public func credentials(host: String) -> (login: String?, password: String)? {
        let entry = entries.first { $0.machine?.lowercased() == host.lowercased() } ?? entries.first { $0.machine == nil }
        guard let entry, let password = entry.password else { return nil }
        return (entry.login, password)
    }

    /// Parses a file's text; `path` names it in errors.
    public static func parse(_ text: String, path: String) throws -> Netrc {
        var tokens = try NetrcTokens(text, path: path)
        var entries: [Entry] = []
        // Whether the previous token was a password's or account's value: a stray word right after one is likely the
        // rest of a secret with a space in it, and is not quoted in the error.
        var afterSecret = false
        while let (word, line) = try tokens.next() {
            let followsSecret = afterSecret
            afterSecret = false
            func value(_ keyword: String) throws -> String {
                guard let (value, _) = try tokens.next() else {
                    throw NetrcError(path: path, line: line, problem: "'\(keyword)' has no value")
                }
                return value
            }
            switch word {
            case "machine": entries.append(Entry(machine: try value(word)))
            case "default": entries.append(Entry(machine: nil))
            case "login", "password", "account":
                guard !entries.isEmpty else { throw NetrcError(path: path, line: line, problem: "'\(word)' before any 'machine' or 'default'") }
                let text = try value(word)
                if word == "login" { entries[entries.count - 1].login = text }
                if word == "password" { entries[entries.count - 1].password = text }
                afterSecret = word != "login"
            case "macdef":
                _ = try value(word)
                tokens.skipMacro()
            default:
                if followsSecret {
                    throw NetrcError(path: path, line: line, problem: "an unexpected word after a password or account value "
                        + "(a value with a space must be in double quotes; the word is not shown, it may be part of the secret)")
                }
                throw NetrcError(path: path, line: line, problem: "unexpected '\(word.prefix(40))' (expected machine, default, login, password, account or macdef)")
            }
        }
        return Netrc(entries: entries)
    }
}

/// A `.netrc` file Folio cannot use: which file, which line (when known) and why. It never contains a secret.
public struct NetrcError: Error, CustomStringConvertible, Sendable, Equatable {
    public let path: String
    public let line: Int?
    public let problem: String
    public var description: String { "\(path)\(line.map { ":\($0)" } ?? ""): \(problem)" }
}

/// The words of a `.netrc` file with their line numbers.
private struct NetrcTokens {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private let path: String

    init(_ text: String, path: String) throws {
        scalars = Array(text.unicodeScalars)
        self.path = path
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" }

    /// The next word and the line it starts on; nil at the end.
    mutating func next() throws -> (String, Int)? {
        while index < scalars.count, Self.isSpace(scalars[index]) {
            if scalars[index] == "\n" { line += 1 }
            index += 1
        }
        guard index < scalars.count else { return nil }
        let start = line
        var word = String.UnicodeScalarView()
        if scalars[index] == "\"" {
            index += 1
            while true {
                guard index < scalars.count, scalars[index] != "\n" else {
                    throw NetrcError(path: path, line: start, problem: "a quoted word has no closing quote")
                }
                let scalar = scalars[index]
                index += 1
                if scalar == "\"" { break }
                if scalar == "\\", index < scalars.count, scalars[index] != "\n" { word.append(scalars[index]); index += 1; continue }
                word.append(scalar)
            }
        } else {
            while index < scalars.count, !Self.isSpace(scalars[index]) { word.append(scalars[index]); index += 1 }
        }
        if word.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw NetrcError(path: path, line: start, problem: "a control character in a word")
        }
        return (String(word), start)
    }

    /// Skips a `macdef` body: everything up to and including the next empty line.
    mutating func skipMacro() {
        while index < scalars.count, scalars[index] != "\n" { index += 1 }  // the rest of the macdef line
        while index < scalars.count {
            index += 1
            line += 1
            if index < scalars.count, scalars[index] == "\n" { index += 1; line += 1; return }
            while index < scalars.count, scalars[index] != "\n" { index += 1 }
        }
    }
}
