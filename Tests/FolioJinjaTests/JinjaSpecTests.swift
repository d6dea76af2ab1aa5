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
        var template = ""
        var data: JinjaValue = .none
        var options = JinjaDict()
        var partials: [String: String] = [:]
        var expected: String?
        var error: String?
        /// Why the file or the case could not be read: such a case fails, and the others still run.
        var problem: String?
    }

    /// Every case of every `*.json` file in the folder. Never throws: a folder, file or case it cannot read becomes
    /// one failing case naming the problem, so one bad file does not hide the results of the others.
    static func loadCases(from directory: URL) -> [SpecCase] {
        // A linked folder is read where it points (Foundation lists nothing in a symlink to a folder).
        let folder = directory.resolvingSymlinksInPath()
        let listed: [URL]
        do {
            listed = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        } catch {
            return [SpecCase(file: folder.lastPathComponent, key: "\(folder.path): unreadable", problem: "\(error)")]
        }
        var seen: [String: Int] = [:]
        return listed.filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
            .flatMap { cases(in: $0, seen: &seen) }
    }

    static func cases(in file: URL, seen: inout [String: Int]) -> [SpecCase] {
        let name = file.lastPathComponent
        let root: JinjaValue
        do {
            root = try JinjaValue(json: Array(Data(contentsOf: file)))
        } catch {
            return [SpecCase(file: name, key: "\(name): unreadable", problem: "\(error)")]
        }
        guard case .dict(let d) = root, case .list(let tests)? = d["tests"] else {
            return [SpecCase(file: name, key: "\(name): unreadable", problem: "no \"tests\" list")]
        }
        return tests.items.enumerated().map { index, test in
            guard case .dict(let t) = test else {
                return SpecCase(file: name, key: "\(name): case \(index)", problem: "a case that is not an object")
            }
            return specCase(t, file: name, seen: &seen)
        }
    }

    /// One case; keys it lacks take their defaults (no data, default options, no partials).
    static func specCase(_ t: JinjaDict, file: String, seen: inout [String: Int]) -> SpecCase {
        let desc = t["desc"]?.stringValue ?? t["name"]?.stringValue ?? "?"
        let n = seen[desc, default: 0] + 1
        seen[desc] = n
        var c = SpecCase(file: file, key: n == 1 ? desc : "\(desc) #\(n)")
        c.template = t["template"]?.stringValue ?? ""
        if case .dict(let data)? = t["data"] { c.data = .dict(data) }
        if case .dict(let o)? = t["options"] { c.options = o }
        if case .dict(let p)? = t["partials"] {
            for (k, v) in p.entries { c.partials[k.plainString] = v.plainString }
        }
        c.expected = t["expected"]?.stringValue
        c.error = t["error"]?.stringValue
        if t["template"]?.stringValue == nil { c.problem = "no template" }
        if c.expected == nil, c.error == nil { c.problem = "neither an expected output nor an error" }
        return c
    }

    /// Renders one case; nil when it behaves as recorded, else what went wrong.
    static func run(_ c: SpecCase) -> String? {
        if let problem = c.problem { return "unreadable case: \(problem)" }
        do {
            let options = try JinjaOptions(jinjaNames: c.options)
            let environment = JinjaEnvironment(options: options, templates: c.partials)
            let output = try JinjaTemplate(source: c.template, environment: environment).render(context: c.data)
            // Byte for byte: Swift's == on String would take canonically equivalent text (é and e + U+0301) as equal.
            if let expected = c.expected, output.utf8.elementsEqual(expected.utf8) { return nil }
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
        let cases = Self.loadCases(from: directory)
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
