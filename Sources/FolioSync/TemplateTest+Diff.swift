import FoundationEssentials
import Glibc
import FolioCore
import FolioTemplates

/// A tree of files to compare: path → bytes and git mode (0o100644, 0o100755, or 0o120000 with the link's target).
struct FixtureTree {
    struct Entry: Equatable { let data: Data; let mode: UInt32 }
    var files: [String: Entry]

    init(files: [String: Entry]) { self.files = files }

    init(_ rendered: [DocumentFile]) {
        var files: [String: Entry] = [:]
        for file in rendered {
            if let target = file.symlinkTarget {
                files[file.path] = Entry(data: Data(target.utf8), mode: 0o120000)
            } else {
                files[file.path] = Entry(data: file.data, mode: file.executable ? 0o100755 : 0o100644)
            }
        }
        self.files = files
    }

    /// The template files under `prefix` (a fixture's `expected/`).
    init(_ tests: [TemplateFile], under prefix: String) {
        var files: [String: Entry] = [:]
        for file in tests { if let path = file.path.dropping(prefix: prefix) { files[path] = Entry(data: file.data, mode: file.mode) } }
        self.files = files
    }

    /// One line per difference from `self` (expected) to `actual`, content differences followed by their line diff.
    func differences(to actual: FixtureTree) -> [String] {
        var lines: [String] = []
        for path in Set(files.keys).union(actual.files.keys).sorted() {
            switch (files[path], actual.files[path]) {
            case (nil, _?): lines.append("unexpected file: \(path)")
            case (_?, nil): lines.append("missing file: \(path)")
            case let (want?, got?):
                if want.mode != got.mode { lines.append("\(path): mode \(String(want.mode, radix: 8)) expected, \(String(got.mode, radix: 8)) rendered") }
                if want.data != got.data {
                    lines.append("\(path): content differs")
                    lines += LineDiff.lines(expected: want.data, actual: got.data).map { "  " + $0 }
                }
            default: break
            }
        }
        return lines
    }
}

/// A short line diff for failure reports: `-` expected, `+` actual, with line numbers; at most `limit` lines.
enum LineDiff {
    static func lines(expected: Data, actual: Data, limit: Int = 40) -> [String] {
        guard let a = String(data: expected, encoding: .utf8), let b = String(data: actual, encoding: .utf8) else {
            return ["(binary: \(expected.count) bytes expected, \(actual.count) bytes rendered)"]
        }
        let old = a.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let new = b.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var output: [String] = []
        if old.count * new.count > 4_000_000 {
            let first = zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(old.count, new.count)
            output = ["-\(first + 1): \(first < old.count ? old[first] : "(end)")", "+\(first + 1): \(first < new.count ? new[first] : "(end)")"]
        } else {
            output = lcsDiff(old, new)
        }
        if output.count > limit { output = Array(output.prefix(limit)) + ["… \(output.count - limit) more lines differ"] }
        return output
    }

    /// A longest-common-subsequence diff listing only changed lines.
    private static func lcsDiff(_ old: [String], _ new: [String]) -> [String] {
        let n = old.count, m = new.count
        var table = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                table[i][j] = old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var output: [String] = []
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, old[i] == new[j] { i += 1; j += 1 }
            else if i < n, j == m || table[i + 1][j] >= table[i][j + 1] { output.append("-\(i + 1): \(old[i])"); i += 1 }
            else { output.append("+\(j + 1): \(new[j])"); j += 1 }
        }
        return output
    }
}

/// Rewrites a fixture's expected files (`--update-golden`): `expected/` is replaced whole (written beside it, then
/// swapped in), and an update fixture's `conflicts.json` is written (removed when there are none).
enum FixtureGolden {
    static func write(_ tree: FixtureTree, conflicts: [UpdateConflict]?, to fixture: URL) throws {
        let fm = FileManager.default
        let staging = fixture.appendingPathComponent(".expected.new-\(getpid())")
        try? fm.removeItem(at: staging)
        do {
            try fm.createDirectory(at: staging, withIntermediateDirectories: true)
            for (path, entry) in tree.files.sorted(by: { $0.key < $1.key }) {
                let url = staging.appendingPathComponent(path)
                try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                if entry.mode == 0o120000 {
                    try fm.createSymbolicLink(atPath: url.path, withDestinationPath: String(decoding: entry.data, as: UTF8.self))
                } else {
                    try entry.data.write(to: url)
                    if entry.mode == 0o100755 { chmod(url.path, 0o755) }
                }
            }
            let expected = fixture.appendingPathComponent("expected")
            let old = fixture.appendingPathComponent(".expected.old-\(getpid())")
            if fm.fileExists(atPath: expected.path) { try fm.moveItem(at: expected, to: old) }
            try fm.moveItem(at: staging, to: expected)
            try? fm.removeItem(at: old)
        } catch {
            try? fm.removeItem(at: staging)
            throw TemplateError(fixture.path, "cannot rewrite the expected files: \(TemplateError.oneLine(error))", kind: .writeFailed)
        }
        guard let conflicts else { return }
        let file = fixture.appendingPathComponent("conflicts.json")
        if conflicts.isEmpty { try? fm.removeItem(at: file); return }
        try AtomicFile.write(try StrictJSON.fileData(conflicts), to: file, sync: false)
    }
}
