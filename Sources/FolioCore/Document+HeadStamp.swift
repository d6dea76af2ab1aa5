import FoundationEssentials
import FolioBasics
import Glibc

/// What the files naming a document's newest version look like on disk: `HEAD`, the branch's ref file and
/// `packed-refs` (device, inode, size, modification and change times). A change to the branch — any writer, any
/// process: git and libgit2 replace these files by rename — changes the stamp; an equal stamp means the branch
/// names the same commit, so a window polling its document need not read the commit again.
public struct HeadStamp: Equatable, Sendable {
    fileprivate var files: [FileStamp?]

    fileprivate struct FileStamp: Equatable, Sendable {
        var device: UInt64, inode: UInt64, size: Int64
        var modified: timespec, changed: timespec

        static func == (a: FileStamp, b: FileStamp) -> Bool {
            a.device == b.device && a.inode == b.inode && a.size == b.size
                && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
                && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
        }
    }
}

extension Document {
    /// The stamp of the files naming the newest version (three `lstat`s and a read of `HEAD`, no git object read).
    public func headStamp() -> HeadStamp {
        let gitDirectory = repository.gitDirectoryPath
        let head = gitDirectory + "HEAD"
        var files = [Self.fileStamp(head), Self.fileStamp(gitDirectory + "packed-refs")]
        // HEAD names a ref in a few dozen bytes; a larger file is not followed (the full read says what is wrong).
        let bytes = Self.firstBytes(of: head, count: 512)
        if let bytes, bytes.count < 512, let text = String(data: bytes, encoding: .utf8), text.hasPrefix("ref: refs/heads/") {
            let ref = text.dropFirst("ref: ".count).trimming(.whitespacesAndNewlines)
            // A name with "..", or anything but a plain path under refs/heads, is not followed (the full read says why).
            if !ref.contains(".."), !ref.contains("\0") { files.append(Self.fileStamp(gitDirectory + ref)) }
        }
        return HeadStamp(files: files)
    }

    /// Up to `count` bytes from the start of the file at `path`; nil when it cannot be opened or read.
    private static func firstBytes(of path: String, count: Int) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var data = Data(count: count)
        var filled = 0
        while filled < count {
            let got = data.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress.map { $0 + filled }, count - filled) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { return nil }
            if got == 0 { break }
            filled += got
        }
        return data.prefix(filled)
    }

    private static func fileStamp(_ path: String) -> HeadStamp.FileStamp? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return HeadStamp.FileStamp(device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
                                   modified: status.st_mtim, changed: status.st_ctim)
    }
}
