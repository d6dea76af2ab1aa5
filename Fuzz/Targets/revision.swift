// Fuzz target: revision parsing (`Document.resolve`: `@N`, `HEAD~N`, full and short ids, tags, and whatever
// libgit2's revparse accepts) against a small document created once: three versions and two tags.
import FolioCore
import Foundation

nonisolated(unsafe) var fuzzDocument: Document?

private func makeDocument() -> Document? {
    let root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("folio-fuzz-revision-\(getpid())")
    try? FileManager.default.removeItem(at: root)
    try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    let environment = [
        "HOME": root.path, "XDG_CONFIG_HOME": root.path + "/config", "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Fuzz", "GIT_AUTHOR_EMAIL": "fuzz@example.com",
        "GIT_COMMITTER_NAME": "Fuzz", "GIT_COMMITTER_EMAIL": "fuzz@example.com",
    ]
    let store = DocumentStore(settings: Settings(), environment: environment)
    do {
        let document = try store.create(at: root.appendingPathComponent("doc"))
        _ = try document.write(Data("one\n".utf8), to: "notes.txt", message: "One")
        try document.tag("v1")
        _ = try document.write(Data("two\n".utf8), to: "notes.txt", message: "Two")
        try document.tag("v2.0", at: "@1")
        return document
    } catch {
        FileHandle.standardError.write(Data("revision fuzzer: cannot create its document: \(error)\n".utf8))
        return nil
    }
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzRevisionInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    fuzzDocument = makeDocument()
    if fuzzDocument == nil { exit(2) }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRevision(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let document = fuzzDocument else { return 0 }
    let spec = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    _ = try? document.resolve(spec)
    _ = try? document.log(limit: 2, since: spec)
    return 0
}
