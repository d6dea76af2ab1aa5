#if canImport(Glibc)
import Glibc
#endif
import FolioSwiftToolchain

/// What Folio reads from a plugin's ELF file before any of its code runs: the libraries it names (DT_NEEDED) and the
/// Swift toolchain record FolioPluginKit puts in it. The file is hostile: every offset and size is checked against the
/// file, and anything that does not add up reads as "nothing" (the loader then refuses the file in its own words).
public struct PluginELF: Sendable {
    /// The DT_NEEDED names, in order.
    public let needed: [String]
    /// The first bytes of the `folio_swift` section (`SwiftToolchain.sectionName`); nil when there is none.
    public let swiftRecord: [UInt8]?
    /// Whether it holds compiled Swift code: a non-empty `swift5_*` metadata section (a C library linked by swiftc
    /// names libswiftCore.so too, with only empty ones).
    public let hasSwiftCode: Bool

    /// Reads a 64-bit little-endian ELF file; nil when `path` is not one or cannot be read.
    public static func read(_ path: String) -> PluginELF? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let file = ELFFile(fd: fd, size: UInt64(info.st_size))
        guard let sections = file.sections() else { return nil }
        let names = sections.first { $0.index == file.stringTableIndex }.flatMap { file.bytes(of: $0, cap: 1 << 20) } ?? []
        var needed: [String] = []
        if let dynamic = sections.first(where: { $0.type == 6 }), dynamic.link < sections.count,
           let entries = file.bytes(of: dynamic, cap: 1 << 20), let strings = file.bytes(of: sections[Int(dynamic.link)], cap: 16 << 20) {
            needed = neededNames(entries, strings)
        }
        let named = sections.map { (section: $0, name: ELFFile.string(in: names, at: UInt64($0.name)) ?? "") }
        let record = named.first { $0.name == SwiftToolchain.sectionName }.flatMap { file.bytes(of: $0.section, cap: 64) }
        let swiftCode = named.contains { $0.name.hasPrefix("swift5_") && $0.section.size > 0 }
        return PluginELF(needed: needed, swiftRecord: record, hasSwiftCode: swiftCode)
    }

    /// The DT_NEEDED (tag 1) names of a dynamic section, up to DT_NULL.
    private static func neededNames(_ entries: [UInt8], _ strings: [UInt8]) -> [String] {
        var names: [String] = []
        var offset = 0
        while offset + 16 <= entries.count {
            let tag = ELFFile.integer(entries, offset, 8), value = ELFFile.integer(entries, offset + 8, 8)
            if tag == 0 { break }
            if tag == 1, let name = ELFFile.string(in: strings, at: value) { names.append(name) }
            offset += 16
        }
        return names
    }
}

/// One section header's fields that matter here.
struct ELFSection {
    let index: Int
    let name: UInt32
    let type: UInt32
    let offset: UInt64
    let size: UInt64
    let link: UInt32
}

/// Bounded reads of an open ELF file.
struct ELFFile {
    let fd: Int32
    let size: UInt64

    /// The header's section header table index of the section names.
    var stringTableIndex: Int { header.map { Int(ELFFile.integer($0, 0x3E, 2)) } ?? -1 }

    private var header: [UInt8]? {
        guard let bytes = read(at: 0, count: 64), bytes[0] == 0x7F, bytes[1] == 0x45, bytes[2] == 0x4C, bytes[3] == 0x46,
              bytes[4] == 2, bytes[5] == 1 else { return nil }  // ELFCLASS64, little-endian
        return bytes
    }

    /// Every section header, or nil when the table does not fit in the file.
    func sections() -> [ELFSection]? {
        guard let header else { return nil }
        let tableOffset = ELFFile.integer(header, 0x28, 8), entrySize = ELFFile.integer(header, 0x3A, 2), count = ELFFile.integer(header, 0x3C, 2)
        guard entrySize >= 64, count > 0, let table = read(at: tableOffset, count: entrySize * count) else { return nil }
        return (0..<Int(count)).map { index in
            let base = index * Int(entrySize)
            return ELFSection(index: index, name: UInt32(ELFFile.integer(table, base, 4)), type: UInt32(ELFFile.integer(table, base + 4, 4)),
                              offset: ELFFile.integer(table, base + 0x18, 8), size: ELFFile.integer(table, base + 0x20, 8),
                              link: UInt32(ELFFile.integer(table, base + 0x28, 4)))
        }
    }

    /// A section's bytes (at most `cap`); nil when it has none in the file (SHT_NOBITS) or lies outside it.
    func bytes(of section: ELFSection, cap: UInt64) -> [UInt8]? {
        guard section.type != 8 else { return nil }
        return read(at: section.offset, count: min(section.size, cap))
    }

    /// `count` bytes at `offset`, or nil when they are not all in the file.
    func read(at offset: UInt64, count: UInt64) -> [UInt8]? {
        guard count <= size, offset <= size - count, count <= 64 << 20, let start = off_t(exactly: offset) else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(count))
        var done = 0
        while done < bytes.count {
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, $0.count - done, start + off_t(done)) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { return nil }
            done += got
        }
        return bytes
    }

    /// A little-endian unsigned integer of `width` bytes at `offset` (the caller checked the bounds).
    static func integer(_ bytes: [UInt8], _ offset: Int, _ width: Int) -> UInt64 {
        (0..<width).reversed().reduce(0) { $0 << 8 | UInt64(bytes[offset + $1]) }
    }

    /// The NUL-terminated UTF-8 string at `offset` in a string table; nil when it runs off the end or is not UTF-8.
    static func string(in table: [UInt8], at offset: UInt64) -> String? {
        guard let start = Int(exactly: offset), start < table.count, let end = table[start...].firstIndex(of: 0) else { return nil }
        return String(validating: table[start..<end], as: UTF8.self)
    }
}
