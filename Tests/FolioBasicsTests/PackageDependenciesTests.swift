import Foundation
import XCTest

/// Package.swift states every module a target imports: a module imported without being declared builds only because
/// another dependency happens to bring it, and breaks when that one changes. The toolchain's and the system's
/// modules are not declared.
final class PackageDependenciesTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let system: Set<String> = [
        "Foundation", "FoundationEssentials", "FoundationNetworking", "Glibc", "Darwin", "Musl", "XCTest", "Testing", "Dispatch",
        "Synchronization", "_Concurrency", "_StringProcessing", "PackageDescription", "SwiftShims",
    ]

    struct Target { let name: String, kind: String, dependencies: Set<String>, path: String }

    /// Every target of Package.swift with its declared dependencies and folder (read from the manifest's text).
    static func targets() throws -> [Target] {
        let text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let start = try Regex(#"\.(target|testTarget|executableTarget|systemLibrary)\(name: "([^"]+)""#)
        let quoted = try Regex(#""([^"]+)""#)
        var out: [Target] = []
        for match in text.matches(of: start) {
            guard let kind = match.output[1].substring.map(String.init), let name = match.output[2].substring.map(String.init) else { continue }
            var depth = 1, end = match.range.upperBound
            while depth > 0, end < text.endIndex {
                if text[end] == "(" { depth += 1 } else if text[end] == ")" { depth -= 1 }
                end = text.index(after: end)
            }
            let body = text[match.range.upperBound..<end]
            var dependencies: Set<String> = []
            if let list = body.range(of: "dependencies: ["), let close = body[list.upperBound...].firstIndex(of: "]") {
                for dependency in body[list.upperBound..<close].matches(of: quoted) { dependencies.insert(String(dependency.output[1].substring ?? "")) }
            }
            var path = (kind == "testTarget" ? "Tests/" : "Sources/") + name
            if let given = body.firstMatch(of: try Regex(#"path: "([^"]+)""#)), let folder = given.output[1].substring { path = String(folder) }
            out.append(Target(name: name, kind: kind, dependencies: dependencies, path: path))
        }
        return out
    }

    /// The modules `file` imports, outside multi-line string literals (a test's embedded Python imports nothing).
    static func imports(in file: URL) throws -> Set<String> {
        let pattern = try Regex(#"^\s*(?:@testable\s+|@_exported\s+|@preconcurrency\s+)*import\s+(?:(?:struct|enum|class|func|protocol|typealias|var)\s+)?([A-Za-z_][A-Za-z0-9_]*)"#)
        var out: Set<String> = [], inString = false
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.components(separatedBy: "\"\"\"").count % 2 == 0 { inString.toggle(); continue }
            guard !inString, let match = line.firstMatch(of: pattern), let module = match.output[1].substring else { continue }
            out.insert(String(module))
        }
        return out
    }

    func testGivenEveryTargetWhenItsSourcesAreReadThenEachModuleTheyImportIsADeclaredDependency() throws {
        let targets = try Self.targets()
        XCTAssertGreaterThan(targets.count, 30, "Package.swift's targets were not found")
        var undeclared: [String] = []
        for target in targets where target.kind != "systemLibrary" {
            let folder = Self.root.appendingPathComponent(target.path)
            guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { continue }
            var imported: Set<String> = []
            for case let file as URL in files where file.pathExtension == "swift" { imported.formUnion(try Self.imports(in: file)) }
            let missing = imported.subtracting(target.dependencies).subtracting(Self.system).subtracting([target.name])
            if !missing.isEmpty { undeclared.append("\(target.name) imports \(missing.sorted().joined(separator: ", ")) without declaring it") }
        }
        XCTAssertEqual(undeclared, [], undeclared.joined(separator: "\n"))
    }
}
