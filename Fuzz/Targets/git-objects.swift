// Fuzz target: the fetch-time checker's parsers (`GitObjectRules`): raw trees, commits and tags as a remote could
// send them. The first byte picks the parser; the rest is the object's bytes. A refusal is fine; a crash, trap or
// hang is a finding. A tree that parses must also pass the rules again entry by entry (names are re-checked).
import FolioGit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGitObjects(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let body = UnsafeRawBufferPointer(start: bytes + 1, count: count - 1)
    switch bytes[0] % 3 {
    case 0:
        if let entries = try? GitObjectRules.parseTree(body) {
            for entry in entries where GitObjectRules.isGitName(Array(entry.name.utf8)) {
                fatalError("a tree with a .git entry was accepted: \(entry.name.debugDescription)")
            }
        }
    case 1: _ = try? GitObjectRules.parseCommit(body)
    default: _ = try? GitObjectRules.parseTag(body)
    }
    return 0
}
