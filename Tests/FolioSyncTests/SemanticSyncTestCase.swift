import FolioCore
import FolioGit
import FolioPlugins
import FolioSync
import FolioTestSupport
import Foundation
import XCTest

/// The set-up shared by the semantic-merge sync tests: a workspace, and two clones of one document whose
/// concurrent changes are pulled with the bundled editors' semantic merge.
class SemanticSyncTestCase: XCTestCase {
    var ws: SyncWorkspace!

    override func setUpWithError() throws {
        try super.setUpWithError()
        ws = try SyncWorkspace()
    }

    override func tearDown() {
        ws = nil
        super.tearDown()
    }

    func transfer() -> TransferOptions { TransferOptions(environment: ws.env) }

    /// A document `name` of `type` whose primary file holds `base`, pushed to the bare repository `repository`, and
    /// a clone of it (`NAME2`): both sides, and the primary file's name.
    func twoClones(_ name: String, type: ContentType, repository: String, base: Data) throws -> (a: Document, b: Document, file: String) {
        let bare = try ws.bareRepository(repository)
        let a = try ws.document(name, type: type)
        let file = a.metadata.primaryFile
        try a.write(base, to: file, message: "Base")
        try a.addRemote("origin", url: bare.path)
        try a.push(options: transfer())
        let b = try ws.store.clone(from: bare.path, to: ws.dir.path(name + "2"), options: transfer())
        return (a, b, file)
    }

    /// Concurrent changes to `file`: `a` commits `theirs` ("A") and `b` commits `ours` ("B"); `a` pushes, then `b`
    /// pulls with the semantic merge of the bundled editors.
    func pullMerging(_ b: Document, ours: Data, after a: Document, pushed theirs: Data, file: String) throws -> PullOutcome {
        try a.write(theirs, to: file, message: "A")
        try b.write(ours, to: file, message: "B")
        try a.push(options: transfer())
        let host = EditorRegistry(searchPath: PluginSearchPath(folders: [.init(productsDirectory, bundled: true)]))
        return try b.pull(options: SyncOptions(transfer: transfer(), semanticMerger: PluginSemanticMerger(host: host)))
    }
}
