// swift-tools-version:6.0
import Foundation
import PackageDescription

// FolioPluginKit comes from the Swift SDK of the installed Folio, PREFIX/share/folio/sdk/swift, found from the `folio`
// on PATH (so the project builds wherever it is). FOLIO_SDK=/path overrides it: an SDK folder or a checkout of Folio.
// A package added by path is known by its folder's name, so the product below names it that way.
func installedSDK() -> String? {
    for folder in (Context.environment["PATH"] ?? "").split(separator: ":") {
        let folio = URL(fileURLWithPath: String(folder)).appendingPathComponent("folio")
        guard FileManager.default.isExecutableFile(atPath: folio.path) else { continue }
        let sdk = folio.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/folio/sdk/swift")
        if FileManager.default.fileExists(atPath: sdk.appendingPathComponent("Package.swift").path) { return sdk.path }
    }
    return nil
}
guard let sdk = Context.environment["FOLIO_SDK"] ?? installedSDK() else {
    fatalError("FolioPluginKit not found: no folio on PATH with share/folio/sdk/swift beside it; set FOLIO_SDK=/path/to/sdk")
}
let sdkPackage = sdk.split(separator: "/").last.map(String.init) ?? "swift"

let package = Package(
    name: "Notes",
    products: [
        // A dynamic library: `swift build` makes .build/debug/libNotes.so, the plugin.
        .library(name: "Notes", type: .dynamic, targets: ["Notes"]),
    ],
    dependencies: [.package(path: sdk)],
    targets: [
        .target(name: "Notes", dependencies: [.product(name: "FolioPluginKit", package: sdkPackage)]),
    ]
)
