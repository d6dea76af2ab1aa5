import FolioGit
import FolioTestSupport
import Foundation
import XCTest

/// `GitObjectRules` on raw object bytes: each rule alone, and against `git fsck --strict` on random trees.
final class GitObjectRulesTests: XCTestCase {
    private static let id = [UInt8](repeating: 0xAB, count: 20)

    private func tree(_ entries: [(String, [UInt8])]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (mode, name) in entries {
            bytes += Array(mode.utf8)
            bytes.append(0x20)
            bytes += name
            bytes.append(0)
            bytes += Self.id
        }
        return bytes
    }

    private func parse(_ bytes: [UInt8]) -> Result<[RawTreeEntry], GitObjectRejection> {
        bytes.withUnsafeBytes { raw in Result { () throws(GitObjectRejection) in try GitObjectRules.parseTree(raw) } }
    }

    private func problem(_ entries: [(String, [UInt8])]) -> GitObjectProblem? {
        if case let .failure(rejection) = parse(tree(entries)) { return rejection.problem }
        return nil
    }

    func testAnOrdinaryTreeParsesWithItsKindsAndNames() throws {
        // Given a tree with a file, an executable, a link and a folder in git's order ("a.b" before the folder "a/")
        let bytes = tree([("100644", Array("a".utf8)), ("100755", Array("a.b".utf8)), ("40000", Array("az".utf8)),
                          ("120000", Array("link".utf8)), ("100644", Array("日本語.txt".utf8))])
        // When parsed, then every entry is kept with its kind and name
        let entries = try parse(bytes).get()
        XCTAssertEqual(entries.map(\.name), ["a", "a.b", "az", "link", "日本語.txt"])
        XCTAssertEqual(entries.map(\.kind), [.file, .executable, .tree, .symlink, .file])
        XCTAssertEqual(try parse([]).get(), [])
    }

    func testEveryReservedSpellingOfDotGitIsRefused() {
        // Given names every file system that matters reads as .git
        let spellings = [".git", ".GIT", ".Git", "git~1", "GIT~1", ".git.", ".git ", ".git. . ", ".git::$INDEX_ALLOCATION",
                         ".g\u{200C}it", "\u{FEFF}.git", ".gi\u{206A}t", ".GI\u{200D}T", "x\\.git", ".git\\x"]
        for name in spellings {
            // When a tree holds one, then it is refused as git's own name
            XCTAssertEqual(problem([("40000", Array(name.utf8))]), .gitName, name)
            XCTAssertTrue(GitObjectRules.isGitName(Array(name.utf8)), name)
        }
        // And names that only look alike are fine
        for name in [".gitx", "git", ".gi", "git~2", "my.git", ".github", ".gitkeep", "a.git", "gitignore"] {
            XCTAssertNil(problem([("100644", Array(name.utf8))]), name)
        }
    }

    func testMalformedNamesModesAndOrderAreRefusedEachWithItsReason() {
        let cases: [([(String, [UInt8])], GitObjectProblem)] = [
            ([("100644", [])], .emptyName),
            ([("100644", Array(".".utf8))], .dotName),
            ([("40000", Array("..".utf8))], .dotName),
            ([("100644", Array("a/b".utf8))], .slashInName),
            ([("100644", [0x66, 0xFF])], .nameNotUTF8),
            ([("100664", Array("f".utf8))], .unknownMode("100664")),
            ([("100600", Array("f".utf8))], .unknownMode("100600")),
            ([("040000", Array("d".utf8))], .zeroPaddedMode),
            ([("160000", Array("sub".utf8))], .submodule),
            ([("100644", Array(".gitmodules".utf8))], .submodule),
            ([("100644", Array(".GITMODULES ".utf8))], .submodule),
            ([("100644", Array("gitmod~1".utf8))], .submodule),
            ([("100644", Array(".gitmodules:stream".utf8))], .submodule),
            ([("100644", Array("GI7E~123".utf8))], .submodule),
            ([("120000", Array("gi250a~1".utf8))], .specialSymlink),
            ([("120000", Array(".gitattributes".utf8))], .specialSymlink),
            ([("120000", Array(".gitignore".utf8))], .specialSymlink),
            ([("120000", Array(".mailmap".utf8))], .specialSymlink),
            ([("100644", Array("b".utf8)), ("100644", Array("a".utf8))], .unsortedEntries),
            ([("100644", Array("a".utf8)), ("100644", Array("a".utf8))], .duplicateEntry),
            ([("100644", Array("a".utf8)), ("100644", Array("a.b".utf8)), ("40000", Array("a".utf8))], .duplicateEntry),
        ]
        for (entries, expected) in cases {
            XCTAssertEqual(problem(entries), expected, "\(entries.map { ($0.0, String(decoding: $0.1, as: UTF8.self)) })")
        }
        // A link named like a settings file is fine as a file
        XCTAssertNil(problem([("100644", Array(".gitattributes".utf8))]))
    }

    func testTruncatedAndGarbledTreesAreRefusedNotCrashed() {
        let good = tree([("100644", Array("file".utf8))])
        for length in 0..<good.count {
            let cut = Array(good.prefix(length))
            if length == 0 { continue }
            guard case let .failure(rejection) = parse(cut) else { return XCTFail("a tree cut at \(length) bytes parsed") }
            guard case .malformedTree = rejection.problem else { return XCTFail("cut at \(length): \(rejection.problem)") }
        }
        for bytes: [UInt8] in [[0x20], Array("9 x\0".utf8) + Self.id, Array("12345678 x\0".utf8) + Self.id, Array("100644x\0".utf8)] {
            guard case .failure = parse(bytes) else { return XCTFail("\(bytes) parsed") }
        }
    }

    func testCommitAndTagHeadersFollowFsckIdentityRules() {
        let tree = String(repeating: "a", count: 40)
        func commit(_ author: String) -> Result<Void, GitObjectRejection> {
            let text = "tree \(tree)\nparent \(tree)\nauthor \(author)\ncommitter C <c@x> 1 +0000\n\nmessage\n"
            return Array(text.utf8).withUnsafeBytes { raw in Result { () throws(GitObjectRejection) in _ = try GitObjectRules.parseCommit(raw) } }
        }
        XCTAssertNoThrow(try commit("Ada Lovelace <ada@example.org> 1700000000 +0100").get())
        XCTAssertNoThrow(try commit("A <> 0 -0130").get())
        for bad in ["<a@x> 1 +0000", "A a@x> 1 +0000", "A<a@x> 1 +0000", "A <a@x 1 +0000", "A <a@x>1 +0000", "A <a@x> 01 +0000",
                    "A <a@x> x +0000", "A <a@x> 1 +00", "A <a@x> 1 0000", "A <a@x> 1 +0000 extra", "A <a@x> 99999999999999999999 +0000"] {
            XCTAssertThrowsError(try commit(bad).get(), bad)
        }
        let tag = "object \(tree)\ntype commit\ntag v1.0\ntagger T <t@x> 1 +0000\n\nnote\n"
        let parsed = Array(tag.utf8).withUnsafeBytes { raw in Result { () throws(GitObjectRejection) in try GitObjectRules.parseTag(raw) } }
        XCTAssertEqual(try parsed.get().name, "v1.0")
        let badType = Array(tag.replacingOccurrences(of: "type commit", with: "type car").utf8)
        XCTAssertThrowsError(try badType.withUnsafeBytes { raw in Result { () throws(GitObjectRejection) in try GitObjectRules.parseTag(raw) } }.get())
    }

    func testEveryRandomTreeGitFsckFlagsIsRefused() throws {
        // Given 400 random trees over names, modes and orders near the rules' edges, written without git's checks
        let temp = TemporaryDirectory()
        let env = temp.environment()
        let repo = temp.path("repo")
        try FileManager.default.createDirectory(at: repo, withIntermediateDirectories: true)
        XCTAssertEqual(try git(["init", "-q", "--bare"], in: repo, environment: env).status, 0)
        let blob = try runProgram("git", ["hash-object", "-w", "--stdin"], cwd: repo, environment: env, stdin: Data("x".utf8)).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let emptyTree = try runProgram("git", ["hash-object", "-w", "-t", "tree", "--stdin"], cwd: repo, environment: env, stdin: Data()).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        var random = SeededRandom(seed: 20)
        let parts = [".", "git", ".git", "g", "i", "t", "~1", " ", "\\", "a", "b", "GIT", ".gitmodules", "\u{200C}", ":", "x"]
        let modes = ["100644", "100755", "120000", "40000", "040000", "160000", "100664"]
        var ours: [String: Bool] = [:]
        for _ in 0..<400 {
            var entries: [(String, [UInt8], String)] = []
            for _ in 0..<Int(random.next() % 3 + 1) {
                let name = (0..<Int(random.next() % 3 + 1)).map { _ in random.pick(parts) }.joined()
                let mode = random.pick(modes)
                entries.append((mode, Array(name.utf8), mode.hasSuffix("40000") ? emptyTree : blob))
            }
            if random.next() % 2 == 0 { entries.sort { orderKey($0.0, $0.1).lexicographicallyPrecedes(orderKey($1.0, $1.1)) } }
            var bytes = Data()
            for (mode, name, id) in entries {
                bytes.append(contentsOf: Array(mode.utf8))
                bytes.append(0x20)
                bytes.append(contentsOf: name)
                bytes.append(0)
                bytes.append(contentsOf: hexBytes(id))
            }
            let id = try runProgram("git", ["hash-object", "--literally", "-t", "tree", "-w", "--stdin"], cwd: repo, environment: env, stdin: bytes)
                .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            ours[id] = bytes.withUnsafeBytes { raw in (try? GitObjectRules.parseTree(raw)) == nil }
        }
        // When git fsck --strict reads them all
        let fsck = try git(["fsck", "--strict", "--no-dangling", "--no-progress"], in: repo, environment: env)
        var flagged: [String: String] = [:]
        for line in (fsck.stdout + fsck.stderr).split(separator: "\n") {
            guard let range = line.range(of: " in tree ") else { continue }
            flagged[String(line[range.upperBound...].prefix(40))] = String(line)
        }
        // Then every tree git flags is one Folio refuses (Folio is stricter: submodules, non-UTF-8 names)
        XCTAssertGreaterThan(flagged.count, 20, "the random trees should hit git's rules: \(fsck.stdout)\(fsck.stderr)")
        // (an object found under a .gitmodules name is reported itself, as gitmodulesBlob: its tree is what Folio refuses)
        for (id, line) in flagged where !line.contains("gitmodulesBlob") { XCTAssertEqual(ours[id], true, "git fsck flags tree \(id) (\(line)), Folio accepts it") }
        XCTAssertTrue(ours.values.contains(false), "some random trees should be fine")
    }

    /// git's order: a tree's name sorts as if it ended in "/".
    private func orderKey(_ mode: String, _ name: [UInt8]) -> [UInt8] { mode.hasSuffix("40000") ? name + [0x2F] : name }

    private func hexBytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16) ?? 0
        }
    }
}
