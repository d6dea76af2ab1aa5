// Fuzz target: FolioPluginKit's JSON reader (PluginJSON), which Swift plugins use on command arguments and on
// documents that arrive from anywhere (a collaborator's checklist is parsed by the Checklist plugin with it).
// Beyond not crashing, every string it reads must come back unchanged through PluginJSON.quote and a second parse,
// and the lenient reading (trailing commas) must accept whatever the strict one does, with the same value.
import FolioPluginKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPluginJSON(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: bytes, count: count))
    let lenient = try? PluginJSON.parse(input, trailingCommas: true)
    guard let strict = try? PluginJSON.parse(input) else { return 0 }
    guard lenient == strict else { fatalError("the lenient reading differs from the strict one") }
    checkStrings(strict)
    return 0
}

/// Every string (keys too) survives quoting and reading back.
private func checkStrings(_ value: PluginJSON.Value) {
    switch value {
    case let .string(text):
        roundTrip(text)
    case let .array(values):
        values.forEach(checkStrings)
    case let .object(members):
        for (key, member) in members {
            roundTrip(key)
            checkStrings(member)
        }
    case .null, .bool, .number:
        break
    }
}

private func roundTrip(_ text: String) {
    let quoted = PluginJSON.quote(text)
    guard case .string(let back)? = try? PluginJSON.parse(Array(quoted.utf8)), back == text else {
        fatalError("a string did not survive quoting: \(text.unicodeScalars.map { $0.value })")
    }
}
