#if canImport(Glibc)
import Glibc
#endif
import FolioSwiftToolchain

/// A Swift plugin runs on Folio's own copy of the Swift runtime (`lib/folio/swift` in an installed tree), whatever its
/// RUNPATH says: before the plugin is loaded, the runtime libraries it names are loaded from Folio's runtime folder
/// with RTLD_GLOBAL, and the dynamic loader then satisfies the plugin's DT_NEEDED entries by soname from those (it
/// never searches for a library whose soname is already loaded). No file is rewritten, so this works for an installed
/// copy, a moved tree and a build under development alike, and one process never holds two Swift runtimes. Since Swift
/// has no stable ABI on Linux, a Swift plugin must come from Folio's own toolchain: its record (FolioSwiftToolchain,
/// linked through FolioPluginKit) is checked first.
public enum PluginRuntime {
    /// Checks the plugin at `path` and loads the Swift runtime libraries it needs from `runtimeFolder` (nil: leave
    /// them to the plugin's own RUNPATH). Returns the reason for a refusal, nil when the plugin may be loaded. A file
    /// that is not a readable 64-bit ELF passes through: the loader refuses it in its own words.
    public static func prepare(_ path: String, runtimeFolder: String?) -> String? {
        guard let elf = PluginELF.read(path) else { return nil }
        if let refusal = checkToolchain(elf) { return refusal }
        // Refused wherever the host runs (a development build's runtime is the toolchain's, which has Foundation; an
        // installed Folio's has not): the answer an author gets is the one their users will.
        if let foundation = elf.needed.first(where: isFoundation) {
            return "it imports Foundation (it needs \(foundation)), which Folio's Swift runtime does not include: a plugin is "
                + "written with the standard library and FolioPluginKit alone (drop 'import Foundation'; see PLUGINS.md)"
        }
        guard let runtimeFolder else { return nil }
        for name in elf.needed where isSwiftRuntime(name) {
            let candidate = runtimeFolder + "/" + name
            guard access(candidate, R_OK) == 0 else {
                return "it needs \(name), which Folio's Swift runtime (\(runtimeFolder)) does not include"
            }
            guard dlopen(candidate, RTLD_LAZY | RTLD_GLOBAL) != nil else {
                return "cannot load \(candidate) from Folio's Swift runtime: \(dlerror().map { String(cString: $0) } ?? "unknown reason")"
            }
        }
        return nil
    }

    /// The refusal of a Swift plugin from another toolchain (or with no record); nil for a C plugin or a match.
    static func checkToolchain(_ elf: PluginELF) -> String? {
        guard elf.needed.contains("libswiftCore.so"), elf.hasSwiftCode else { return nil }
        let folio = SwiftToolchain.version ?? "unknown"
        guard let plugin = elf.swiftRecord.flatMap(SwiftToolchain.version(record:)) else {
            return "a Swift plugin without a Swift toolchain record: build it with FolioPluginKit and Swift \(folio), Folio's toolchain"
        }
        guard plugin == folio else {
            return "built with Swift \(plugin), but this Folio was built with Swift \(folio): rebuild it with Swift \(folio)"
        }
        return nil
    }

    /// Whether a DT_NEEDED name is one of Foundation's libraries (`import Foundation` or `FoundationEssentials`).
    static func isFoundation(_ name: String) -> Bool {
        name.hasSuffix(".so") && !name.contains("/") && (name.hasPrefix("libFoundation") || name.hasPrefix("lib_Foundation"))
    }

    /// Whether a DT_NEEDED name is one of the Swift toolchain's runtime libraries (unversioned, from its lib folder).
    static func isSwiftRuntime(_ name: String) -> Bool {
        guard name.hasSuffix(".so"), !name.contains("/") else { return false }
        return ["libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime", "libXCTest", "libTesting", "lib_Testing"]
            .contains { name.hasPrefix($0) }
    }

    /// The folder of the Swift runtime this process runs on (where its libswiftCore.so was mapped from, as
    /// /proc/self/maps shows it); nil when the runtime is linked statically (no libswiftCore.so is mapped).
    public static var loadedRuntimeFolder: String? {
        let fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while bytes.count < 16 << 20 {
            let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            bytes += chunk[0..<got]
        }
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            guard let path = line.firstIndex(of: UInt8(ascii: "/")).map({ String(decoding: line[$0...], as: UTF8.self) }),
                  path.hasSuffix("/libswiftCore.so"), let slash = path.lastIndex(of: "/") else { continue }
            return String(path[..<slash])
        }
        return nil
    }

    /// The runtime folder for a process that may have the runtime linked statically (`folio` itself): the loaded
    /// runtime's folder when there is one, else `../lib/folio/swift` beside the executable when that holds
    /// libswiftCore.so (an installed tree), else nil.
    public static var installedRuntimeFolder: String? {
        if let loaded = loadedRuntimeFolder { return loaded }
        guard let executable = realpath("/proc/self/exe", nil) else { return nil }
        defer { free(executable) }
        let path = String(cString: executable)
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let folder = String(path[..<slash]) + "/../lib/folio/swift"
        return access(folder + "/libswiftCore.so", R_OK) == 0 ? folder : nil
    }
}
