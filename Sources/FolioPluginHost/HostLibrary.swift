import FolioPluginABI
import FolioPluginRuntime
#if canImport(Glibc)
import Glibc
#endif

/// A refusal to load a library: the file and why (Folio prints "FILE: plugin refused: REASON").
struct HostRefusal: Error {
    let file: String
    let reason: String
}

/// A plugin's failure in a call: its ABI status and message.
struct HostCallFailure: Error {
    let status: Int64
    let message: String
}

/// A plugin library loaded into the host (`dlopen`ed once, never unloaded) whose descriptor passed the checks.
/// Nothing in the library runs before its ELF header and permissions are checked; only the entry function runs
/// before the descriptor's magic, ABI major and size are checked. Folio checks the description against the manifest.
struct HostLibrary {
    let path: String
    let id: String
    let name: String
    let version: String
    let abiMajor: UInt32
    let abiMinor: UInt32
    let editors: [HostEditor]

    /// Loads and checks the library at `path`. `binding` is the dlopen binding: RTLD_LAZY to run plugins (see below),
    /// RTLD_NOW for `--check`, so that a missing symbol is a refusal that names it.
    static func load(_ path: String, binding: Int32 = RTLD_LAZY) throws(HostRefusal) -> HostLibrary {
        func refuse(_ reason: String) -> HostRefusal { HostRefusal(file: path, reason: reason) }
        try checkSharedObject(path)
        let resolved = realpath(path, nil).map { pointer in defer { free(pointer) }; return String(cString: pointer) } ?? path
        try checkPermissions(path, resolved: resolved)
        // A Swift plugin: same toolchain as this host, and its runtime libraries from the host's own runtime folder.
        if let refusal = PluginRuntime.prepare(resolved, runtimeFolder: PluginRuntime.loadedRuntimeFolder) { throw refuse(refusal) }
        // Lazy binding: a Swift plugin brings thousands of function relocations against the Swift runtime (with
        // Foundation and ICU, before the plugins dropped them, binding all up front was a third of a host's start:
        // 17 → 11 ms of CPU), of which one view uses a few. A function symbol
        // missing at a call ends this process (status 127), which Folio reports like any crash; `folio plugins check`
        // (`--check`, HostCheck) loads with RTLD_NOW and names the symbol.
        guard let handle = dlopen(resolved, binding | RTLD_LOCAL) else {
            throw refuse("cannot load: \(dlerror().map { String(cString: $0) } ?? "unknown reason")")
        }
        guard let symbol = dlsym(handle, FOLIO_PLUGIN_ENTRY_SYMBOL) else { throw refuse("missing entry symbol '\(FOLIO_PLUGIN_ENTRY_SYMBOL)'") }
        let entry = unsafeBitCast(symbol, to: folio_plugin_entry_fn.self)
        guard let raw = entry() else { throw refuse("the entry function returned no descriptor") }
        // The fixed head, field by field, before trusting the rest of the layout.
        let head = UnsafeRawPointer(raw)
        guard head.loadUnaligned(as: UInt64.self) == FOLIO_PLUGIN_MAGIC else { throw refuse("the descriptor has a bad magic number (not a Folio plugin)") }
        let major = head.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
        let minor = head.loadUnaligned(fromByteOffset: 12, as: UInt32.self)
        guard major == UInt32(FOLIO_PLUGIN_ABI_MAJOR) else {
            throw refuse("built for plugin ABI \(major).\(minor), this Folio supports plugin ABI \(FOLIO_PLUGIN_ABI_MAJOR).\(FOLIO_PLUGIN_ABI_MINOR)")
        }
        let size = head.loadUnaligned(fromByteOffset: 16, as: UInt32.self)
        guard Int(size) >= MemoryLayout<folio_plugin_descriptor>.size else {
            throw refuse("the descriptor is \(size) bytes, ABI \(major).\(minor) needs at least \(MemoryLayout<folio_plugin_descriptor>.size)")
        }
        let d = raw.pointee
        guard let idPointer = d.id, let namePointer = d.name, let versionPointer = d.version else {
            throw refuse("the descriptor lacks an id, name or version")
        }
        guard d.editor_count <= 256 else { throw refuse("the descriptor claims \(d.editor_count) editors") }
        var editors: [HostEditor] = []
        if d.editor_count > 0 {
            guard let list = d.editors else { throw refuse("the descriptor has no editor list") }
            for index in 0..<d.editor_count {
                guard let table = list[index] else { throw refuse("editor \(index + 1) is missing") }
                editors.append(try HostEditor(table: table, library: path))
            }
        }
        return HostLibrary(path: path, id: String(cString: idPointer), name: String(cString: namePointer),
                           version: String(cString: versionPointer), abiMajor: major, abiMinor: minor, editors: editors)
    }

    /// Fails unless the file starts with the ELF magic of a shared object.
    private static func checkSharedObject(_ path: String) throws(HostRefusal) {
        // O_NONBLOCK: opening a FIFO named like a library must not wait for a writer; only a regular file is read.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw HostRefusal(file: path, reason: "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw HostRefusal(file: path, reason: "not a regular file") }
        var header = [UInt8](repeating: 0, count: 18)
        let count = header.withUnsafeMutableBytes { read(fd, $0.baseAddress, 18) }
        guard count >= 18, header[0] == 0x7F, header[1] == UInt8(ascii: "E"), header[2] == UInt8(ascii: "L"), header[3] == UInt8(ascii: "F") else {
            throw HostRefusal(file: path, reason: "not a shared object (no ELF header)")
        }
        guard header[16] == 3, header[17] == 0 else {  // e_type ET_DYN (little-endian)
            throw HostRefusal(file: path, reason: "not a shared object (an ELF file of another kind)")
        }
    }

    /// Fails when the file or its folder can be written by group or others (anyone could swap the code).
    private static func checkPermissions(_ path: String, resolved: String) throws(HostRefusal) {
        let folder = resolved.lastIndex(of: "/").map { $0 == resolved.startIndex ? "/" : String(resolved[..<$0]) } ?? "."
        for (what, checked) in [("file", resolved), ("folder", folder)] {
            var info = stat()
            guard stat(checked, &info) == 0 else {
                throw HostRefusal(file: path, reason: "cannot inspect the \(what) \(checked): \(String(cString: strerror(errno)))")
            }
            if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
                let mode = String(info.st_mode & 0o777, radix: 8)
                throw HostRefusal(file: path, reason: "the \(what) \(checked) is writable by \(info.st_mode & S_IWOTH != 0 ? "others" : "group") (mode \(mode))")
            }
        }
    }

    /// What the library provides as JSON in the shape of the manifest's `editors` list, for Folio to check.
    var editorsJSON: [UInt8] {
        var json = HostJSON()
        json.array(editors) { json, editor in json.object { json in editor.describe(&json) } }
        return json.bytes
    }
}

/// A minimal JSON writer for the library description (strings, arrays, objects, booleans).
struct HostJSON {
    private(set) var bytes: [UInt8] = []
    private var first = true

    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func separate() {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
    }

    mutating func array<T>(_ items: [T], _ each: (inout HostJSON, T) -> Void) {
        bytes.append(UInt8(ascii: "["))
        first = true
        for item in items { separate(); each(&self, item) }
        bytes.append(UInt8(ascii: "]"))
        first = false
    }

    mutating func object(_ body: (inout HostJSON) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        first = true
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        first = false
    }

    private mutating func key(_ name: String) {
        separate()
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func member(_ name: String, _ value: String) { key(name); string(value) }
    /// A member whose value is JSON written by another `HostJSON`.
    mutating func member(_ name: String, json value: [UInt8]) { key(name); bytes += value }
    mutating func member(_ name: String, _ value: Bool) { key(name); bytes += Array((value ? "true" : "false").utf8) }
    mutating func member(_ name: String, strings: [String]) { key(name); array(strings) { $0.string($1) } }
    mutating func member<T>(_ name: String, objects: [T], _ each: @escaping (inout HostJSON, T) -> Void) {
        key(name)
        array(objects) { json, item in json.object { each(&$0, item) } }
    }
}
