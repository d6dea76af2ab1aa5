// swift-tools-version:6.0
import PackageDescription

// FolioPluginKit comes from Folio's source: FOLIO_SOURCE when set, else the checkout given when this project was made.
// A package added by path is known by its folder's name, so the product below names it that way.
let folio = Context.environment["FOLIO_SOURCE"] ?? "../folio"
let folioPackage = folio.split(separator: "/").last.map(String.init) ?? "folio"

let package = Package(
    name: "Notes",
    products: [
        // A dynamic library: `swift build` makes .build/debug/libNotes.so, the plugin.
        .library(name: "Notes", type: .dynamic, targets: ["Notes"]),
    ],
    dependencies: [.package(path: folio)],
    targets: [
        .target(name: "Notes", dependencies: [.product(name: "FolioPluginKit", package: folioPackage)]),
    ]
)
