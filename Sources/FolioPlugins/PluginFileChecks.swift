import FolioCore
import FoundationEssentials
import Glibc

/// The check of what a library describes (in a plugin host: `check`, the host's load reply) against its manifest.
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
