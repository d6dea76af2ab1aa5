// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Demo",
    products: [
        .library(name: "Demo", targets: ["Demo"]),
        .executable(name: "demo", targets: ["DemoTool"]),
    ],
    targets: [
        .target(name: "Demo", resources: [.copy("Resources")]),
        .executableTarget(name: "DemoTool", dependencies: ["Demo"]),
        .testTarget(name: "DemoTests", dependencies: ["Demo"]),
    ]
)
