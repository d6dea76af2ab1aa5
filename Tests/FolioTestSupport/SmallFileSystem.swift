import Foundation

/// A small tmpfs mounted for a test (the tests run as root on Linux): a real full disk, and a folder that can be
/// remounted read-only. Unmounted when released.
public final class SmallFileSystem: @unchecked Sendable {
    public let url: URL
    private var mounted = false

    /// Mounts a tmpfs of `bytes` at `url`; nil when mounting is not possible here (not root, no CAP_SYS_ADMIN).
    public init?(at url: URL, bytes: Int) {
        self.url = url
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        guard getuid() == 0, let result = try? runProgram("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", url.path]),
              result.status == 0 else { return nil }
        mounted = true
    }

    /// Bytes still free.
    public var freeBytes: Int {
        var info = statvfs()
        guard statvfs(url.path, &info) == 0 else { return 0 }
        return Int(info.f_bavail) * Int(info.f_frsize)
    }

    /// Fills the file system with a filler file until about `bytes` remain free.
    public func fill(leaving bytes: Int) throws {
        let size = max(0, freeBytes - bytes)
        try Data(count: size).write(to: url.appendingPathComponent("filler"))
    }

    /// Removes the filler: the disk has room again.
    public func drain() throws {
        try FileManager.default.removeItem(at: url.appendingPathComponent("filler"))
    }

    deinit {
        if mounted { _ = try? runProgram("/usr/bin/umount", ["-l", url.path]) }
    }
}

/// A read-only bind mount of a folder over itself, for as long as the value lives (root only); nil when impossible.
public final class ReadOnlyBind: @unchecked Sendable {
    public let url: URL

    public init?(_ url: URL) {
        self.url = url
        guard getuid() == 0, (try? runProgram("/usr/bin/mount", ["--bind", url.path, url.path]))?.status == 0 else { return nil }
        guard (try? runProgram("/usr/bin/mount", ["-o", "remount,bind,ro", url.path]))?.status == 0 else {
            _ = try? runProgram("/usr/bin/umount", ["-l", url.path])
            return nil
        }
    }

    deinit { _ = try? runProgram("/usr/bin/umount", ["-l", url.path]) }
}
