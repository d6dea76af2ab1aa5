// Fuzz target: FolioTerminal's key decoder. The input is fed in chunks whose sizes come from the first byte, then
// flushed; nothing may trap, nothing may stay pending, and the keys must be the same as when the bytes arrive at once
// (how a read splits the input must not change what the user typed).
import FolioTerminal

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeys(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: bytes + 1, count: count - 1))
    let chunk = Int(bytes[0] % 8) + 1
    var decoder = KeyDecoder()
    var chunked: [Key] = []
    var index = 0
    while index < input.count {
        let end = min(input.count, index + chunk)
        chunked += decoder.feed(Array(input[index..<end]))
        index = end
    }
    chunked += decoder.flush()
    if decoder.hasPending { fatalError("bytes still pending after flush") }
    var whole = KeyDecoder()
    let once = whole.feed(input) + whole.flush()
    if once != chunked { fatalError("keys depend on how the input was split: \(once) vs \(chunked)") }
    return 0
}
