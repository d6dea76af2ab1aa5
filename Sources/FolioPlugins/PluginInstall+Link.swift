import FolioCore
import FoundationEssentials
import FolioBasics
import Glibc

/// `plugins.links.json` in the installed-plugins folder: plugin builds under development linked with
/// `folio plugins link DIR`. Each linked library's folder comes first on the search path, so the build replaces an
/// installed (or bundled) copy of the same id until `folio plugins unlink ID`; its project's templates and samples
/// are offered as the installed package's would be. Read strictly; written atomically under the installer's lock.
public struct PluginLinks: Codable, Sendable, Equatable {
    /// One linked build.
    public struct Link: Codable, Sendable, Equatable {
        /// The plugin id its library reported when linked.
        public var id: String
        /// The project folder given to `link`.
        public var project: String
        /// The built library (absolute); its folder is scanned.
        public var library: String
        /// The project's templates and samples folders (absolute), when it has them.
        public var templates: String?
        public var samples: String?
        /// What the user granted the build when it was linked (what the project's `folio-pack.json` declared); nil: nothing.
        public var granted: PluginPermissions? = nil

        enum CodingKeys: String, CodingKey, CaseIterable { case id, project, library, templates, samples, granted }
    }

    public var version: Int = 1
    public var links: [Link] = []

    enum CodingKeys: String, CodingKey, CaseIterable { case version, links }

    /// No links.
    public init() {}

    /// The file's name.
    public static let fileName = "plugins.links.json"

    /// The folders to scan first: each linked library's folder, once, in link order.
    public var folders: [URL] {
        var seen: Set<String> = []
        return links.map { URL(fileURLWithPath: $0.library).deletingLastPathComponent() }.filter { seen.insert($0.path).inserted }
    }

    /// The link of plugin `id`.
    public func link(_ id: String) -> Link? { links.first { $0.id == id } }

    /// Reads the links in `folder`; an absent file is no links; anything else unreadable is
    /// `PluginInstallError.damagedLock` naming the file.
    public static func load(in folder: URL) throws -> PluginLinks {
        let url = folder.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else { return PluginLinks() }
        do {
            let links = try StrictJSON.decode(PluginLinks.self, from: data, strictAt: [[], ["links", "*"], ["links", "*", "granted"]])
            guard links.version == 1 else { throw PluginInstallError.damagedLock(file: url.path, problem: "links file version \(links.version) is not supported (expected 1)") }
            for link in links.links where !PluginInstaller.isUsableID(link.id) || !link.library.hasPrefix("/") {
                throw PluginInstallError.damagedLock(file: url.path, problem: "link '\(link.id)' has an unusable id or a relative library path")
            }
            for link in links.links {
                if let problem = link.granted?.problem { throw PluginInstallError.damagedLock(file: url.path, problem: "link '\(link.id)': \(problem)") }
            }
            return links
        } catch let error as PluginInstallError { throw error } catch {
            throw PluginInstallError.damagedLock(file: url.path, problem: JSONKeys.describe(error))
        }
    }

    func write(in folder: URL) throws {
        try AtomicFile.write(try StrictJSON.fileData(self), to: folder.appendingPathComponent(Self.fileName), sync: true)
    }
}

extension PluginInstaller {
    /// Links the built plugin of `project` (found as `plugins pack` finds it: `PluginProjectDescription`) after
    /// `check` accepted it; replaces an earlier link of the same id. Returns the link.
    ///
    /// Permissions the project declares (`folio-pack.json`'s `permissions`) are granted only when `consent` grants
    /// what they ask beyond the earlier link's grant.
    @discardableResult
    public func link(project: URL, consent: PluginPermissionConsent = { _ in false }, check: (URL) -> PluginProbeReport) throws -> PluginLinks.Link {
        let project = project.standardizedFileURL
        let description: PluginProjectDescription
        let library: URL
        do {
            description = try PluginProjectDescription.load(project)
            library = try description.libraryURL(in: project).standardizedFileURL
        } catch let error as PluginPackError { throw PluginInstallError.noLibrary(path: error.file, reason: error.problem) }
        try Self.checkHeader(library)
        let report = check(library)
        guard report.ok, let id = report.id else { throw PluginInstallError.refused(report.refusal ?? "\(library.path): plugin refused") }
        guard Self.isUsableID(id) else { throw PluginInstallError.unusableID(id) }
        func projectFolder(_ relative: String?, _ key: String) throws -> String? {
            let url: URL
            do { url = try PluginProjectDescription.inside(project, relative ?? key, key: key) } catch let error as PluginPackError {
                throw PluginInstallError.noLibrary(path: error.file, reason: error.problem)
            }
            var info = stat()
            return stat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR ? url.path : nil
        }
        var link = PluginLinks.Link(id: id, project: project.path, library: library.path,
                                    templates: try projectFolder(description.templates, "templates"), samples: try projectFolder(description.samples, "samples"))
        try withLock {
            var links = try PluginLinks.load(in: folder)
            let declared = description.permissions ?? .none
            if !declared.isEmpty {
                let request = PluginPermissionRequest(id: id, version: report.version ?? "", declared: declared,
                                                      previouslyGranted: links.link(id).map { $0.granted ?? .none })
                guard request.asked.isEmpty || consent(request) else { throw PluginPermissionsNotGranted(request: request) }
                link.granted = declared
            }
            links.links.removeAll { $0.id == id }
            links.links.append(link)
            try links.write(in: folder)
        }
        return link
    }

    /// Removes the link of plugin `id`; returns it, nil when there was none.
    @discardableResult
    public func unlink(id: String) throws -> PluginLinks.Link? {
        try withLock {
            var links = try PluginLinks.load(in: folder)
            guard let link = links.link(id) else { return nil }
            links.links.removeAll { $0.id == id }
            try links.write(in: folder)
            return link
        }
    }
}
