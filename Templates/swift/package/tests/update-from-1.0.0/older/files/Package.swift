// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "{{name}}",
    products: [
        .library(name: "{{name}}", targets: ["{{name}}"]),
{{#executable}}
        .executable(name: "{{name.kebab_case}}", targets: ["{{name}}Tool"]),
{{/executable}}
    ],
    targets: [
        .target(name: "{{name}}", resources: [.copy("Resources")]),
{{#executable}}
        .executableTarget(name: "{{name}}Tool", dependencies: ["{{name}}"]),
{{/executable}}
        .testTarget(name: "{{name}}Tests", dependencies: ["{{name}}"]),
    ]
)
