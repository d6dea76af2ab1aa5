import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioGit

/// A template found by `folio templates search`.
public struct TemplateSearchHit: Sendable, Equatable, Encodable {
    public let source: String
    public let id: String
    public let name: String
    public let summary: String?
    public let version: String?
    public let tags: [String]
    public let group: String?
    /// Higher is better: words in the id or name count more than in the summary, tags or group.
    public let score: Int
}

/// Searches the templates of resolved sources (their manifests and catalogs).
public enum TemplateSearch {
    /// The templates matching every one of `words` (case- and diacritic-insensitive, anywhere in the id, name,
    /// summary, tags, content type or catalog group name), best first, then by source order and id.
    public static func search(_ words: [String], in sources: [ResolvedSource]) -> [TemplateSearchHit] {
        let wanted = words.map(fold).filter { !$0.isEmpty }
        var hits: [(hit: TemplateSearchHit, order: Int)] = []
        for source in sources {
            let groupNames = Dictionary(source.groups.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
            for template in source.templates {
                let group = template.group.flatMap { groupNames[$0] }
                guard let score = score(template, group: group, words: wanted) else { continue }
                hits.append((TemplateSearchHit(source: source.source.name, id: template.id, name: template.name, summary: template.summary,
                                               version: template.version, tags: template.tags ?? [], group: group, score: score), hits.count))
            }
        }
        return hits.sorted { $0.hit.score != $1.hit.score ? $0.hit.score > $1.hit.score : $0.order < $1.order }.map(\.hit)
    }

    /// How well `template` matches: nil when a word is found nowhere.
    static func score(_ template: TemplateSummary, group: String?, words: [String]) -> Int? {
        let strong = [template.id, template.name].map(fold)
        let weak = ([template.summary, template.contentType, group].compactMap { $0 } + (template.tags ?? [])).map(fold)
        var total = 0
        for word in words {
            if strong.contains(where: { $0.contains(word) }) { total += 3 }
            else if weak.contains(where: { $0.contains(word) }) { total += 1 }
            else { return nil }
        }
        return total
    }

    static func fold(_ text: String) -> String {
        TextFolding.folded(text, widths: true)
    }
}

/// One published version of a template: a tag of its source where the template exists.
public struct TemplateVersion: Sendable, Equatable, Encodable {
    public let tag: String
    public let commit: String
    /// The manifest's version at that tag.
    public let version: String?
}

extension TemplateResolver {
    /// The versions of a loaded template in its source, read from the copy it was loaded from (nothing is fetched).
    public func versions(of template: Template) async throws -> [TemplateVersion] {
        let cached = TemplateResolver(environment: environment, offline: true, limits: limits)
        let source = template.source, commit = template.commit
        let resolved = try await Self.blocking { try cached.resolveNow(source, commit: commit, progress: nil, cancel: CancelFlag()) }
        return try await versions(of: template.manifest.id, in: resolved)
    }

    /// The versions of template `id` in a resolved source: every tag whose commit holds the template (found by its
    /// manifest's id, wherever its folder was then), newest semantic version first, other tags after by name.
    /// A plain folder or the bundled templates have none.
    public func versions(of id: String, in resolved: ResolvedSource) async throws -> [TemplateVersion] {
        let directory = resolved.gitDirectory, name = resolved.source.name
        if resolved.ref == nil && resolved.source.location == TemplateSource.bundledLocation { return [] }
        return try await Self.blocking {
            let repository = try readingTemplate("\(name): \(directory.path)") { try Repository.open(at: directory) }
            var found: [TemplateVersion] = []
            for tag in try repository.tags() {
                guard let tree = try? repository.commit(tag.target).tree,
                      let listing = try? TemplateListing.read(repository: repository, tree: tree, sourceName: name),
                      let summary = listing.templates.first(where: { $0.id == id }) else { continue }
                found.append(TemplateVersion(tag: tag.name, commit: tag.target.hex, version: summary.version))
            }
            return found.sorted { a, b in
                switch (SemanticVersion(a.tag), SemanticVersion(b.tag)) {
                case let (x?, y?): return x != y ? x > y : a.tag < b.tag
                case (.some, nil): return true
                case (nil, .some): return false
                case (nil, nil): return a.tag < b.tag
                }
            }
        }
    }
}
