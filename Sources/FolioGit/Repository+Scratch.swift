import CGit2
import FoundationEssentials
import Glibc

extension Repository {
    /// From now on, objects this handle writes are kept in memory only (libgit2's mempack backend, above every
    /// other) and vanish with the handle: for previews that build trees and merges but must store nothing.
    /// Use it only on a handle of its own, opened for the preview.
    public func keepNewObjectsInMemory() throws {
        var odb: OpaquePointer?
        try check(git_repository_odb(&odb, pointer), "open object database", displayPath)
        defer { git_odb_free(odb) }
        var backend: UnsafeMutablePointer<git_odb_backend>?
        try check(git_mempack_new(&backend), "start in-memory objects", displayPath)
        // The object database owns and frees the backend from here on.
        try check(git_odb_add_backend(odb, backend, 1000), "add in-memory objects", displayPath)
    }
}
