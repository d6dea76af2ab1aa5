import FolioCore
import FoundationEssentials
import FolioBasics
import Glibc

/// The file form of a plugin package: an uncompressed POSIX ustar archive (readable with `tar tf`), written and read
/// here in Swift (no archive library: the format needs a few hundred lines, and only the subset below is accepted).
///
/// Accepted: regular files (type `0` or NUL) and folders (type `5`), ustar magic `ustar\0` version `00`, names from
/// the `prefix` and `name` fields, and the two zero blocks that end the archive. Everything else is refused: links,
/// devices, FIFOs, pax and GNU extension headers, a bad checksum, a size field that is not octal, a truncated entry,
/// anything but zeros after the end. Each path goes through `PluginPackageRules.check` (no absolute path, no `.`,
/// `..` or empty component, valid UTF-8 without control characters, within the length and depth limits).
enum PluginPackageArchive {
    static let block = 512

    /// One accepted entry of an archive, its path checked.
    struct Entry: Equatable {
        var path: String
        var isFolder: Bool
        var size: Int
    }

    /// A refusal while reading an archive: the problem (the caller names the package).
    struct Problem: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: Reading

    /// Reads the archive at `url`, checking every header and path, calling `file` for each regular file with its
    /// path, size and a reader of exactly its bytes (called in chunks of at most 1 MiB until it returns nil), and
    /// `folder` for each folder. Fails with the first problem found; a problem found after some entries were handed
    /// over is still a failure (the caller stages entries and discards the staging folder).
    static func read(_ url: URL, limits: PluginPackageLimits,
                     folder: (String) throws -> Void,
                     file: (String, Int, () throws -> Data?) throws -> Void) throws {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)  // the archive's own path is the user's; its entries are checked
        guard fd >= 0 else { throw Problem("cannot open it (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw Problem("not a regular file") }
        var count = 0, total = 0
        var seen: Set<String> = []
        while true {
            let header = try readExactly(fd, block, what: "a header")
            if header.allSatisfy({ $0 == 0 }) {
                let second = try readExactly(fd, block, what: "the end of the archive")
                guard second.allSatisfy({ $0 == 0 }) else { throw Problem("a zero block is not followed by a second one (not the end of an archive)") }
                try checkTrailing(fd)
                return
            }
            let entry = try parseHeader(header, limits: limits)
            count += 1
            guard count <= limits.maxEntries else { throw Problem("more than \(limits.maxEntries) entries") }
            guard seen.insert(entry.path).inserted else { throw Problem("'\(entry.path)' appears twice") }
            total += entry.size
            guard total <= limits.maxTotalBytes else { throw Problem("its entries add up to more than \(limits.maxTotalBytes >> 20) MiB") }
            if entry.isFolder {
                try folder(entry.path)
                continue
            }
            var remaining = entry.size
            try file(entry.path, entry.size) {
                guard remaining > 0 else { return nil }
                let chunk = min(remaining, 1 << 20)
                let data = try readExactly(fd, chunk, what: "'\(entry.path)'")
                remaining -= chunk
                return Data(data)
            }
            guard remaining == 0 else { throw Problem("'\(entry.path)' was not read to its end") }
            let padding = (block - entry.size % block) % block
            if padding > 0 { _ = try readExactly(fd, padding, what: "the padding of '\(entry.path)'") }
        }
    }

    /// Parses and checks one header block.
    static func parseHeader(_ header: [UInt8], limits: PluginPackageLimits) throws -> Entry {
        guard Array(header[257..<263]) == Array("ustar\0".utf8), Array(header[263..<265]) == Array("00".utf8) else {
            throw Problem("not a POSIX ustar archive (a header has no 'ustar' magic)")
        }
        guard let stored = octal(header[148..<156]) else { throw Problem("a header's checksum field is not octal") }
        var sum = 0
        for (index, byte) in header.enumerated() { sum += (148..<156).contains(index) ? 32 : Int(byte) }
        guard sum == stored else { throw Problem("a header's checksum is wrong (damaged archive)") }
        let name = try field(header[0..<100]), prefix = try field(header[345..<500])
        let path = prefix.isEmpty ? name : prefix + "/" + name
        let type = header[156]
        let isFolder: Bool
        switch type {
        case 0, UInt8(ascii: "0"): isFolder = false
        case UInt8(ascii: "5"): isFolder = true
        default: throw Problem("'\(PluginPackageRules.shown(path))' is \(kindName(type)), not a file or folder")
        }
        let trimmed = isFolder && path.hasSuffix("/") ? String(path.dropLast()) : path
        try PluginPackageRules.check(path: trimmed, limits: limits)
        guard let size = octal(header[124..<136]) else { throw Problem("'\(trimmed)': its size field is not an octal number") }
        if isFolder && size != 0 { throw Problem("'\(trimmed)': a folder with a size") }
        guard size <= limits.maxEntryBytes(trimmed) else {
            throw Problem("'\(trimmed)' is \(size) bytes, over the limit of \(limits.maxEntryBytes(trimmed)) bytes")
        }
        return Entry(path: trimmed, isFolder: isFolder, size: size)
    }

    /// What a refused type flag means.
    static func kindName(_ type: UInt8) -> String {
        switch type {
        case UInt8(ascii: "1"): return "a hard link"
        case UInt8(ascii: "2"): return "a symbolic link"
        case UInt8(ascii: "3"), UInt8(ascii: "4"): return "a device"
        case UInt8(ascii: "6"): return "a FIFO"
        case UInt8(ascii: "x"), UInt8(ascii: "g"): return "a pax extended header"
        case UInt8(ascii: "L"), UInt8(ascii: "K"): return "a GNU long-name header"
        default: return "an entry of type \(type)"
        }
    }

    /// A NUL-terminated name field as UTF-8 (invalid UTF-8 is refused).
    static func field(_ bytes: ArraySlice<UInt8>) throws -> String {
        let end = bytes.firstIndex(of: 0) ?? bytes.endIndex
        guard let text = String(validating: bytes[bytes.startIndex..<end], as: UTF8.self) else {
            throw Problem("an entry's name is not valid UTF-8")
        }
        return text
    }

    /// An octal number field (digits, optionally led by spaces and ended by NUL or spaces); nil when it is not one.
    static func octal(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0, digits = 0, ended = false
        for byte in bytes {
            if byte == 0 || byte == 32 {
                if digits > 0 { ended = true }
                continue
            }
            guard !ended, (48...55).contains(byte) else { return nil }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 8)
            guard !overflow else { return nil }
            value = shifted + Int(byte - 48)
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// Reads exactly `count` bytes; a short read is a truncated archive.
    static func readExactly(_ fd: Int32, _ count: Int, what: String) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, count - done) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw Problem(got == 0 ? "truncated: it ends inside \(what)" : "cannot read it (\(String(cString: strerror(errno))))") }
            done += got
        }
        return bytes
    }

    /// After the end blocks only zeros may follow (tar pads to its record size).
    static func checkTrailing(_ fd: Int32) throws {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        while true {
            let got = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return }
            total += got
            guard total <= 1 << 20, buffer[0..<got].allSatisfy({ $0 == 0 }) else { throw Problem("data after the end of the archive") }
        }
    }

    // MARK: Writing

    /// Writes a ustar archive of `entries` (in order; files with their contents) to `url` through a temporary file
    /// renamed into place, so a failed or killed write leaves no partial archive.
    static func write(_ entries: [(path: String, contents: Data?)], to url: URL) throws {
        var out = Data()
        for (path, contents) in entries {
            out += try header(path: path, size: contents?.count ?? 0, isFolder: contents == nil)
            if let contents {
                out += contents
                out += Data(count: (block - contents.count % block) % block)
            }
        }
        out += Data(count: 2 * block)
        try AtomicFile.write(out, to: url, sync: true)
    }

    /// One header block for `path`: names over 100 bytes are split into `prefix` and `name` at a `/`.
    static func header(path: String, size: Int, isFolder: Bool) throws -> Data {
        var bytes = [UInt8](repeating: 0, count: block)
        let full = Array((isFolder ? path + "/" : path).utf8)
        var name = full, prefix: [UInt8] = []
        if full.count > 100 {
            guard let cut = full.indices.last(where: { full[$0] == UInt8(ascii: "/") && $0 <= 155 && full.count - $0 - 1 <= 100 }) else {
                throw Problem("'\(path)' is too long for a ustar name")
            }
            prefix = Array(full[..<cut]); name = Array(full[(cut + 1)...])
        }
        func put(_ value: [UInt8], at offset: Int) { for (index, byte) in value.enumerated() { bytes[offset + index] = byte } }
        func putOctal(_ value: Int, at offset: Int, width: Int) {
            put(Array(String(value, radix: 8).leftPadded(to: width - 1).utf8), at: offset)
        }
        put(name, at: 0)
        putOctal(isFolder || (!path.contains("/") && path.hasSuffix(".so")) ? 0o755 : 0o644, at: 100, width: 8)
        putOctal(0, at: 108, width: 8)
        putOctal(0, at: 116, width: 8)
        putOctal(size, at: 124, width: 12)
        putOctal(0, at: 136, width: 12)
        bytes[156] = isFolder ? UInt8(ascii: "5") : UInt8(ascii: "0")
        put(Array("ustar\0".utf8), at: 257)
        put(Array("00".utf8), at: 263)
        put(prefix, at: 345)
        put(Array(repeating: 32, count: 8), at: 148)
        let sum = bytes.reduce(0) { $0 + Int($1) }
        put(Array(String(sum, radix: 8).leftPadded(to: 6).utf8) + [0, 32], at: 148)
        return Data(bytes)
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
