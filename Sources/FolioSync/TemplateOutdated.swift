import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioTemplates

/// Whether one document is behind its template, for `folio outdated`.
public struct TemplateVersionStatus: Sendable, Equatable, Encodable {
    /// The document's folder.
    public let path: String
    public let template: String
    /// The version it was made from or last updated to (manifest version, else ref, else short commit).
    public let current: String
    public let currentCommit: String
    /// The newest version of the template in its source (nil when the source could not be read).
    public let latest: String?
    public let latestCommit: String?
    /// Whether a newer version exists (another commit than the recorded one, as `folio update --check` decides).
    public let outdated: Bool
    /// When the source was read from the cache only: when it was last fetched (nil: never, or not a cached source).
    public let cachedAt: Date?
    /// What the source said while being read (offline: the cached copy used and its age; a failed fetch).
    public let warnings: [String]
    /// Why the newest version is unknown.
    public let error: String?
}

/// A document made from a template, and whether its recorded source may be read.
public struct TemplateDocumentOrigin: Sendable {
    public let path: String
    public let origin: DocumentOrigin.Template
    /// Whether the user trusts the recorded source for this document (an untrusted one is never read).
    public let trusted: Bool

    /// Creates an entry.
    public init(path: String, origin: DocumentOrigin.Template, trusted: Bool) { self.path = path; self.origin = origin; self.trusted = trusted }
}

/// `folio outdated`: finds documents and compares each with the newest version of its template.
public enum TemplateOutdated {
    /// The document folders under `folder` (itself included): folders holding `.git` and `.folio/document.json`.
    /// A document's own folders are not searched further, `.git` folders are skipped, and links are not followed.
    public static func documents(under folder: URL) -> [URL] {
        let fm = FileManager.default
        func isDocument(_ url: URL) -> Bool {
            var isFolder: Bool = false
            return fm.fileExists(atPath: url.appendingPathComponent(DocumentMetadata.path).path)
                && fm.fileExists(atPath: url.appendingPathComponent(".git").path, isDirectory: &isFolder) && isFolder
        }
        if isDocument(folder) { return [folder] }
        var found: [URL] = []
        // Depth first, unreadable folders skipped; `attributesOfItem` does not follow links, so a link is never a folder.
        func walk(_ url: URL) {
            for name in (try? fm.contentsOfDirectory(atPath: url.path)) ?? [] {
                let child = url.appendingPathComponent(name)
                guard (try? fm.attributesOfItem(atPath: child.path))?[.type] as? FileAttributeType == .typeDirectory, name != ".git" else { continue }
                if isDocument(child) { found.append(child) } else { walk(child) }
            }
        }
        walk(folder)
        return found.sorted { $0.path < $1.path }
    }

    /// Compares each document's recorded template with the newest version in its source (each source read once;
    /// with an offline resolver, from the cache). Untrusted sources are not read: their entry carries an error.
    public static func check(_ documents: [TemplateDocumentOrigin], resolver: TemplateResolver) async -> [TemplateVersionStatus] {
        var resolved: [String: Result<ResolvedSource, any Error>] = [:]
        var statuses: [TemplateVersionStatus] = []
        for document in documents {
            let origin = document.origin
            let current = origin.version ?? origin.ref ?? String(origin.commit.prefix(7))
            func failed(_ why: String) -> TemplateVersionStatus {
                TemplateVersionStatus(path: document.path, template: origin.id, current: current, currentCommit: origin.commit, latest: nil,
                                      latestCommit: nil, outdated: false, cachedAt: nil, warnings: [], error: why)
            }
            guard document.trusted else {
                statuses.append(failed("its template source '\(origin.source)' is not trusted here"))
                continue
            }
            if resolved[origin.source] == nil {
                let name = origin.source == TemplateSource.bundledLocation ? "bundled" : origin.source
                do {
                    resolved[origin.source] = .success(try await resolver.resolve(TemplateSource(name: name, location: origin.source)))
                } catch {
                    resolved[origin.source] = .failure(error)
                }
            }
            switch resolved[origin.source] {
            case let .success(source)?:
                guard let summary = source.templates.first(where: { $0.id == origin.id }) else {
                    let why = source.warnings.isEmpty ? "" : " (\(source.warnings.joined(separator: "; ")))"
                    statuses.append(failed("template '\(origin.id)' is no longer in \(origin.source)\(why)"))
                    continue
                }
                let latest = summary.version ?? source.ref ?? String(source.commit.prefix(7))
                statuses.append(TemplateVersionStatus(path: document.path, template: origin.id, current: current, currentCommit: origin.commit,
                                                      latest: latest, latestCommit: source.commit, outdated: source.commit != origin.commit,
                                                      cachedAt: resolver.offline ? source.fetchedAt : nil, warnings: source.warnings, error: nil))
            case let .failure(error)?:
                statuses.append(failed(String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " ")))
            case nil:
                statuses.append(failed("not resolved"))
            }
        }
        return statuses
    }
}
