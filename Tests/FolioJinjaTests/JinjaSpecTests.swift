import Foundation
import XCTest

@testable import FolioJinja

/// Runs every case of the Jinja2 conformance spec found in `shared/spec/jinja/*.json` (recorded from Jinja2 3.1.6's
/// own tests). Cases listed in KnownFailures.txt may fail; any other failure is a regression, and a listed case
/// that passes must be taken off the list.
final class JinjaSpecTests: XCTestCase {
    /// Finds `shared/spec/jinja`: `$FOLIO_SHARED_DIR/spec/jinja`, else `shared/` beside the repo (or beside any
    /// ancestor of it, which covers git worktrees living under the project folder).
    static func specDirectory() -> URL? {
        var candidates: [URL] = []
        if let shared = ProcessInfo.processInfo.environment["FOLIO_SHARED_DIR"], !shared.isEmpty {
            candidates.append(URL(fileURLWithPath: shared).appendingPathComponent("spec/jinja"))
        }
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(dir.deletingLastPathComponent().appendingPathComponent("shared/spec/jinja"))
            dir = dir.deletingLastPathComponent()
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) }
    }

    struct SpecCase {
        let file: String
        /// The case's `desc`, with ` #N` added to the Nth case sharing a desc.
        let key: String
        let template: String
        let data: JinjaValue
        let options: JinjaDict
        let partials: [String: String]
        let expected: String?
        let error: String?
    }

    static func loadCases(from directory: URL) throws -> [SpecCase] {
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        var cases: [SpecCase] = []
        var seen: [String: Int] = [:]
        for file in files {
            let root = try JinjaValue(json: Array(Data(contentsOf: file)))
            guard case .dict(let d) = root, case .list(let tests)? = d["tests"] else {
                throw JinjaError(.value, "not a spec file", template: file.path)
            }
            for case .dict(let t) in tests.items {
                let desc = t["desc"]?.plainString ?? "?"
                seen[desc, default: 0] += 1
                let n = seen[desc]!
                var partials: [String: String] = [:]
                if case .dict(let p)? = t["partials"] {
                    for (k, v) in p.entries { partials[k.plainString] = v.plainString }
                }
                var options = JinjaDict()
                if case .dict(let o)? = t["options"] { options = o }
                cases.append(SpecCase(
                    file: file.lastPathComponent, key: n == 1 ? desc : "\(desc) #\(n)",
                    template: t["template"]?.plainString ?? "", data: t["data"] ?? .none, options: options,
                    partials: partials, expected: t["expected"]?.stringValue, error: t["error"]?.stringValue))
            }
        }
        return cases
    }

    /// Renders one case; nil when it behaves as recorded, else what went wrong.
    static func run(_ c: SpecCase) -> String? {
        do {
            let options = try JinjaOptions(jinjaNames: c.options)
            let environment = JinjaEnvironment(options: options, templates: c.partials)
            let output = try JinjaTemplate(source: c.template, environment: environment).render(context: c.data)
            if let expected = c.expected, output == expected { return nil }
            if let error = c.error { return "expected \(error), got output \(output.debugDescription)" }
            return "expected \(c.expected.debugDescription), got \(output.debugDescription)"
        } catch let e as JinjaError {
            if let error = c.error, e.kind.rawValue == error { return nil }
            return "expected \(c.expected.map(\.debugDescription) ?? c.error ?? "?"), threw \(e)"
        } catch {
            return "threw \(error)"
        }
    }

    static func knownFailures() throws -> Set<String> {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("KnownFailures.txt")
        let text = try String(contentsOf: url, encoding: .utf8)
        return Set(text.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("//") })
    }

    func testGivenTheJinjaSpecWhenEveryCaseRendersThenOnlyKnownFailuresFail() throws {
        guard let directory = Self.specDirectory() else {
            if let shared = ProcessInfo.processInfo.environment["FOLIO_SHARED_DIR"], !shared.isEmpty {
                XCTFail("jinja spec not found in \(shared)/spec/jinja (FOLIO_SHARED_DIR is set)")
                return
            }
            throw XCTSkip("jinja spec not found (no FOLIO_SHARED_DIR, no shared/spec/jinja beside the repository): skipped")
        }
        let cases = try Self.loadCases(from: directory)
        XCTAssertGreaterThanOrEqual(cases.count, 100, "too few spec cases found in \(directory.path)")
        let known = try Self.knownFailures()
        var failed: [String: String] = [:]
        var perFile: [String: (passed: Int, failed: Int)] = [:]
        for c in cases {
            if let failure = Self.run(c) {
                failed[c.key] = failure
                perFile[c.file, default: (0, 0)].failed += 1
            } else {
                perFile[c.file, default: (0, 0)].passed += 1
            }
        }
        print("jinja spec: \(cases.count - failed.count) passed, \(failed.count) failed")
        for (file, counts) in perFile.sorted(by: { $0.key < $1.key }) {
            print("  \(file): \(counts.passed) passed, \(counts.failed) failed")
        }
        let regressions = failed.filter { !known.contains($0.key) }.sorted { $0.key < $1.key }
        for (key, why) in regressions { print("  FAIL \(key): \(why)") }
        XCTAssertTrue(regressions.isEmpty, "spec cases failing that are not in KnownFailures.txt:\n"
            + regressions.map { "\($0.key): \($0.value)" }.joined(separator: "\n"))
        let allKeys = Set(cases.map(\.key))
        let nowPassing = known.filter { allKeys.contains($0) && failed[$0] == nil }.sorted()
        XCTAssertTrue(nowPassing.isEmpty, "cases in KnownFailures.txt that pass now (take them off the list):\n" + nowPassing.joined(separator: "\n"))
    }
}
