import FolioCore
import FolioPluginABI
import FolioBasics
import FolioPluginRuntime
import FoundationEssentials
import Glibc

/// A plugin library loaded into the process (`dlopen`ed once, never unloaded) and checked against its manifest.
public final class LoadedPlugin: @unchecked Sendable {
    /// The library file.
    public let library: URL
    /// The plugin's id, name and version as its descriptor states them.
    public let id: String
    public let name: String
    public let version: String
    /// The ABI version the plugin was built with.
    public let abiMajor: Int
    public let abiMinor: Int
    /// The editors it provides, described by the library itself.
    public let editors: [PluginEditor]

    private let handle: UnsafeMutableRawPointer

    private init(library: URL, handle: UnsafeMutableRawPointer, descriptor: UnsafePointer<folio_plugin_descriptor>) throws {
        self.library = library
        self.handle = handle
        let d = descriptor.pointee
        func refuse(_ reason: String) -> PluginRefusal { PluginRefusal(file: library.path, reason: reason) }
        guard let idPointer = d.id, let namePointer = d.name, let versionPointer = d.version else {
            throw refuse("the descriptor lacks an id, name or version")
        }
        id = String(cString: idPointer)
        name = String(cString: namePointer)
        version = String(cString: versionPointer)
        abiMajor = Int(d.abi_major)
        abiMinor = Int(d.abi_minor)
        guard d.editor_count <= 256 else { throw refuse("the descriptor claims \(d.editor_count) editors") }
        var editors: [PluginEditor] = []
        if d.editor_count > 0 {
            guard let list = d.editors else { throw refuse("the descriptor has no editor list") }
            for index in 0..<d.editor_count {
                guard let table = list[index] else { throw refuse("editor \(index + 1) is missing") }
                editors.append(try PluginEditor(table: table, pluginID: id, library: library))
            }
        }
        self.editors = editors
    }

    nonisolated(unsafe) private static var cache: [String: LoadedPlugin] = [:]
    private static let cacheLock = ThreadLock()

    /// Loads (once per process) and checks the library at `url`; throws a `PluginRefusal` naming the file.
    /// Nothing in the library runs before its ELF header is checked; only the entry function runs before its
    /// descriptor's magic, ABI major and size are checked.
    public static func load(_ url: URL) throws -> LoadedPlugin {
        let path = url.resolvingSymlinksInPath().path
        cacheLock.lock()
        defer { cacheLock.unlock() }
        if let loaded = cache[path] { return loaded }
        func refuse(_ reason: String) -> PluginRefusal { PluginRefusal(file: url.path, reason: reason) }

        try PluginFileChecks.checkSharedObject(url)
        try PluginFileChecks.checkPermissions(url)
        if let refusal = PluginRuntime.prepare(path, runtimeFolder: PluginRuntime.installedRuntimeFolder) { throw refuse(refusal) }
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let why = dlerror().map { String(cString: $0) } ?? "unknown reason"
            throw refuse("cannot load: \(why)")
        }
        // Never dlclose: a plugin's code may still be referenced (static tables, released buffers).
        guard let symbol = dlsym(handle, FOLIO_PLUGIN_ENTRY_SYMBOL) else {
            throw refuse("missing entry symbol '\(FOLIO_PLUGIN_ENTRY_SYMBOL)'")
        }
        let entry = unsafeBitCast(symbol, to: folio_plugin_entry_fn.self)
        guard let raw = entry() else { throw refuse("the entry function returned no descriptor") }
        // Check the fixed head field by field before trusting the rest of the layout.
        let head = UnsafeRawPointer(raw)
        let magic = head.loadUnaligned(as: UInt64.self)
        guard magic == FOLIO_PLUGIN_MAGIC else { throw refuse("the descriptor has a bad magic number (not a Folio plugin)") }
        let major = head.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
        let minor = head.loadUnaligned(fromByteOffset: 12, as: UInt32.self)
        guard major == UInt32(FOLIO_PLUGIN_ABI_MAJOR) else {
            throw refuse("built for plugin ABI \(major).\(minor), this Folio supports plugin ABI \(FOLIO_PLUGIN_ABI_MAJOR).\(FOLIO_PLUGIN_ABI_MINOR)")
        }
        let size = head.loadUnaligned(fromByteOffset: 16, as: UInt32.self)
        guard Int(size) >= MemoryLayout<folio_plugin_descriptor>.size else {
            throw refuse("the descriptor is \(size) bytes, ABI \(major).\(minor) needs at least \(MemoryLayout<folio_plugin_descriptor>.size)")
        }
        let loaded = try LoadedPlugin(library: url, handle: handle, descriptor: raw)
        cache[path] = loaded
        return loaded
    }

    /// The editor with `id`, if this plugin provides it.
    public func editor(_ id: String) -> PluginEditor? { editors.first { $0.id == id } }

    /// Fails unless the library says what its manifest says (id, ABI, editors, types, commands).
    public func check(against manifest: PluginManifest, manifestURL: URL) throws {
        try PluginManifestCheck.check(library: library, id: id, abiMajor: abiMajor, version: version, editors: editors.map(\.manifest),
                                      against: manifest, manifestURL: manifestURL)
    }
}

/// The check of what a library describes (loaded here or in a plugin host) against its manifest.
enum PluginManifestCheck {
    static func check(library: URL, id: String, abiMajor: Int, version: String, editors: [EditorManifest],
                      against manifest: PluginManifest, manifestURL: URL) throws {
        func refuse(_ reason: String) -> PluginRefusal {
            PluginRefusal(file: library.path, reason: "\(reason) (manifest \(manifestURL.path))")
        }
        if manifest.id != id { throw refuse("the library's id is '\(id)' but its manifest says '\(manifest.id)'") }
        if manifest.abi != abiMajor { throw refuse("the library is built for ABI \(abiMajor) but its manifest says \(manifest.abi)") }
        if manifest.version != version { throw refuse("the library's version is \(version) but its manifest says \(manifest.version)") }
        let libraryEditors = editors.map(\.id), manifestEditors = manifest.editors.map(\.id)
        if libraryEditors != manifestEditors {
            throw refuse("the library provides editors [\(libraryEditors.joined(separator: ", "))] but its manifest lists [\(manifestEditors.joined(separator: ", "))]")
        }
        for (loaded, listed) in zip(editors, manifest.editors) {
            if loaded.contentTypes != listed.contentTypes { throw refuse("editor '\(listed.id)' edits other content types than its manifest says") }
            if loaded.priority != listed.priority { throw refuse("editor '\(listed.id)' has priority \(loaded.priority.rawValue) but its manifest says \(listed.priority.rawValue)") }
            if loaded.commands.map(\.id) != listed.commands.map(\.id) { throw refuse("editor '\(listed.id)' has other commands than its manifest lists") }
            if loaded.declaredTypes.map(\.identifier) != listed.declaredTypes.map(\.identifier) { throw refuse("editor '\(listed.id)' declares other types than its manifest says") }
        }
    }
}

/// Checks on plugin files made before any of their code is loaded.
enum PluginFileChecks {
    /// Fails unless the file starts with the ELF magic.
    static func checkSharedObject(_ url: URL) throws {
        // O_NONBLOCK: opening a FIFO named like a library must not wait for a writer; only a regular file is read.
        let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw PluginRefusal(file: url.path, reason: "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw PluginRefusal(file: url.path, reason: "not a regular file") }
        var header = [UInt8](repeating: 0, count: 18)
        let count = header.withUnsafeMutableBytes { read(fd, $0.baseAddress, 18) }
        guard count >= 18, header[0] == 0x7F, header[1] == UInt8(ascii: "E"), header[2] == UInt8(ascii: "L"), header[3] == UInt8(ascii: "F") else {
            throw PluginRefusal(file: url.path, reason: "not a shared object (no ELF header)")
        }
        // e_type (little-endian on the platforms Folio runs on): 3 = ET_DYN.
        guard header[16] == 3, header[17] == 0 else {
            throw PluginRefusal(file: url.path, reason: "not a shared object (an ELF file of another kind)")
        }
    }

    /// Fails when the file or its folder can be written by group or others (anyone could swap the code).
    static func checkPermissions(_ url: URL) throws {
        let file = url.resolvingSymlinksInPath()
        for (what, path) in [("file", file.path), ("folder", file.deletingLastPathComponent().path)] {
            var info = stat()
            guard stat(path, &info) == 0 else {
                throw PluginRefusal(file: url.path, reason: "cannot inspect the \(what) \(path): \(String(cString: strerror(errno)))")
            }
            if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
                let mode = String(info.st_mode & 0o777, radix: 8)
                throw PluginRefusal(file: url.path, reason: "the \(what) \(path) is writable by \(info.st_mode & S_IWOTH != 0 ? "others" : "group") (mode \(mode))")
            }
        }
    }
}
