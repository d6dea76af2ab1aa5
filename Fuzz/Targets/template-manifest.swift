// Fuzz target: template.json (FolioTemplates' TemplateManifest.parse, with its checks).
import FolioTemplates
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTemplateManifest(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    if let manifest = try? TemplateManifest.parse(data, file: "template.json") { _ = manifest.variables.count }
    return 0
}
