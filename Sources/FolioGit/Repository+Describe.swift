import CGit2
import FoundationEssentials

extension Repository {
    /// `git describe --tags --always` of `commit`: the nearest tag reachable from it (`v1.2.0` on the tag itself,
    /// `v1.2.0-3-gabc1234` three commits past it), else its abbreviated id; nil when the commit cannot be read.
    public func describeWithTags(_ commit: ObjectID) throws -> String? {
        var object: OpaquePointer?
        defer { git_object_free(object) }
        guard commit.withOID({ git_object_lookup(&object, pointer, $0, GIT_OBJECT_COMMIT) }) == 0 else { return nil }
        var options = git_describe_options()
        _ = try check(git_describe_options_init(&options, UInt32(GIT_DESCRIBE_OPTIONS_VERSION)), "describe options")
        options.describe_strategy = UInt32(GIT_DESCRIBE_TAGS.rawValue)
        options.show_commit_oid_as_fallback = 1
        var result: OpaquePointer?
        defer { git_describe_result_free(result) }
        _ = try check(git_describe_commit(&result, object, &options), "describe", commit.hex)
        var format = git_describe_format_options()
        _ = try check(git_describe_format_options_init(&format, UInt32(GIT_DESCRIBE_FORMAT_OPTIONS_VERSION)), "describe format options")
        format.abbreviated_size = 7
        var buffer = git_buf()
        defer { git_buf_dispose(&buffer) }
        _ = try check(git_describe_format(&buffer, result, &format), "describe", commit.hex)
        guard let text = buffer.ptr else { return nil }
        return String(cString: text)
    }
}
