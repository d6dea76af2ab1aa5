import CGit2
import FoundationEssentials
import Glibc

extension Repository {
    /// Runs `body` with a second handle on this repository whose new objects are kept in memory, then writes them
    /// all as one pack (libgit2's mempack backend and indexer): creating a 300-file project writes one pack instead
    /// of hundreds of loose objects. Objects `body` writes are readable through the handle it gets; refs pointing at
    /// them are fine once it returns. Only the commits `body` writes, and what they reach, are kept (libgit2's
    /// mempack dump packs commits), so `body` writes the commit of its tree itself; a blob or tree no commit written
    /// there reaches is dropped. libgit2 cannot take a backend off an object database again, so the in-memory
    /// one goes on that second handle, which is dropped afterwards: objects written later through this handle go
    /// to disk as usual (they would otherwise land in memory and be lost).
    ///
    /// `writer`, when given, is that second handle opened ahead (on another thread, while the caller did other work);
    /// it must be a handle of its own on this repository and is used for nothing else afterwards.
    public func writingObjectsAsOnePack<R>(using writer: Repository? = nil, _ body: (Repository) throws -> R) throws -> R {
        if let writer, writer === self || writer.gitDirectory.standardizedFileURL != gitDirectory.standardizedFileURL {
            throw GitError(operation: "start in-memory pack", subject: displayPath, message: "the writer must be another handle on this repository")
        }
        let writer = try writer ?? Repository.open(at: gitDirectory)
        var odb: OpaquePointer?
        try check(git_repository_odb(&odb, writer.pointer), "open object database", displayPath)
        defer { git_odb_free(odb) }
        var backend: UnsafeMutablePointer<git_odb_backend>?
        try check(git_mempack_new(&backend), "start in-memory pack", displayPath)
        // The object database owns and frees the backend from here on.
        try check(git_odb_add_backend(odb, backend, 999), "add in-memory pack", displayPath)
        let result = try body(writer)
        var pack = git_buf()
        defer { git_buf_dispose(&pack) }
        try check(git_mempack_dump(&pack, writer.pointer, backend), "dump in-memory pack", displayPath)
        var stream: UnsafeMutablePointer<git_odb_writepack>?
        try check(git_odb_write_pack(&stream, odb, nil, nil), "start pack", displayPath)
        guard let stream else { throw GitError(operation: "start pack", subject: displayPath, message: "no pack writer") }
        defer { stream.pointee.free(stream) }
        var stats = git_indexer_progress()
        if let data = pack.ptr, pack.size > 0 {
            try check(stream.pointee.append(stream, data, pack.size, &stats), "write pack", displayPath)
        }
        try check(stream.pointee.commit(stream, &stats), "index pack", displayPath)
        _ = git_mempack_reset(backend)
        return result
    }
}

extension Repository {
    /// Writes new loose objects with zlib level 1, git's own default for loose objects (`core.looseCompression`),
    /// where libgit2's default backend uses level 6 (much faster for a large document: Benchmarks/README.md), and the
    /// objects are packed (with deltas) later anyway. `fsync` follows the document's durability setting.
    ///
    /// The repository gets an object database of its own holding just this loose backend and the pack backend
    /// (libgit2's default order: packs searched first). Adding the writer beside libgit2's own loose backend
    /// instead would make every write check for an existing loose copy twice. A repository with alternates
    /// keeps its database (which reads them) and gets the writer added on top.
    public func useFastLooseObjects(fsync: Bool) throws {
        let objects = gitDirectoryPath + "objects"
        var loose: UnsafeMutablePointer<git_odb_backend>?
        try check(git_odb_backend_loose(&loose, objects, 1, fsync ? 1 : 0, 0, 0), "open loose objects", displayPath)
        var odb: OpaquePointer?
        if access(objects + "/info/alternates", F_OK) == 0 {
            try check(git_repository_odb(&odb, pointer), "open object database", displayPath)
            defer { git_odb_free(odb) }
            // Above libgit2's own loose (1) and pack (2) backends, so writes come here; the database owns it.
            try check(git_odb_add_backend(odb, loose, 3), "add loose objects", displayPath)
            return
        }
        try check(git_odb_new(&odb), "make object database", displayPath)
        defer { git_odb_free(odb) }  // the repository keeps its own reference
        // From here on the database owns and frees each backend.
        try check(git_odb_add_backend(odb, loose, 1), "add loose objects", displayPath)
        var packs: UnsafeMutablePointer<git_odb_backend>?
        try check(git_odb_backend_pack(&packs, objects), "open packs", displayPath)
        try check(git_odb_add_backend(odb, packs, 2), "add packs", displayPath)
        try check(git_repository_set_odb(pointer, odb), "use object database", displayPath)
    }
}
