import CGit2

extension Repository {
    /// The sizes in bytes of `ids` (blobs), read from the object headers without inflating the contents.
    public func objectSizes(_ ids: [ObjectID]) throws -> [ObjectID: Int] {
        var odb: OpaquePointer?
        try check(git_repository_odb(&odb, pointer), "open object database", displayPath)
        defer { git_odb_free(odb) }
        var sizes: [ObjectID: Int] = [:]
        for id in ids where sizes[id] == nil {
            var size = 0
            var type = GIT_OBJECT_INVALID
            try id.withOID { try check(git_odb_read_header(&size, &type, odb, $0), "read object header", id.hex) }
            sizes[id] = size
        }
        return sizes
    }
}
