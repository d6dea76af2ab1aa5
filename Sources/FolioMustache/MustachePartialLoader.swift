import FoundationEssentials
import FolioBasics
import Glibc

/// Supplies partial and parent templates by name.
public protocol MustachePartialLoader: Sendable {
    /// The source of the template called `name`, or nil when there is none (it then renders empty).
    func template(named name: String) throws -> String?
}

/// A loader that knows no partials.
public struct NoPartials: MustachePartialLoader {
    /// Creates the empty loader.
    public init() {}
    /// Always nil.
    public func template(named name: String) throws -> String? { nil }
}

/// A loader backed by an in-memory dictionary of name → source.
public struct DictionaryPartialLoader: MustachePartialLoader {
    /// The templates by name.
    public var templates: [String: String]
    /// Creates a loader over `templates`.
    public init(_ templates: [String: String]) { self.templates = templates }
    /// The template stored under `name`, if any.
    public func template(named name: String) throws -> String? { templates[name] }
}

/// A loader reading partial `x` from `root/x.mustache`; names that would leave `root` are rejected, and only
/// regular files of at most `maxFileBytes` are read.
public struct DirectoryPartialLoader: MustachePartialLoader {
    /// The directory partials are read from.
    public let root: URL
    /// The largest partial read.
    public let maxFileBytes: Int

    /// Creates a loader reading from `root`.
    public init(root: URL, maxFileBytes: Int = RegularFile.defaultMaxBytes) {
        self.root = root
        self.maxFileBytes = maxFileBytes
    }

    /// Reads `root/name.mustache`; nil when missing (or a folder), an error for unsafe names or unreadable files.
    public func template(named name: String) throws -> String? {
        let file = try path(for: name)
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(file.path, maxBytes: maxFileBytes)
        } catch .cannotOpen(ENOENT), .cannotOpen(ENOTDIR), .notRegular("a directory") {
            return nil
        } catch {
            throw MustacheError(file: file.path, message: "cannot read partial '\(name)': \(error)")
        }
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            throw MustacheError(file: file.path, message: "partial '\(name)' is not valid UTF-8")
        }
        return text
    }

    /// `root/name.mustache`, or an error when `name` could reach outside `root`.
    private func path(for name: String) throws -> URL {
        let rootPath = root.standardizedFileURL.path
        func reject(_ why: String) -> MustacheError {
            MustacheError(file: name, message: "partial name '\(name)' \(why)")
        }
        guard !name.isEmpty else { throw reject("is empty") }
        if name.hasPrefix("/") || name.hasPrefix("~") { throw reject("is absolute; partial names must stay inside \(rootPath)") }
        if name.contains("\\") { throw reject("contains a backslash") }
        if name.contains("%") { throw reject("contains '%' (percent-encoding is not allowed)") }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "\u{7F}" }) { throw reject("contains a control character") }
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        if components.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) {
            throw reject("would leave the partials directory \(rootPath)")
        }
        let file = root.appendingPathComponent(name + ".mustache").standardizedFileURL
        guard file.path.hasPrefix(rootPath.hasSuffix("/") ? rootPath : rootPath + "/") else {
            throw reject("would leave the partials directory \(rootPath)")
        }
        return file
    }
}
