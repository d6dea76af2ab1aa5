// Fuzz target: FolioJinja's lexer, parser and renderer (with every extension Folio has enabled).
// Input: template bytes, optionally followed by a NUL byte and JSON data to render against. The template is also
// the partials `self` and `base`, so include, import, extends and recursion bounds are exercised; render limits are
// small so that loops end quickly.
import FolioJinja
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJinja(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let buffer = UnsafeBufferPointer(start: bytes, count: count)
    let split = buffer.firstIndex(of: 0) ?? count
    let source = String(decoding: buffer[..<split], as: UTF8.self)
    var data: JinjaValue = .none
    if split < count, let value = try? JinjaValue(json: Array(buffer[(split + 1)...])) { data = value }
    var options = JinjaOptions()
    options.extensions = [.doStatement, .loopControls, .time, .jsonify, .randomString, .slugify, .uuid, .ansibleFilters]
    options.limits = JinjaLimits(maxOutputBytes: 1 << 20, maxDepth: 32, maxSteps: 200_000)
    options.now = 1_800_000_000
    let environment = JinjaEnvironment(options: options, templates: ["self": source, "base": source, "p": "{{ name }}"])
    guard let template = try? JinjaTemplate(source: source, name: "fuzz.j2", environment: environment) else { return 0 }
    _ = try? template.render(context: data)
    return 0
}
