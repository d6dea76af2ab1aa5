// Fuzz target: a plugin's folio.argument-values/1 answer (FolioPlugins' ArgumentValues.parse), the one check every
// answer goes through before a form starts from it. The first byte chooses how many arguments the command has (0-7);
// the rest is the answer. An accepted answer has exactly that many values, none holding NUL.
import FolioPlugins
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArgumentValues(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let arguments = Int(bytes[0] & 7)
    let answer = Data(bytes: bytes + 1, count: count - 1)
    guard let values = try? ArgumentValues.parse(answer, count: arguments, editor: "fuzz", command: "cmd") else { return 0 }
    precondition(values.count == arguments, "accepted \(values.count) values for \(arguments) arguments")
    precondition(!values.contains { $0?.contains("\0") == true }, "accepted a value holding NUL")
    return 0
}
