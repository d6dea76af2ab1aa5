import Foundation
import FolioTestSupport
import XCTest

/// Crafts commits an attacker with push access could put on a shared remote, straight into a (bare) repository with
/// git's plumbing: `hash-object --literally` writes trees and commits git itself would refuse to make.
struct HostileHistory: Sendable {
    let repository: URL
    let environment: [String: String]

    /// One raw tree entry: mode as written, name bytes, object id (hex).
    struct Entry {
        var mode: String
        var name: [UInt8]
        var id: String
        init(_ mode: String, _ name: String, _ id: String) { self.init(mode, Array(name.utf8), id) }
        init(_ mode: String, _ name: [UInt8], _ id: String) { self.mode = mode; self.name = name; self.id = id }
        var isTree: Bool { mode == "40000" || mode == "040000" }
    }

    func run(_ arguments: [String], stdin: Data? = nil) throws -> String {
        let result = try runProgram("git", arguments, cwd: repository, environment: environment, stdin: stdin)
        guard result.status == 0 else { throw NSError(domain: "git \(arguments.joined(separator: " ")): \(result.stderr)", code: Int(result.status)) }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func blob(_ text: String) throws -> String { try run(["hash-object", "-w", "--stdin"], stdin: Data(text.utf8)) }

    /// Writes a tree from `entries` as given (sorted in git's order unless `sorted` is false).
    func tree(_ entries: [Entry], sorted: Bool = true) throws -> String {
        let ordered = sorted ? entries.sorted { Self.gitOrder($0).lexicographicallyPrecedes(Self.gitOrder($1)) } : entries
        var bytes = Data()
        for entry in ordered {
            bytes.append(contentsOf: Array(entry.mode.utf8) + [0x20] + entry.name + [0])
            bytes.append(contentsOf: Self.raw(entry.id))
        }
        return try run(["hash-object", "--literally", "-t", "tree", "-w", "--stdin"], stdin: bytes)
    }

    func commit(tree: String, parent: String?, message: String = "Innocent-looking change") throws -> String {
        try run(["commit-tree", tree] + (parent.map { ["-p", $0] } ?? []) + ["-m", message])
    }

    /// Writes a commit object from its raw text (no checks).
    func rawCommit(_ text: String) throws -> String {
        try run(["hash-object", "--literally", "-t", "commit", "-w", "--stdin"], stdin: Data(text.utf8))
    }

    /// The entries of a commit's root tree.
    func entries(of commit: String) throws -> [Entry] {
        try run(["ls-tree", commit]).split(separator: "\n").map { line in
            let parts = line.split(separator: "\t", maxSplits: 1)
            let meta = parts[0].split(separator: " ")
            let mode = meta[0] == "040000" ? "40000" : String(meta[0])
            return Entry(mode, String(parts[1]), String(meta[2]))
        }
    }

    func setBranch(_ commit: String, _ branch: String = "main") throws { _ = try run(["update-ref", "refs/heads/\(branch)", commit]) }

    func head(_ branch: String = "main") throws -> String { try run(["rev-parse", "refs/heads/\(branch)"]) }

    /// git's order: byte order of names, a tree's name read with a trailing "/".
    private static func gitOrder(_ entry: Entry) -> [UInt8] { entry.isTree ? entry.name + [UInt8(ascii: "/")] : entry.name }

    private static func raw(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return out
    }
}

/// One hostile change an attacker could push: a name, and how to make it on top of a commit.
struct HostileCase: Sendable {
    let name: String
    /// What the refusal names (the entry, or the part of the commit that is wrong).
    let names: String
    let make: @Sendable (HostileHistory, _ base: String) throws -> String
    /// No transport delivers it: git's upload-pack will not send it and libgit2 will not parse it (the fetch fails
    /// before Folio's check; `GitObjectRulesTests` covers the rule itself).
    var transportsRefuse = false

    /// A commit adding `entry` to `base`'s root tree.
    static func adding(_ name: String, names: String, _ entry: @escaping @Sendable (HostileHistory) throws -> HostileHistory.Entry) -> HostileCase {
        HostileCase(name: name, names: names) { history, base in
            let root = try history.entries(of: base) + [entry(history)]
            return try history.commit(tree: history.tree(root), parent: base)
        }
    }

    var undeliverable: HostileCase {
        var copy = self
        copy.transportsRefuse = true
        return copy
    }

    /// A tree holding one file `name` with `text`.
    static func folder(_ history: HostileHistory, _ name: String, _ text: String, mode: String = "100644") throws -> String {
        try history.tree([.init(mode, name, history.blob(text))])
    }

    static let hook = "#!/bin/sh\ntouch /tmp/folio-pwned\n"

    /// Every hostile tree and commit the trust boundary must refuse.
    static var all: [HostileCase] { [
        adding(".git/hooks/post-checkout", names: "'.git'") { h in
            .init("40000", ".git", try h.tree([.init("40000", "hooks", try folder(h, "post-checkout", hook, mode: "100755"))]))
        },
        adding(".git/config with core.fsmonitor", names: "'.git'") { h in .init("40000", ".git", try folder(h, "config", "[core]\n\tfsmonitor = touch /tmp/folio-pwned\n")) },
        adding(".GIT in capitals", names: "'.GIT'") { h in .init("40000", ".GIT", try folder(h, "config", "x")) },
        adding("NTFS short name git~1", names: "'git~1'") { h in .init("40000", "git~1", try folder(h, "config", "x")) },
        adding("NTFS trailing dot .git.", names: "'.git.'") { h in .init("40000", ".git.", try folder(h, "config", "x")) },
        adding("NTFS trailing space", names: "'.git '") { h in .init("40000", ".git ", try folder(h, "config", "x")) },
        adding("HFS+ ignorable in .git", names: "git reserves") { h in .init("40000", ".g\u{200C}it", try folder(h, "config", "x")) },
        adding("a folder named ..", names: "'..'") { h in .init("40000", "..", try folder(h, "escaped.txt", "outside")) },
        adding("a file named .", names: "'.'") { h in .init("100644", ".", try h.blob("dot")) },
        adding("an empty name", names: "empty name") { h in .init("100644", "", try h.blob("empty")) }.undeliverable,
        adding("a name holding a slash", names: "'a/b'") { h in .init("100644", "a/b", try h.blob("slash")) },
        adding("an unknown mode", names: "100600") { h in .init("100600", "odd-mode.txt", try h.blob("mode")) },
        adding("a gitlink", names: "submodule") { _ in .init("160000", "sub", "0123456789abcdef0123456789abcdef01234567") },
        adding("a zero-padded mode", names: "zero-padded") { h in .init("040000", "padded", try folder(h, "f.txt", "x")) },
        adding("a .gitmodules file", names: "submodule") { h in .init("100644", ".gitmodules", try h.blob("[submodule \"x\"]\n\tpath = x\n\turl = ../x\n")) },
        adding("a .gitattributes link", names: "symbolic link") { h in .init("120000", ".gitattributes", try h.blob("/etc/passwd")) },
        adding("a Folio temporary name", names: ".folio-tmp-") { h in .init("100644", ".folio-tmp-123-abc", try h.blob("tmp")) },
        adding("a link to an absolute path", names: "link to '/home/user/.ssh', which is absolute") { h in .init("120000", "keys", try h.blob("/home/user/.ssh")) },
        adding("a link climbing out of the document", names: "link to '../../.ssh', which leads out") { h in .init("120000", "up", try h.blob("../../.ssh")) },
        adding("a link in a folder climbing out", names: "'notes/out'") { h in .init("40000", "notes", try folder(h, "out", "../../etc", mode: "120000")) },
        adding("a link climbing after a name", names: "after a folder name") { h in .init("120000", "sideways", try h.blob("notes/../../x")) },
        HostileCase(name: "duplicate entries", names: "same name") { h, base in
            let root = try h.entries(of: base)
            let duplicate = try HostileHistory.Entry("100644", "zz.txt", h.blob("one"))
            let again = try HostileHistory.Entry("100644", "zz.txt", h.blob("two"))
            return try h.commit(tree: h.tree(root + [duplicate, again], sorted: true), parent: base)
        },
        HostileCase(name: "entries out of order", names: "order") { h, base in
            let root = try h.entries(of: base).sorted { $0.name.lexicographicallyPrecedes($1.name) }
            let z = try HostileHistory.Entry("100644", "zzz.txt", h.blob("z"))
            return try h.commit(tree: h.tree([z] + root, sorted: false), parent: base)
        },
        HostileCase(name: "an invalid .folio/document.json", names: "document.json") { h, base in
            let root = try h.entries(of: base).map { entry -> HostileHistory.Entry in
                guard entry.name == Array(".folio".utf8) else { return entry }
                return try HostileHistory.Entry("40000", ".folio", folder(h, "document.json", "{\"format\": "))
            }
            return try h.commit(tree: h.tree(root), parent: base)
        },
        HostileCase(name: "no .folio/document.json", names: "document.json") { h, base in
            let root = try h.entries(of: base).filter { $0.name != Array(".folio".utf8) }
            return try h.commit(tree: h.tree(root), parent: base)
        },
        HostileCase(name: "a commit without an author name", names: "author") { h, base in
            let tree = try h.run(["rev-parse", "\(base)^{tree}"])
            return try h.rawCommit("tree \(tree)\nparent \(base)\nauthor <a@example.org> 1700000000 +0000\ncommitter C <c@example.org> 1700000000 +0000\n\nx\n")
        },
        HostileCase(name: "a commit with a bad time zone", names: "time zone") { h, base in
            let tree = try h.run(["rev-parse", "\(base)^{tree}"])
            return try h.rawCommit("tree \(tree)\nparent \(base)\nauthor A <a@example.org> 1700000000 +00x0\ncommitter C <c@example.org> 1700000000 +0000\n\nx\n")
        },
    ] }
}
