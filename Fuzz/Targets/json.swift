// Fuzz target: FolioCore's positioned JSON reader (JSONNode), the parser behind every JSON file Folio reads.
import FolioCore
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    guard let node = try? JSONNode.parse(data) else { return 0 }
    // Walk everything a caller would: the plain value, key checks and lookups.
    _ = node.value
    _ = try? node.rejectUnknownKeys { _ in ["a", "b"] }
    _ = node["a"]
    return 0
}
