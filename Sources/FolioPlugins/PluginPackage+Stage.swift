import FolioCore
import FoundationEssentials
import FolioBasics
import Glibc

extension PluginPackage {
    /// How a package was given.
    enum Form {
        /// A ustar archive file.
        case archive
        /// A folder holding `folio-package.json`.
        case folder
    }

    /// The form of `source` when it is a package: a folder holding `folio-package.json`, or a file named `.tar` or
    /// whose first block has the ustar magic (an archive, checked when read); nil for anything else (a bare library,
    /// a folder without a package manifest, a file of another kind: refused as not a library).
    static func form(of source: URL) -> Form? {
        var info = stat()
        guard stat(source.path, &info) == 0 else { return nil }  // the path the user gave may be a link; entries may not
        if info.st_mode & S_IFMT == S_IFDIR {
            return FileManager.default.fileExists(atPath: source.appendingPathComponent(manifestName).path) ? .folder : nil
        }
        guard info.st_mode & S_IFMT == S_IFREG, source.pathExtension != "so" else { return nil }
        if source.pathExtension == "tar" { return .archive }
        let fd = open(source.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let first = try? PluginPackageArchive.readExactly(fd, PluginPackageArchive.block, what: "") else { return nil }
        return Array(first[257..<263]) == Array("ustar\0".utf8) ? .archive : nil
    }

    /// Copies the package at `source` into the empty folder `staging`, checking every entry on the way (paths, kinds,
    /// sizes: `PluginPackageRules`, `PluginPackageArchive`), and returns its parsed manifest after checking that the
    /// files it names are there. Nothing outside `staging` is written; on failure `staging` holds a partial copy the
    /// caller removes.
    static func stage(_ source: URL, form: Form, into staging: URL, limits: PluginPackageLimits) throws -> PluginPackage {
        var first = true
        let folder = { (path: String) throws in
            if first { throw PluginPackageArchive.Problem("its first entry is '\(PluginPackageRules.shown(path))', not \(manifestName)") }
            try makeFolder(staging, path)
        }
        let file = { (path: String, size: Int, next: () throws -> Data?) throws in
            if first && path != manifestName { throw PluginPackageArchive.Problem("its first entry is '\(PluginPackageRules.shown(path))', not \(manifestName)") }
            first = false
            try writeFile(staging, path, executable: !path.contains("/") && path.hasSuffix(".so"), next: next)
        }
        switch form {
        case .archive: try PluginPackageArchive.read(source, limits: limits, folder: folder, file: file)
        case .folder: try walk(source, limits: limits, folder: folder, file: file)
        }
        guard let data = FileManager.default.contents(atPath: staging.appendingPathComponent(manifestName).path) else {
            throw PluginPackageArchive.Problem("it has no \(manifestName)")
        }
        let package = try parse(data)
        for name in [package.library, package.readme, package.licence].compactMap({ $0 }) {
            var info = stat()
            guard lstat(staging.appendingPathComponent(name).path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                throw PluginPackageArchive.Problem("\(manifestName) names '\(PluginPackageRules.shown(name))', which the package does not hold")
            }
        }
        let libraries = ((try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []).filter { $0.hasSuffix(".so") }
        guard libraries == [package.library] else {
            throw PluginPackageArchive.Problem("it holds \(libraries.count) libraries (\(libraries.sorted().joined(separator: ", "))); a package holds exactly its one library")
        }
        return package
    }

    /// Hands the files and folders of a package folder to `folder` and `file`, manifest first, checking each with
    /// `lstat`: a symbolic link, device, FIFO or socket is refused, as in an archive.
    static func walk(_ root: URL, limits: PluginPackageLimits, folder: (String) throws -> Void,
                     file: (String, Int, () throws -> Data?) throws -> Void) throws {
        var count = 0, total = 0
        func visit(_ relative: String) throws {
            let names = try FileManager.default.contentsOfDirectory(atPath: relative.isEmpty ? root.path : root.appendingPathComponent(relative).path)
            let ordered = relative.isEmpty ? [manifestName] + names.filter { $0 != manifestName }.sorted() : names.sorted()
            for name in ordered {
                let path = relative.isEmpty ? name : relative + "/" + name
                try PluginPackageRules.check(path: path, limits: limits)
                var info = stat()
                guard lstat(root.appendingPathComponent(path).path, &info) == 0 else { throw PluginPackageArchive.Problem("cannot read '\(PluginPackageRules.shown(path))'") }
                count += 1
                guard count <= limits.maxEntries else { throw PluginPackageArchive.Problem("more than \(limits.maxEntries) entries") }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    try folder(path)
                    try visit(path)
                case S_IFREG:
                    let size = Int(info.st_size)
                    guard size <= limits.maxEntryBytes(path) else {
                        throw PluginPackageArchive.Problem("'\(PluginPackageRules.shown(path))' is \(size) bytes, over the limit of \(limits.maxEntryBytes(path)) bytes")
                    }
                    total += size
                    guard total <= limits.maxTotalBytes else { throw PluginPackageArchive.Problem("its files add up to more than \(limits.maxTotalBytes >> 20) MiB") }
                    try copyFile(root.appendingPathComponent(path), size: size, path: path, to: file)
                case S_IFLNK: throw PluginPackageArchive.Problem("'\(PluginPackageRules.shown(path))' is a symbolic link, not a file or folder")
                default: throw PluginPackageArchive.Problem("'\(PluginPackageRules.shown(path))' is not a file or folder")
                }
            }
        }
        try visit("")
    }

    /// Hands one regular file's bytes to `file` in chunks, refusing a file that changes size meanwhile.
    private static func copyFile(_ url: URL, size: Int, path: String, to file: (String, Int, () throws -> Data?) throws -> Void) throws {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw PluginPackageArchive.Problem("cannot open '\(PluginPackageRules.shown(path))'") }
        defer { close(fd) }
        var remaining = size
        try file(path, size) {
            guard remaining > 0 else { return nil }
            let chunk = min(remaining, 1 << 20)
            let bytes = try PluginPackageArchive.readExactly(fd, chunk, what: "'\(PluginPackageRules.shown(path))' (it shrank while being read)")
            remaining -= chunk
            return Data(bytes)
        }
    }

    /// Creates the folder `path` (and its parents) in `staging`, mode 0755.
    private static func makeFolder(_ staging: URL, _ path: String) throws {
        var built = staging
        for component in path.split(separator: "/") {
            built.appendPathComponent(String(component))
            if mkdir(built.path, 0o755) != 0 && errno != EEXIST {
                throw PluginPackageArchive.Problem("cannot create '\(PluginPackageRules.shown(path))' (\(String(cString: strerror(errno))))")
            }
            var info = stat()
            guard lstat(built.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                throw PluginPackageArchive.Problem("'\(PluginPackageRules.shown(path))' is both a file and a folder")
            }
        }
    }

    /// Writes a new file `path` in `staging` (never over an existing one, never through a link) from `next`'s chunks.
    private static func writeFile(_ staging: URL, _ path: String, executable: Bool, next: () throws -> Data?) throws {
        if let slash = path.lastIndex(of: "/") { try makeFolder(staging, String(path[..<slash])) }
        let target = staging.appendingPathComponent(path).path
        let fd = open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, executable ? 0o755 : 0o644)
        guard fd >= 0 else { throw PluginPackageArchive.Problem("cannot write '\(PluginPackageRules.shown(path))' (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        _ = fchmod(fd, executable ? 0o755 : 0o644)
        while let chunk = try next() {
            try chunk.withUnsafeBytes { buffer in
                var done = 0
                while done < buffer.count {
                    let wrote = write(fd, buffer.baseAddress! + done, buffer.count - done)
                    if wrote < 0 && errno == EINTR { continue }
                    guard wrote > 0 else { throw PluginPackageArchive.Problem("cannot write '\(PluginPackageRules.shown(path))' (\(String(cString: strerror(errno))))") }
                    done += wrote
                }
            }
        }
        guard fsync(fd) == 0 else { throw PluginPackageArchive.Problem("cannot write '\(PluginPackageRules.shown(path))' (fsync failed)") }
    }
}
