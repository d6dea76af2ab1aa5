import FoundationEssentials
import Glibc
import FolioCore
import FolioGit
import FolioBasics

/// The templates of one repository tree: every `template.json` at any depth, ordered by the optional `catalog.json`.
struct TemplateListing {
    var templates: [TemplateSummary] = []
    var groups: [TemplateGroup] = []
    var warnings: [String] = []

    static func read(repository: Repository, tree: ObjectID, sourceName: String) throws -> TemplateListing {
        try read(GitTemplateTree(repository: repository, tree: tree), sourceName: sourceName)
    }

    static func read(_ tree: some TemplateTree, sourceName: String) throws -> TemplateListing {
        var listing = TemplateListing()
        let entries = try readingTemplate("\(sourceName): \(tree.name)") { try tree.files(under: "") }
        // Template folders: those holding template.json, outermost first; a template.json inside another template
        // (for example in its files/) belongs to that template's content and is not a template.
        var roots: [(path: String, blob: ObjectID)] = []
        for entry in entries where entry.kind == .blob && !entry.isSymlink && (entry.path == "template.json" || entry.path.hasSuffix("/template.json")) {
            let folder = entry.path == "template.json" ? "" : String(entry.path.dropLast("/template.json".count))
            roots.append((folder, entry.id))
        }
        // A cookiecutter template: cookiecutter.json where no template.json is (cookiecutter's own format).
        let folioFolders = Set(roots.map(\.path))
        var cookiecutters = Set<String>()
        for entry in entries where entry.kind == .blob && !entry.isSymlink && (entry.path == "cookiecutter.json" || entry.path.hasSuffix("/cookiecutter.json")) {
            let folder = entry.path == "cookiecutter.json" ? "" : String(entry.path.dropLast("/cookiecutter.json".count))
            if !folioFolders.contains(folder) { roots.append((folder, entry.id)); cookiecutters.insert(folder) }
        }
        // A copier template: copier.yml (or copier.yaml) where neither of the others is.
        var copiers: [String: String] = [:]
        for entry in entries where entry.kind == .blob && !entry.isSymlink {
            let name = entry.path.split(separator: "/").last.map(String.init) ?? ""
            guard name == "copier.yml" || name == "copier.yaml" else { continue }
            let folder = entry.path == name ? "" : String(entry.path.dropLast(name.count + 1))
            if !folioFolders.contains(folder), !cookiecutters.contains(folder), copiers[folder] == nil {
                roots.append((folder, entry.id)); copiers[folder] = name
            }
        }
        roots.sort { $0.path.count < $1.path.count }
        var accepted: [(path: String, blob: ObjectID)] = []
        for root in roots where !accepted.contains(where: { $0.path.isEmpty || root.path.hasPrefix($0.path + "/") }) {
            accepted.append(root)
        }
        func manifestName(_ folder: String) -> String { copiers[folder] ?? (cookiecutters.contains(folder) ? "cookiecutter.json" : "template.json") }
        let manifests = accepted.map { TreeEntry(path: ($0.path.isEmpty ? "" : $0.path + "/") + manifestName($0.path), id: $0.blob, mode: 0o100644, kind: .blob) }
        let blobs = try tree.contents(of: manifests, naming: { "\(sourceName): \($0.path)" })
        let paths = accepted.map(\.path)
        // Many manifests are parsed on every core.
        let parsed = parallelMap(accepted.count, serialBelow: 16) { index -> Result<TemplateManifest, any Error> in
            let name = manifestName(paths[index])
            let file = paths[index].isEmpty ? name : paths[index] + "/" + name
            if let copierName = copiers[paths[index]] {
                let id = paths[index].isEmpty ? CookiecutterTemplate.rootID(source: sourceName) : String(paths[index].split(separator: "/").last ?? "template")
                return Result {
                    let copier = try CopierTemplate(configPath: copierName, sources: [copierName: blobs[index]])
                    return try Template.copierManifest(try copier.config(), id: id, file: "\(sourceName): \(file)")
                }
            }
            guard cookiecutters.contains(paths[index]) else {
                return Result { try TemplateManifest.parse(blobs[index], file: "\(sourceName): \(file)") }
            }
            let id = paths[index].isEmpty ? CookiecutterTemplate.rootID(source: sourceName) : String(paths[index].split(separator: "/").last ?? "template")
            let cookiecutter = CookiecutterTemplate(config: blobs[index], projectFolder: "", hooks: [], shared: [:])
            return Result { try Template.cookiecutterManifest(cookiecutter, id: id, file: "\(sourceName): \(file)") }
        }
        var seen: [String: String] = [:]
        for (index, result) in parsed.enumerated() {
            switch result {
            case let .success(manifest):
                if let first = seen[manifest.id] {
                    listing.warnings.append("\(sourceName): template id '\(manifest.id)' in \(accepted[index].path) is already used by \(first); ignored")
                    continue
                }
                seen[manifest.id] = accepted[index].path
                listing.templates.append(TemplateSummary(id: manifest.id, name: manifest.name, summary: manifest.summary, version: manifest.version,
                                                         contentType: manifest.contentType, path: accepted[index].path, source: sourceName,
                                                         group: nil, featured: false, tags: manifest.tags))
            case let .failure(error):
                listing.warnings.append(TemplateError.oneLine(error))
            }
        }
        if let catalog = try readingTemplate("\(sourceName): catalog.json", { try tree.file(atPath: "catalog.json") }) {
            let data = try tree.contents(of: [catalog], naming: { _ in "\(sourceName): catalog.json" }).first ?? Data()
            do {
                listing.apply(try TemplateCatalog.parse(data, file: "\(sourceName): catalog.json"))
            } catch {
                listing.warnings.append(TemplateError.oneLine(error))
                listing.templates.sort { $0.id < $1.id }
            }
        } else {
            listing.templates.sort { $0.id < $1.id }
        }
        return listing
    }

    mutating func apply(_ catalog: TemplateCatalog) {
        let featured = Set(catalog.featured)
        var groupOf: [String: String] = [:]
        for group in catalog.groups { for id in group.templates where groupOf[id] == nil { groupOf[id] = group.id } }
        var rank: [String: Int] = [:]
        for (index, id) in (catalog.order + catalog.featured + catalog.groups.flatMap(\.templates)).enumerated() where rank[id] == nil {
            rank[id] = index
        }
        for index in templates.indices {
            templates[index].group = groupOf[templates[index].id]
            templates[index].featured = featured.contains(templates[index].id)
        }
        templates.sort { a, b in
            switch (rank[a.id], rank[b.id]) {
            case let (x?, y?): return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            default: return a.id < b.id
            }
        }
        groups = catalog.groups
    }
}

/// `catalog.json` at a repository's root: display order, groups and featured templates.
struct TemplateCatalog: Decodable {
    var order: [String]
    var featured: [String]
    var groups: [TemplateGroup]

    enum CodingKeys: String, CodingKey, CaseIterable { case order, featured, groups }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        order = try c.decodeIfPresent([String].self, forKey: .order) ?? []
        featured = try c.decodeIfPresent([String].self, forKey: .featured) ?? []
        groups = try c.decodeIfPresent([TemplateGroup].self, forKey: .groups) ?? []
    }

    static func parse(_ data: Data, file: String) throws -> TemplateCatalog {
        do {
            return try StrictJSON.decode(TemplateCatalog.self, from: data, strictAt: [[], ["groups", "*"]])
        } catch {
            throw TemplateError(file, JSONKeys.describe(error), kind: .invalidFile)
        }
    }
}
