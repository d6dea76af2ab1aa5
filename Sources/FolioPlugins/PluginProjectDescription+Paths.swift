import FoundationEssentials
import Glibc

extension PluginProjectDescription {
    /// `relative` — a path `folio-pack.json` gives for `key`, or the default for it — inside `project`. Refused when it
    /// is absolute, holds a `..`, or leads out of the project through a link (the project's own links, such as
    /// SwiftPM's `.build/debug`, are followed as long as they stay inside). A path that does not exist is returned as
    /// it is (the caller says it is missing). Every path `pack` and `link` read from a project passes through here.
    static func inside(_ project: URL, _ relative: String, key: String) throws -> URL {
        let file = project.appendingPathComponent(fileName).path
        let components = relative.split(separator: "/", omittingEmptySubsequences: true)
        if relative.hasPrefix("/") {
            throw PluginPackError(file: file, problem: "'\(key)' is the absolute path '\(relative)'; paths are relative to the project")
        }
        if components.contains("..") {
            throw PluginPackError(file: file, problem: "'\(key)' is '\(relative)', which leaves the project ('..')")
        }
        let url = project.appendingPathComponent(relative)
        guard let real = realPath(url.path) else { return url }  // missing: named by the caller
        guard let root = realPath(project.path), real == root || real.hasPrefix(root == "/" ? "/" : root + "/") else {
            throw PluginPackError(file: file, problem: "'\(key)' ('\(relative)') leads out of the project through a link, to '\(real)'")
        }
        return url
    }

    /// The path with every link resolved, nil when it does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// What `plugins pack` made: the package file, its manifest, every file it holds (paths inside the package, in
/// order), and what the author should know about it.
public struct PackedPlugin: Sendable, Equatable {
    public let url: URL
    public let package: PluginPackage
    public let files: [String]
    public let warnings: [PackWarning]
}

/// Something a package is better without, said when it is packed (never a refusal).
public enum PackWarning: Sendable, Equatable, CustomStringConvertible {
    /// The library is SwiftPM's debug build (`.build/debug`): unoptimised, and larger.
    case debugBuild(library: String)
    /// The project has no licence file: whoever installs it cannot know the terms.
    case noLicence

    public var description: String {
        switch self {
        case let .debugBuild(library):
            return "\(library) is a debug build (unoptimised, and larger); pack a release build ('swift build -c release')"
        case .noLicence:
            return "no licence in the package (LICENSE, LICENCE or COPYING at the project's top, or \"licence\" in \(PluginProjectDescription.fileName)): others cannot know the terms they may use it under"
        }
    }

    /// The warnings for a package of `library` with `licence` (nil: none).
    static func all(library: URL, licence: URL?) -> [PackWarning] {
        var warnings: [PackWarning] = []
        if isDebugBuild(library) { warnings.append(.debugBuild(library: library.path)) }
        if licence == nil { warnings.append(.noLicence) }
        return warnings
    }

    /// Whether `library` lies in SwiftPM's debug build folder (`.build/debug`, or `.build/<triple>/debug` it links
    /// to). A C build cannot be told apart this way: its Makefile decides.
    static func isDebugBuild(_ library: URL) -> Bool {
        let components = library.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        guard let build = components.lastIndex(of: ".build") else { return false }
        return components[(build + 1)...].contains("debug")
    }
}

/// A plugin project's build and samples, as `plugins validate DIR` uses them.
public struct PluginProjectBuild: Sendable, Equatable {
    /// The built library, found as `pack` finds it (`folio-pack.json`'s `library`, else `build/`, `.build/release/`,
    /// `.build/debug/`).
    public let library: URL
    /// The sample documents: the regular files in the project's samples folder (`folio-pack.json`'s `samples`, else
    /// `samples/`), sorted; empty when it has none.
    public let samples: [URL]

    /// The build and samples of `project`, every path inside it (`PluginProjectDescription.inside`); throws
    /// `PluginInstallError.noLibrary` naming the file and the problem.
    public static func of(_ project: URL) throws -> PluginProjectBuild {
        do {
            let description = try PluginProjectDescription.load(project)
            let library = try description.libraryURL(in: project)
            let folder = try PluginProjectDescription.inside(project, description.samples ?? "samples", key: "samples")
            return PluginProjectBuild(library: library, samples: PluginPackageContents.sampleFiles(in: folder))
        } catch let error as PluginPackError {
            throw PluginInstallError.noLibrary(path: error.file, reason: error.problem)
        }
    }
}
