import FoundationEssentials

/// The path matching copier does: `Path.glob` for `!include`, gitignore's wildmatch (pathspec's `gitwildmatch`) for
/// `_exclude` and `_skip_if_exists`, and `Path.with_suffix("")` for `_templates_suffix`.
enum CopierPaths {
    /// Whether `path` matches the glob `pattern` part by part: `*`, `?` and `[…]` within a part, `**` any number of
    /// parts.
    static func glob(_ pattern: String, _ path: String) -> Bool {
        let p = pattern.split(separator: "/").filter { $0 != "." }.map(String.init)
        let s = path.split(separator: "/").map(String.init)
        return parts(p[...], s[...], globstar: true)
    }

    private static func parts(_ p: ArraySlice<String>, _ s: ArraySlice<String>, globstar: Bool) -> Bool {
        guard let first = p.first else { return s.isEmpty }
        if globstar, first == "**" {
            var rest = s
            while true {
                if parts(p.dropFirst(), rest, globstar: true) { return true }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        }
        guard let head = s.first, segment(first, head) else { return false }
        return parts(p.dropFirst(), s.dropFirst(), globstar: globstar)
    }

    /// fnmatch within one path part: `*`, `?`, `[seq]`, `[!seq]`.
    static func segment(_ pattern: String, _ text: String) -> Bool {
        CookiecutterTemplate.fnmatch(pattern, text)
    }

    /// One gitignore pattern, as pathspec compiles it.
    struct Wildmatch {
        let parts: [String]
        let anchored: Bool
        let directoryOnly: Bool
        let negated: Bool

        /// nil for a blank line or a comment.
        init?(_ line: String) {
            var text = Substring(line)
            while text.last == " ", !text.hasSuffix("\\ ") { text = text.dropLast() }
            guard !text.isEmpty, !text.hasPrefix("#") else { return nil }
            negated = text.hasPrefix("!")
            if negated { text = text.dropFirst() }
            if text.hasPrefix("\\") { text = text.dropFirst() }
            directoryOnly = text.hasSuffix("/")
            if directoryOnly { text = text.dropLast() }
            let inner = text.dropFirst().contains("/")
            anchored = text.hasPrefix("/") || inner
            parts = text.split(separator: "/").map(String.init)
            if parts.isEmpty { return nil }
        }

        /// Whether the file `path` is matched: itself, or one of the folders it is in (only those when the pattern
        /// ends in `/`). A pattern without a slash matches a part at any depth; one with a slash, from the root.
        func matches(_ path: String) -> Bool {
            let s = path.split(separator: "/").map(String.init)
            let count = directoryOnly ? s.count - 1 : s.count
            guard count > 0 else { return false }
            if !anchored { return s[0..<count].contains { CopierPaths.segment(parts[0], $0) } }
            return (1...count).contains { CopierPaths.parts(parts[...], s[0..<$0], globstar: true) }
        }
    }

    /// Whether `path` is matched by `patterns` (the last matching pattern decides; `!` re-includes).
    static func matches(_ patterns: [Wildmatch], _ path: String) -> Bool {
        var matched = false
        for pattern in patterns where pattern.negated == matched && pattern.matches(path) { matched = !pattern.negated }
        return matched
    }

    /// Python's `PurePath(name).with_suffix("")`: the name without its last extension (a leading dot is no extension).
    static func withoutSuffix(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex else { return name }
        return String(name[..<dot])
    }
}
