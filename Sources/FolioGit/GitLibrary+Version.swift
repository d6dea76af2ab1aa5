import CGit2

extension GitLibrary {
    /// The version of the libgit2 library Folio runs with (`git_libgit2_version`), as "MAJOR.MINOR.PATCH";
    /// "unknown" when libgit2 does not answer.
    public static var version: String {
        var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
        guard (try? check(git_libgit2_version(&major, &minor, &patch), "read the libgit2 version")) != nil else { return "unknown" }
        return "\(major).\(minor).\(patch)"
    }
}
