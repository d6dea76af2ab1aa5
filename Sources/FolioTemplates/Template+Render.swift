import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioMustache

extension Template {
    /// Renders every file of the template with `answers`: contents (text only) and path segments.
    ///
    /// Pure: the same template and answers always give the same files. A path segment that renders empty drops the
    /// file or folder; binary files and `copyOnly` matches are copied byte for byte; the exec bit and links are kept.
    /// Paths that would leave the document, enter `.git` or `.folio`, or links pointing outside are refused.
    public func render(answers: [String: JSONValue]) throws -> [DocumentFile] {
        try renderWithSources(answers: answers).map(\.file)
    }

    /// `render(answers:)`, each file with the template file it came from (its path under `files/`).
    ///
    /// `rendered`, when given, receives the files in batches as their contents are ready (before links are checked
    /// against each other), for a caller that starts writing them meanwhile.
    public func renderWithSources(answers: [String: JSONValue],
                                  rendered: (([DocumentFile]) -> Void)? = nil) throws -> [(file: DocumentFile, source: String)] {
        if let copier {
            let out = try renderCopier(copier, answers: answers)
            rendered?(out.map(\.file))
            return out
        }
        if let cookiecutter {
            let out = try renderCookiecutter(cookiecutter, answers: answers)
            rendered?(out.map(\.file))
            return out
        }
        if manifest.templateLanguage == .jinja {
            let out = try renderJinja(answers: answers)
            rendered?(out.map(\.file))
            return out
        }
        let context = renderContext(answers)
        let options = MustacheRenderOptions(strict: false, escapeHTML: false, limits: renderLimits)
        let exclude = manifest.exclude
        let copyOnly = manifest.copyOnly
        let kept = files.filter { file in !exclude.contains { Glob.matches($0, path: file.path) } }

        // Paths first (cheap, shared segments rendered once).
        var segmentCache: [String: String] = [:]
        // Each file's description for errors is built once here (string concatenation showed in profiles).
        var planned: [(file: TemplateFile, path: String, where_: String)] = []
        planned.reserveCapacity(kept.count)
        let filesFolder = describe("files/")
        for file in kept {
            let where_ = filesFolder + file.path
            guard let rendered = try renderPath(file.path, context: context, options: options, cache: &segmentCache, where_: where_) else { continue }
            planned.append((file, rendered, where_))
        }
        try Self.checkLayout(planned.map { ($0.path, $0.file.isSymlink, $0.where_) })

        // Contents, in parallel when there are many.
        let partials = self.partials
        let template = self
        let jobs = planned
        let renderOne = { @Sendable (index: Int) -> Result<DocumentFile, any Error> in
            let (file, path, where_) = jobs[index]
            return Result {
                if file.isSymlink {
                    let target = String(decoding: file.data, as: UTF8.self)
                    try Self.checkLink(target: target, sourcePath: file.path, outputPath: path, where_: where_)
                    return DocumentFile(path: path, data: Data(), symlinkTarget: target)
                }
                let executable = file.mode == 0o100755
                if copyOnly.contains(where: { Glob.matches($0, path: file.path) }) || Self.holdsNUL(file.data) {
                    return DocumentFile(path: path, data: file.data, executable: executable)
                }
                // Bytes, not a String: decoding and searching through Foundation cost more than the render.
                guard let source = Self.templateSource(file.data) else {
                    return DocumentFile(path: path, data: file.data, executable: executable)
                }
                if !Self.holdsOpenTag(source.bytes, isASCII: source.isASCII) {
                    return DocumentFile(path: path, data: file.data, executable: executable)
                }
                let mustache = try MustacheTemplate(utf8: source.bytes, name: where_)
                let output = try mustache.renderUTF8(context, partials: partials, options: options)
                return DocumentFile(path: path, data: Data(output), executable: executable)
            }
        }
        // In batches when someone writes them meanwhile (each batch still rendered in parallel), else all at once.
        let batch = rendered == nil ? max(planned.count, 1) : 128
        var out: [DocumentFile] = []
        out.reserveCapacity(planned.count)
        for start in stride(from: 0, to: planned.count, by: batch) {
            let count = min(batch, planned.count - start)
            let results = parallelMap(count, serialBelow: 64) { renderOne(start + $0) }
            var files: [DocumentFile] = []
            files.reserveCapacity(count)
            for result in results {
                switch result {
                case let .success(file): files.append(file)
                case let .failure(error): throw error
                }
            }
            rendered?(files)
            out += files
        }
        let sources = Dictionary(planned.map { ($0.path, $0.where_) }, uniquingKeysWith: { first, _ in first })
        try Self.checkLinkChains(out) { sources[$0] ?? $0 }
        return zip(out, planned).map { ($0, $1.file.path) }
    }

    /// The bytes of a text file as the renderer reads them, and whether they are all ASCII: nil when they are not
    /// UTF-8 (the file is then copied), without a leading byte order mark (as `String(data:encoding:)` dropped it).
    static func templateSource(_ data: Data) -> (bytes: [UInt8], isASCII: Bool)? {
        var bytes = [UInt8](data)
        if isASCII(bytes) { return (bytes, true) }
        guard String(validating: bytes, as: UTF8.self) != nil else { return nil }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        return (bytes, false)
    }

    /// Whether every byte is below 0x80.
    static func isASCII(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var any: UInt8 = 0
            for byte in buffer { any |= byte }
            return any < 0x80
        }
    }

    /// Whether UTF-8 `bytes` hold `{{` as Foundation's `String.contains` finds it (the test this replaces): in ASCII
    /// a byte search says the same; otherwise Foundation is asked, since it does not see `{{` when a combining mark
    /// follows it (that text was copied, not rendered, and still is).
    static func holdsOpenTag(_ bytes: [UInt8], isASCII: Bool) -> Bool {
        guard isASCII else { return String(decoding: bytes, as: UTF8.self).contains("{{") }
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            var i = 0
            while i + 1 < buffer.count, let hit = memchr(base + i, Int32(UInt8(ascii: "{")), buffer.count - i - 1) {
                i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
                if buffer[i] == UInt8(ascii: "{") { return true }
            }
            return false
        }
    }

    /// Whether `data` holds a NUL byte (binary), with one `memchr` rather than a byte-by-byte iterator.
    static func holdsNUL(_ data: Data) -> Bool {
        data.withUnsafeBytes { buffer in buffer.baseAddress.map { memchr($0, 0, buffer.count) != nil } ?? false }
    }

    /// The most links one path may pass through (Linux's `MAXSYMLINKS`).
    static let maxLinkHops = 40

    /// Resolves every link among `files` as the file system will once they are written, following the other links
    /// it passes through (`b -> .` then `a -> b/..`), and refuses one that ends outside the document, in `.git` or
    /// `.folio`, or loops. `where_` names a file's template source for errors.
    static func checkLinkChains(_ files: [DocumentFile], where_: (String) -> String) throws {
        var links: [String: String] = [:]
        for file in files { if let target = file.symlinkTarget { links[file.path] = target } }
        for (path, target) in links.sorted(by: { $0.key < $1.key }) {
            func refuse(_ why: String) -> TemplateError { TemplateError(where_(path), "link to '\(target)' \(why)", kind: .refusedPath) }
            var resolved = path.split(separator: "/").dropLast().map(String.init)
            var remaining = target.split(separator: "/").reversed().map(String.init)
            var hops = 0
            while let part = remaining.popLast() {
                if part == "." { continue }
                if part == ".." {
                    if resolved.isEmpty { throw refuse("resolves outside the document (through the links it passes)") }
                    resolved.removeLast()
                    continue
                }
                resolved.append(part)
                guard let next = links[resolved.joined(separator: "/")] else { continue }
                hops += 1
                if hops > maxLinkHops { throw refuse("passes through more than \(maxLinkHops) links (a loop)") }
                if next.hasPrefix("/") || next.hasPrefix("~") { throw refuse("resolves to an absolute path through '\(resolved.joined(separator: "/"))'") }
                resolved.removeLast()
                remaining.append(contentsOf: next.split(separator: "/").reversed().map(String.init))
            }
            if let first = resolved.first.map({ trimmingTrailingDotsAndSpaces($0.lowercased()) }), first == ".git" || first == ".folio" {
                throw refuse("resolves into .git or .folio")
            }
            if resolved.contains(where: { trimmingTrailingDotsAndSpaces($0.lowercased()) == ".git" }) { throw refuse("resolves into a .git folder") }
        }
    }

    /// The primary file's path rendered with `answers`, or nil when the template names none.
    public func renderPrimaryFile(answers: [String: JSONValue]) throws -> String? {
        guard let primary = manifest.primaryFile else { return nil }
        if manifest.templateLanguage == .jinja {
            let environment = jinjaEnvironment()
            return try jinjaPath(primary, context: jinjaContext(answers), environment: environment, where_: describe("template.json") + " (primaryFile)")
        }
        var cache: [String: String] = [:]
        let options = MustacheRenderOptions(strict: false, escapeHTML: false, limits: renderLimits)
        return try renderPath(primary, context: renderContext(answers), options: options, cache: &cache,
                              where_: describe("template.json") + " (primaryFile)")
    }

    /// The data templates see: the answers, plus for each choice and multichoice answer a flag
    /// `<name>_<choice>` (non-alphanumerics in the choice become `_`), e.g. `license_Apache_2_0`, for sections.
    func renderContext(_ answers: [String: JSONValue]) -> MustacheValue {
        Self.mustacheValue(renderContextJSON(answers))
    }

    /// `renderContext` as JSON (the answers and the choice flags), for either language.
    func renderContextJSON(_ answers: [String: JSONValue]) -> JSONValue {
        var values = answers
        for variable in manifest.variables where variable.type == .choice || variable.type == .multichoice {
            let picked: [String]
            switch answers[variable.name] {
            case let .string(s)?: picked = [s]
            case let .array(items)?: picked = items.compactMap(\.stringValue)
            default: picked = []
            }
            for choice in variable.choices ?? [] {
                let key = variable.name + "_" + String(choice.map { $0.isLetter || $0.isNumber ? $0 : "_" })
                if values[key] == nil { values[key] = .bool(picked.contains(choice)) }
            }
        }
        return .object(values)
    }

    /// Renders each segment of `path`; nil when a segment renders empty (the file is dropped).
    func renderPath(_ path: String, context: MustacheValue, options: MustacheRenderOptions, cache: inout [String: String], where_: String) throws -> String? {
        if Self.isPlainPath(path) {
            // No tag and no empty part: it renders to itself.
            try Self.checkPath(path, where_: where_)
            return path
        }
        var segments: [String] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
            let raw = String(segment)
            let rendered: String
            if !Self.holdsOpenTag(Array(segment.utf8), isASCII: segment.utf8.allSatisfy { $0 < 0x80 }) {
                rendered = raw
            } else if let hit = cache[raw] {
                rendered = hit
            } else {
                // A file name cannot hold '/', so closing tags in path segments are written `{{%2Fname}}`.
                let source = raw.replacing("{{%2F", with: "{{/").replacing("{{%2f", with: "{{/")
                rendered = try MustacheTemplate(source, name: where_).render(context, partials: partials, options: options)
                cache[raw] = rendered
            }
            if rendered.isEmpty { return nil }
            segments.append(rendered)
        }
        let result = segments.joined(separator: "/")
        try Self.checkPath(result, where_: where_)
        return result
    }

    /// Whether `path` holds no `{{` and no empty part (those render to themselves, segment by segment).
    static func isPlainPath(_ path: String) -> Bool {
        var previous: UInt8 = UInt8(ascii: "/")
        for byte in path.utf8 {
            if byte == UInt8(ascii: "{") && previous == UInt8(ascii: "{") { return false }
            if byte == UInt8(ascii: "/") && previous == UInt8(ascii: "/") { return false }
            previous = byte
        }
        return previous != UInt8(ascii: "/")
    }

    /// Refuses a rendered path that is absolute, climbs with `..`, hides them behind percent-encoding or
    /// backslashes, or enters `.git` / `.folio`.
    static func checkPath(_ path: String, where_: String) throws {
        func refuse(_ why: String) -> TemplateError { TemplateError(where_, "rendered path '\(path)' \(why)", kind: .refusedPath) }
        if try checkPlainPath(path, refuse) { return }
        if path.hasPrefix("/") || path.hasPrefix("~") { throw refuse("is absolute") }
        if path.contains("\\") { throw refuse("contains a backslash") }
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { throw refuse("contains a control character") }
        let decoded = PercentEncoding.decoded(path) ?? path
        for candidate in [path, decoded] {
            if candidate.hasPrefix("/") { throw refuse("is absolute") }
            if candidate.contains("\\") { throw refuse("contains a backslash") }
            for segment in candidate.split(separator: "/", omittingEmptySubsequences: false) {
                if segment.isEmpty { throw refuse("has an empty part") }
                if segment == "." || segment == ".." { throw refuse("leaves the document's folder ('\(segment)')") }
                // `.git`, `.GIT`, `.git.` and `.git ` all name the git folder on some file system.
                let bare = segment.lowercased().trimming(ScalarSet(charactersIn: ". "))
                let trimmed = trimmingTrailingDotsAndSpaces(segment.lowercased())
                if trimmed == ".git" || bare == "git" && segment.hasPrefix(".") { throw refuse("would write into .git") }
                if trimmed == ".folio" { throw refuse("would write into .folio (managed by Folio)") }
            }
        }
        if decoded != path { throw refuse("contains percent-encoding") }
    }

    /// `checkPath` for the usual path, plain ASCII without `%`, on its bytes (no Foundation, no lowercased copies):
    /// the same refusals in the same order. False when the path is not such a path (the general check then runs).
    private static func checkPlainPath(_ path: String, _ refuse: (String) -> TemplateError) throws -> Bool {
        var path = path
        return try path.withUTF8 { bytes -> Bool in
            for byte in bytes where byte >= 0x80 || byte == UInt8(ascii: "%") { return false }
            if let first = bytes.first, first == UInt8(ascii: "/") || first == UInt8(ascii: "~") { throw refuse("is absolute") }
            if bytes.contains(UInt8(ascii: "\\")) { throw refuse("contains a backslash") }
            if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) { throw refuse("contains a control character") }
            for segment in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
                try checkPlainSegment(segment, refuse)
            }
            return true
        }
    }

    /// One segment of a plain ASCII path: not empty, `.`, `..`, `.git` or `.folio` (in any case, with trailing dots
    /// and spaces), nor `.git` hidden among leading dots and spaces.
    private static func checkPlainSegment(_ segment: Slice<UnsafeBufferPointer<UInt8>>, _ refuse: (String) -> TemplateError) throws {
        let dot = UInt8(ascii: "."), space = UInt8(ascii: " ")
        if segment.isEmpty { throw refuse("has an empty part") }
        if segment.elementsEqual([dot]) || segment.elementsEqual([dot, dot]) {
            throw refuse("leaves the document's folder ('\(String(decoding: segment, as: UTF8.self))')")
        }
        func lower(_ byte: UInt8) -> UInt8 { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte }
        var end = segment.endIndex
        while end > segment.startIndex && (segment[end - 1] == dot || segment[end - 1] == space) { end -= 1 }
        var start = segment.startIndex
        while start < end && (segment[start] == dot || segment[start] == space) { start += 1 }
        let trimmed = segment[segment.startIndex..<end].lazy.map(lower)
        let bare = segment[start..<end].lazy.map(lower)
        if trimmed.elementsEqual(".git".utf8) || bare.elementsEqual("git".utf8) && segment.first == dot { throw refuse("would write into .git") }
        if trimmed.elementsEqual(".folio".utf8) { throw refuse("would write into .folio (managed by Folio)") }
    }

    /// Refuses two files rendering to one path, a file where a folder is needed, and files under a link.
    static func checkLayout(_ entries: [(path: String, isLink: Bool, where_: String)]) throws {
        var byPath: [String: String] = [:]
        byPath.reserveCapacity(entries.count)
        var links: Set<String> = []
        for entry in entries {
            if let other = byPath[entry.path] {
                throw TemplateError(entry.where_, "renders to '\(entry.path)', as \(other) does", kind: .refusedPath)
            }
            byPath[entry.path] = entry.where_
            if entry.isLink { links.insert(entry.path) }
        }
        for entry in entries {
            var folder = Substring(entry.path)
            // Over UTF-8 for an ASCII path (a search by Character breaks graphemes at every step back).
            let isASCII = entry.path.utf8.allSatisfy { $0 < 0x80 }
            while let slash = isASCII ? folder.utf8.lastIndex(of: UInt8(ascii: "/")) : folder.lastIndex(of: "/") {
                folder = folder[..<slash]
                let name = String(folder)
                if links.contains(name) { throw TemplateError(entry.where_, "would be written through the link '\(name)'", kind: .refusedPath) }
                if let other = byPath[name] { throw TemplateError(entry.where_, "needs '\(name)' to be a folder, but \(other) is a file there", kind: .refusedPath) }
            }
        }
    }

    /// A link must stay inside the template (from where it is stored) and inside the document (from where it lands).
    static func checkLink(target: String, sourcePath: String, outputPath: String, where_: String) throws {
        func refuse(_ why: String) -> TemplateError { TemplateError(where_, "link to '\(target)' \(why)", kind: .refusedPath) }
        if target.isEmpty || target.hasPrefix("/") || target.hasPrefix("~") { throw refuse("points outside the template (absolute)") }
        if target.contains("\\") || target.contains("\0") { throw refuse("contains a backslash or NUL") }
        for (base, what) in [(sourcePath, "the template"), (outputPath, "the document")] {
            var stack = base.split(separator: "/").dropLast().map(String.init)
            for part in target.split(separator: "/") {
                if part == "." { continue }
                if part == ".." {
                    if stack.isEmpty { throw refuse("points outside \(what)") }
                    stack.removeLast()
                } else {
                    let lower = trimmingTrailingDotsAndSpaces(part.lowercased())
                    if lower == ".git" || (stack.isEmpty && lower == ".folio") { throw refuse("points into .git or .folio") }
                    stack.append(String(part))
                }
            }
        }
    }

    /// Converts JSON answers to the Mustache engine's values.
    static func mustacheValue(_ value: JSONValue) -> MustacheValue {
        switch value {
        case .null: return .null
        case let .bool(b): return .bool(b)
        case let .number(n): return n == n.rounded() && abs(n) < 1e15 ? .int(Int(n)) : .double(n)
        case let .string(s): return .string(s)
        case let .array(items): return .array(items.map(mustacheValue))
        case let .object(members): return .object(members.mapValues(mustacheValue))
        }
    }
}

/// Glob matching for `exclude` and `copyOnly`: `*` and `?` within a segment, `**` across segments; a pattern
/// that matches a folder matches everything in it; a pattern without `/` matches a file name at any depth.
enum Glob {
    static func matches(_ pattern: String, path: String) -> Bool {
        if pattern.isEmpty { return false }
        let p = pattern.hasPrefix("/") ? String(pattern.dropFirst()) : pattern
        let segments = path.split(separator: "/").map(String.init)
        let patternParts = p.split(separator: "/").map(String.init)
        if !p.contains("/") {
            // A bare name: any segment (file or folder name) may match.
            return segments.contains { fnmatch(p, $0, 0) == 0 }
        }
        // A path pattern: it matches the whole path or any leading folder of it.
        for length in 1...max(1, segments.count) where length <= segments.count {
            if match(patternParts[...], segments[0..<length]) { return true }
        }
        return false
    }

    private static func match(_ pattern: ArraySlice<String>, _ path: ArraySlice<String>) -> Bool {
        guard let first = pattern.first else { return path.isEmpty }
        if first == "**" {
            let rest = pattern.dropFirst()
            var index = path.startIndex
            while true {
                if match(rest, path[index...]) { return true }
                if index == path.endIndex { return false }
                index += 1
            }
        }
        guard let head = path.first, fnmatch(first, head, 0) == 0 else { return false }
        return match(pattern.dropFirst(), path.dropFirst())
    }
}

/// `name` without trailing dots and spaces (which some file systems ignore, so `.git. ` would mean `.git`).
func trimmingTrailingDotsAndSpaces(_ name: String) -> String {
    var end = name.endIndex
    while end > name.startIndex {
        let previous = name.index(before: end)
        guard name[previous] == "." || name[previous] == " " else { break }
        end = previous
    }
    return String(name[..<end])
}
