// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Widget",
    products: [
        .library(name: "Widget", targets: ["Widget"]),
    ],
    targets: [
        .target(name: "Widget", resources: [.copy("Resources")]),
        .testTarget(name: "WidgetTests", dependencies: ["Widget"]),
    ]
)
