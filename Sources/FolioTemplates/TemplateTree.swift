import FoundationEssentials
import Glibc
import FolioGit

/// What listing and loading templates read: a commit's tree in a git repository, or a plain folder whose last
/// snapshot is current (`FolderTemplateTree`), read straight from its files without waiting for libgit2.
protocol TemplateTree {
    /// What the tree is, for errors: "tree <id>" or "folder <path>".
    var name: String { get }
    /// Every file and link below `folder` ("" for the whole tree), with paths relative to it.
    func files(under folder: String) throws -> [TreeEntry]
    /// The file or link at `path`, nil when there is none.
    func file(atPath path: String) throws -> TreeEntry?
    /// The contents of `entries`, in order (a link's contents are its target).
    func contents(of entries: [TreeEntry]) throws -> [Data]
}

/// A commit's tree in a repository (the handle is used by the calling thread only).
struct GitTemplateTree: TemplateTree {
    let repository: Repository
    let tree: ObjectID

    var name: String { "tree \(tree.hex)" }

    func files(under folder: String) throws -> [TreeEntry] {
        folder.isEmpty ? try repository.files(inTree: tree) : try repository.files(under: folder, inTree: tree)
    }

    func file(atPath path: String) throws -> TreeEntry? {
        guard let entry = try repository.entry(atPath: path, inTree: tree), entry.kind == .blob else { return nil }
        return entry
    }

    func contents(of entries: [TreeEntry]) throws -> [Data] {
        try repository.readBlobs(entries.map(\.id))
    }
}

extension TemplateTree {
    /// The contents of `entries`, all at once; when that fails, again one by one, so that the error names the file
    /// (`name` of its entry). A folder that changed meanwhile is reported as such, for the caller to fall back.
    func contents(of entries: [TreeEntry], naming name: (TreeEntry) -> String) throws -> [Data] {
        do {
            return try contents(of: entries)
        } catch let error as FolderChanged {
            throw error
        } catch {
            return try entries.map { entry in try readingTemplate(name(entry)) { try contents(of: [entry]).first ?? Data() } }
        }
    }
}
