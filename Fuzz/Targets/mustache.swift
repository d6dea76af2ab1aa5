// Fuzz target: FolioMustache's parser and renderer.
// Input: template bytes, optionally followed by a NUL byte and JSON data to render against. The template is also
// its own partial `self` and the parent `parent`, so partials, parents and recursion bounds are exercised.
import FolioMustache
import Foundation

let defaultData: MustacheValue = [
    "name": "Ada", "list": [1, 2, ["x": "y"]], "nested": ["a": ["b": true]], "empty": [], "html": "<&>\"'",
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMustache(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let buffer = UnsafeBufferPointer(start: bytes, count: count)
    let split = buffer.firstIndex(of: 0) ?? count
    let source = String(decoding: buffer[..<split], as: UTF8.self)
    var data = defaultData
    if split < count, let value = try? MustacheValue(json: Data(buffer[(split + 1)...])) { data = value }
    guard let template = try? MustacheTemplate(source, name: "fuzz.mustache") else { return 0 }
    let partials = DictionaryPartialLoader(["self": source, "parent": source, "p": "{{name}}"])
    _ = try? template.render(data, partials: partials)
    _ = try? template.render(data, partials: partials, options: MustacheRenderOptions(strict: true, escapeHTML: false))
    return 0
}
