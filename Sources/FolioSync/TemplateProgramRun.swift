import FolioBasics
import FolioCore
import FolioDisplayWidth
import FolioPlugins
import FolioTemplates
import FoundationEssentials
import Glibc

/// A template's hooks or tasks that failed: which, how it ended, and the last lines it wrote (untrusted text,
/// shown as text).
public struct TemplateProgramFailed: Error, CustomStringConvertible, Sendable {
    public let program: String
    public let ending: String
    public let lastLines: [String]
    public var description: String {
        "\(program) failed (\(ending))" + (lastLines.isEmpty ? "" : ": " + lastLines.joined(separator: " | "))
    }
}

/// Runs a template's programs (cookiecutter's hooks, copier's tasks) confined, in a scratch copy of the project:
/// the files are written there, the programs run in it (reading the system and their scripts, writing only the
/// project and their own scratch folders, without network unless `network`, without the user's credentials, for
/// at most `timeout` each), and what they leave is read back as the files the document gets. Nothing a program does
/// reaches the document's `.git`, `.folio`, or anything outside; a program that fails stops everything.
public struct TemplateProgramRun {
    public var isolation: PluginIsolation
    public var environment: [String: String]
    public var network: Bool
    public var timeout: Duration
    /// The most files and bytes read back from the programs' project.
    public var maxFiles = 20_000
    public var maxBytes = 256 << 20

    public init(isolation: PluginIsolation, environment: [String: String], network: Bool = false, timeout: Duration = .seconds(120)) {
        self.isolation = isolation; self.environment = environment; self.network = network; self.timeout = timeout
    }

    /// What the programs printed (each line shown as text) and the files as they left them.
    public struct Result: Sendable {
        public var files: [DocumentFile]
        public var printed: [String]
    }

    public func run(_ programs: [TemplateProgram], files: [DocumentFile], projectName: String) throws -> Result {
        let scratch = try Scratch(environment: environment)
        defer { scratch.remove() }
        let project = scratch.root + "/" + (projectName.isEmpty || projectName.contains("/") ? "project" : projectName)
        try Scratch.makeFolder(project)
        var printed: [String] = []
        for program in programs where program.stage == .beforeFiles { printed += try run(program, in: project, scratch: scratch) }
        try Scratch.write(files, into: project)
        for program in programs where program.stage == .afterFiles { printed += try run(program, in: project, scratch: scratch) }
        return Result(files: try Scratch.read(project, maxFiles: maxFiles, maxBytes: maxBytes), printed: printed)
    }

    private func run(_ program: TemplateProgram, in project: String, scratch: Scratch) throws -> [String] {
        var arguments = program.arguments
        if let script = program.script {
            let path = scratch.root + "/scripts/" + script.name
            try Scratch.writeFile(path, Data(script.text.utf8), executable: true)
            arguments = arguments.map { $0 == TemplateProgram.scriptPlaceholder ? path : $0 }
        }
        var env = ConfinedProgram.withoutCredentials(environment)
        env["HOME"] = scratch.root + "/home"
        env["TMPDIR"] = scratch.root + "/tmp"
        for (name, value) in program.environment { env[name] = value }
        if let first = arguments.first, !first.contains("/") {
            guard let found = Self.systemProgram(first, path: environment["PATH"]) else {
                throw TemplateProgramFailed(program: program.name.shownAsText, ending: "not run",
                                            lastLines: ["no \(first.shownAsText) among the system's programs (\(ConfinedProgram.systemFolders.prefix(5).joined(separator: ", ")))"])
            }
            arguments[0] = found
        }
        let folder = program.folder.isEmpty ? project : project + "/" + program.folder
        let confined = ConfinedProgram(arguments: arguments, folder: folder, readable: ConfinedProgram.systemFolders + [scratch.root + "/scripts"],
                                       writable: [project, scratch.root + "/home", scratch.root + "/tmp", "/dev/null"],
                                       network: network, environment: env, timeout: timeout)
        let outcome = try confined.run(isolation: isolation)
        guard outcome.succeeded else {
            let text = outcome.errors.isEmpty ? outcome.output : outcome.errors
            let lines = text.split(whereSeparator: \.isNewline).map { String($0).shownAsText }.filter { !$0.isEmpty }
            throw TemplateProgramFailed(program: program.name.shownAsText, ending: outcome.ending(timeout: timeout), lastLines: Array(lines.suffix(3)))
        }
        return (outcome.output + outcome.errors).split(whereSeparator: \.isNewline).map { String($0).shownAsText }
    }

    /// `name` on `path` where it is one of the system's programs (it and what its link leads to under the folders a
    /// confined program may run from): a virtual environment's or a version manager's `python3` in the user's home
    /// would not start there, so the system's is taken, as cookiecutter's hooks expect.
    static func systemProgram(_ name: String, path: String?) -> String? {
        let folders = ConfinedProgram.systemFolders.map { $0 + "/" }
        let inside = { (file: String) in folders.contains { file.hasPrefix($0) } }
        for folder in (path ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            guard access(candidate, X_OK) == 0, inside(candidate), let real = realpath(candidate, nil) else { continue }
            defer { free(real) }
            if inside(String(cString: real)) { return candidate }
        }
        return nil
    }

    /// The changes that take `before` (the template's files) to `after` (what the programs left), for one commit.
    /// A link the programs made or changed is refused: hooks' links are not recorded.
    public static func changes(from before: [DocumentFile], to after: [DocumentFile]) throws -> [DocumentChange] {
        let old = Dictionary(before.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        let new = Dictionary(after.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        var out: [DocumentChange] = []
        for file in after.sorted(by: { $0.path < $1.path }) where old[file.path] != file {
            if let target = file.symlinkTarget {
                throw TemplateProgramFailed(program: "the template's programs", ending: "made the link \(file.path.shownAsText) → \(target.shownAsText)",
                                            lastLines: ["Folio does not record links made by hooks or tasks"])
            }
            out.append(.write(path: file.path, data: file.data, executable: file.executable))
        }
        for file in before.sorted(by: { $0.path < $1.path }) where new[file.path] == nil { out.append(.delete(path: file.path)) }
        return out
    }
}

/// The scratch folder of one run: `project/`, `scripts/`, `home/`, `tmp/`, removed afterwards.
struct Scratch {
    let root: String

    init(environment: [String: String]) throws {
        let base = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/folio-programs-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw TemplateProgramFailed(program: "the template's programs", ending: "no scratch folder in \(base)", lastLines: [String(cString: strerror(errno))])
        }
        root = String(cString: made)
        for folder in ["scripts", "home", "tmp"] { try Self.makeFolder(root + "/" + folder) }
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }

    static func makeFolder(_ path: String) throws {
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw TemplateProgramFailed(program: "the template's programs", ending: "could not make \(path)", lastLines: ["\(error)"])
        }
    }

    static func writeFile(_ path: String, _ data: Data, executable: Bool) throws {
        do {
            try data.write(to: URL(fileURLWithPath: path))
            if executable { chmod(path, 0o755) }
        } catch {
            throw TemplateProgramFailed(program: "the template's programs", ending: "could not write \(path)", lastLines: ["\(error)"])
        }
    }

    static func write(_ files: [DocumentFile], into project: String) throws {
        for file in files {
            let path = project + "/" + file.path
            try makeFolder(String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]))
            if let target = file.symlinkTarget {
                guard symlink(target, path) == 0 else {
                    throw TemplateProgramFailed(program: "the template's programs", ending: "could not link \(file.path)", lastLines: [String(cString: strerror(errno))])
                }
            } else {
                try writeFile(path, file.data, executable: file.executable)
            }
        }
    }

    /// The project as the programs left it: regular files and links, `.git` (a hook's `git init`) left out.
    static func read(_ project: String, maxFiles: Int, maxBytes: Int) throws -> [DocumentFile] {
        var out: [DocumentFile] = []
        var bytes = 0
        func walk(_ relative: String) throws {
            let folder = relative.isEmpty ? project : project + "/" + relative
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for name in names.sorted() {
                let path = relative.isEmpty ? name : relative + "/" + name
                if relative.isEmpty && (name == ".git" || name == ".folio") { continue }
                var info = stat()
                guard lstat(folder + "/" + name, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: try walk(path)
                case S_IFLNK:
                    let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + name)) ?? ""
                    out.append(DocumentFile(path: path, data: Data(), symlinkTarget: target))
                case S_IFREG:
                    bytes += Int(info.st_size)
                    guard bytes <= maxBytes, out.count < maxFiles else {
                        throw TemplateProgramFailed(program: "the template's programs", ending: "left more than \(maxFiles) files or \(maxBytes >> 20) MiB", lastLines: [])
                    }
                    let data = (try? Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))) ?? Data()
                    out.append(DocumentFile(path: path, data: data, executable: info.st_mode & 0o100 != 0))
                default: continue  // sockets, fifos, devices are not document files
                }
            }
        }
        try walk("")
        return out
    }
}

/// The template sources whose hooks and tasks the user agreed to run (a yes on the terminal), kept in
/// `$XDG_STATE_HOME/folio/trusted-program-sources.json`: later templates from them run theirs without asking.
public struct TrustedProgramSources {
    let file: URL

    public init(environment: [String: String]) {
        file = FolioPaths(environment: environment).stateHome.appendingPathComponent("folio/trusted-program-sources.json")
    }

    public func contains(_ location: String) throws -> Bool { try LocationListFile(file).read().contains(location) }

    public func record(_ location: String) throws { try LocationListFile(file).append(location) }
}
