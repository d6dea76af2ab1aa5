import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioGit

/// Where templates come from: a local folder or git repository, or a git URL, with an optional ref.
public struct TemplateSource: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The name the user gave it (`bundled` for Folio's own templates).
    public var name: String
    /// A path, `file://`, `git://`, `https://` or `ssh://` URL, or `folio:bundled`.
    public var location: String
    /// A branch, tag or commit; nil means the newest semver tag, else the default branch.
    public var ref: String?

    /// Creates a source.
    /// The URL a short form names, as cookiecutter and copier users type them (`gh:owner/repo` → GitHub over https,
    /// `gl:` GitLab, `bb:` Bitbucket); nil for anything else.
    public static func expandingShortForm(_ text: String) -> String? {
        let hosts = ["gh:": "github.com", "gl:": "gitlab.com", "bb:": "bitbucket.org"]
        guard let prefix = hosts.keys.first(where: { text.hasPrefix($0) }), let host = hosts[prefix] else { return nil }
        let path = text.dropFirst(prefix.count)
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && $0.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) } }) else { return nil }
        return "https://\(host)/\(path)" + (path.hasSuffix(".git") ? "" : ".git")
    }

    public init(name: String, location: String, ref: String? = nil) {
        self.name = name; self.location = location; self.ref = ref
    }

    /// The location recorded for Folio's bundled templates (found again from the running executable).
    public static let bundledLocation = "folio:bundled"
    /// Folio's bundled templates.
    public static let bundled = TemplateSource(name: "bundled", location: bundledLocation)

    public var description: String { name }

    /// Whether the location is fetched over a libgit2 transport into a cached mirror.
    public var isRemote: Bool {
        let lower = location.lowercased()
        if ["file://", "git://", "https://", "http://", "ssh://"].contains(where: { lower.hasPrefix($0) }) { return true }
        // scp-like `user@host:path`
        if let colon = location.firstIndex(of: ":"), !location.hasPrefix("/"), location[..<colon].contains("@") { return true }
        return false
    }

    /// The bundled source, the sources saved in the settings, then those of installed plugin packages
    /// (`pluginSources`).
    public static func configured(environment: [String: String]) throws -> [TemplateSource] {
        let settings = try Settings.load(environment: environment)
        return [.bundled] + settings.templateSources.map { TemplateSource(name: $0.name, location: $0.url, ref: $0.ref) }
            + pluginSources(environment: environment)
    }

    /// The folder holding Folio's bundled templates: `$FOLIO_TEMPLATES`, else the running executable's (see
    /// `bundledFolder(forExecutable:)`).
    public static func bundledFolder(environment: [String: String]) -> URL? {
        if let override = environment["FOLIO_TEMPLATES"], !override.isEmpty { return URL(fileURLWithPath: override).standardizedFileURL }
        var starts: [URL] = []
        if let exe = Executable.url { starts.append(exe.resolvingSymlinksInPath()) }
        if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { starts.append(URL(fileURLWithPath: link)) }
        for start in starts {
            if let folder = bundledFolder(forExecutable: start) { return folder }
        }
        return nil
    }

    /// The bundled templates of the Folio executable at `executable`: `../share/folio/templates` from its folder
    /// (installed), else `<root>/Templates` when it runs from a SwiftPM build folder `<root>/.build/…` (the build
    /// tree). Never anything else: an installed or copied Folio does not look into a source tree.
    public static func bundledFolder(forExecutable executable: URL) -> URL? {
        let fm = FileManager.default
        let folder = executable.deletingLastPathComponent()
        let installed = folder.deletingLastPathComponent().appendingPathComponent("share/folio/templates")
        if fm.fileExists(atPath: installed.appendingPathComponent("catalog.json").path) { return installed }
        var candidate = folder
        while candidate.path != "/" && !candidate.path.isEmpty {
            if candidate.lastPathComponent.hasPrefix(".build") {
                let templates = candidate.deletingLastPathComponent().appendingPathComponent("Templates")
                return fm.fileExists(atPath: templates.appendingPathComponent("catalog.json").path) ? templates : nil
            }
            candidate = candidate.deletingLastPathComponent()
        }
        return nil
    }
}

/// A template source the caller vouches for. A document's `.folio/document.json` may come from anyone (a clone),
/// so the source it names is used only with one of these: the command line makes it when the user created the
/// document here, configured that source, named it explicitly, or confirmed it.
public struct TrustedTemplateSource: Sendable, Equatable {
    /// The location (as recorded in documents) that may be used.
    public let location: String

    /// Vouches for `location`.
    public init(location: String) { self.location = location }

    /// Fails unless `location` is the trusted one.
    func check(_ location: String) throws {
        guard location == self.location else {
            throw TemplateError(location, "this template source is not trusted for the document (trusted: \(self.location))", kind: .untrustedSource)
        }
    }
}

/// What `TemplateResolver.resolveAll` reports as each source progresses.
public enum SourceEvent: Sendable {
    case progress(TemplateSource, TransferProgress)
    case resolved(ResolvedSource)
    case failed(TemplateSource, String)
}

/// A template as listed: enough to show it and to pick it.
public struct TemplateSummary: Sendable, Equatable, Codable {
    public var id: String
    public var name: String
    public var summary: String?
    public var version: String?
    public var contentType: String?
    /// The template's folder inside its repository.
    public var path: String
    /// The name of the source it comes from.
    public var source: String
    /// The catalog group it belongs to, if any.
    public var group: String?
    public var featured: Bool
    /// The manifest's search words (`tags`).
    public var tags: [String]? = nil
}

/// A catalog group of templates, from `catalog.json`.
public struct TemplateGroup: Sendable, Equatable, Codable {
    public var id: String
    public var name: String
    public var templates: [String]

    enum CodingKeys: String, CodingKey, CaseIterable { case id, name, templates }
}

/// A source resolved to one commit, with the templates it holds at that commit.
public struct ResolvedSource: Sendable {
    public let source: TemplateSource
    /// The commit templates are read from.
    public let commit: String
    /// The ref that was resolved (a tag or branch name), nil when a commit was asked for or for a plain folder.
    public let ref: String?
    /// The templates, in catalog order (featured first within no explicit order).
    public let templates: [TemplateSummary]
    /// Catalog groups, in catalog order.
    public let groups: [TemplateGroup]
    /// Problems that did not stop the source (a malformed template.json, a failed fetch served from the cache).
    public let warnings: [String]
    /// When the cached copy was last fetched (remote sources), for "the cache is N hours old".
    public let fetchedAt: Date?
    /// The git repository the commit lives in (the source itself, its mirror, or its snapshot).
    let gitDirectory: URL
    /// For a plain folder whose snapshot was current when resolved: its files, read straight from the folder.
    var folder: CurrentFolder? = nil
    /// The source location to record in documents.
    var recordedLocation: String { source.location }
}
