// Fuzz target: `.folio/document.json` (FolioCore's DocumentMetadata.decode) and encoding what it accepts.
import FolioCore
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDocumentJSON(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    guard let metadata = try? DocumentMetadata.decode(data) else { return 0 }
    // What was accepted must write back and read again.
    guard let encoded = try? metadata.encoded() else { fatalError("accepted document.json cannot be encoded") }
    if (try? DocumentMetadata.decode(encoded)) == nil { fatalError("re-encoded document.json is refused") }
    return 0
}
