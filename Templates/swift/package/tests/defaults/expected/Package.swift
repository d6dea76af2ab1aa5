// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "HelloWorld",
    products: [
        .library(name: "HelloWorld", targets: ["HelloWorld"]),
        .executable(name: "hello-world", targets: ["HelloWorldTool"]),
    ],
    targets: [
        .target(name: "HelloWorld", resources: [.copy("Resources")]),
        .executableTarget(name: "HelloWorldTool", dependencies: ["HelloWorld"]),
        .testTarget(name: "HelloWorldTests", dependencies: ["HelloWorld"]),
    ]
)
