import Foundation
import XCTest

@testable import FolioJinja

/// The extensions templates rely on, against what the real ones give (Fixtures/extensions/extensions.json, made by
/// Fixtures/extensions/record.py with Jinja2 3.1.6, cookiecutter 2.7.1, jinja2-time 0.2.0, jinja2-ansible-filters
/// 1.3.2 and python-slugify 9.2.0, the clock fixed): cookiecutter's jsonify, slugify and now, copier's Ansible filters.
final class JinjaExtensionTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/extensions/extensions.json")

    func testGivenTheRealExtensionsOutputsWhenEachCaseRendersThenFolioGivesTheSame() throws {
        let file = try JinjaValue(json: String(contentsOf: Self.fixtures, encoding: .utf8))
        guard case .dict(let root) = file, case .list(let tests)? = root.get(.string("tests")), case .float(let now)? = root.get(.string("now")) else {
            return XCTFail("extensions.json is not in the form record.py writes")
        }
        XCTAssertGreaterThanOrEqual(tests.items.count, 50)
        var failures: [String] = []
        for case .dict(let t) in tests.items {
            let template = t.get(.string("template"))?.plainString ?? ""
            let names = JinjaDict()
            names.set(.string("extensions"), t.get(.string("extensions")) ?? .list(JinjaList()))
            names.set(.string("undefined"), .string("StrictUndefined"))
            names.set(.string("keep_trailing_newline"), .bool(true))
            do {
                var options = try JinjaOptions(jinjaNames: names)
                options.now = now
                let output = try JinjaTemplate(source: template, environment: JinjaEnvironment(options: options)).render(context: t.get(.string("data")) ?? .none)
                if let expected = t.get(.string("expected"))?.plainString, output == expected { continue }
                failures.append("\(template): expected \(t.get(.string("expected"))?.plainString.debugDescription ?? t.get(.string("error"))?.plainString ?? "?"), got \(output.debugDescription)")
            } catch let error as JinjaError {
                if let kind = t.get(.string("error"))?.plainString, error.kind.rawValue == kind { continue }
                failures.append("\(template): expected \(t.get(.string("expected"))?.plainString.debugDescription ?? "?"), threw \(error)")
            }
        }
        XCTAssertTrue(failures.isEmpty, failures.joined(separator: "\n"))
    }

    private func render(_ template: String, _ extensions: Set<JinjaExtension>) throws -> String {
        var options = JinjaOptions()
        options.extensions = extensions
        return try JinjaTemplate(source: template, environment: JinjaEnvironment(options: options)).render()
    }

    func testGivenCookiecuttersRandomFunctionsWhenCalledThenTheyHaveTheShapeAndDifferEachTime() throws {
        let strings = try (0..<2).map { _ in try render("{{ random_ascii_string(32) }}", JinjaExtension.cookiecutterDefaults) }
        XCTAssertTrue(strings.allSatisfy { $0.count == 32 && $0.allSatisfy { $0.isASCII && $0.isLetter } }, "\(strings)")
        XCTAssertNotEqual(strings[0], strings[1])
        let punctuated = try render("{{ random_ascii_string(400, punctuation=True) }}", JinjaExtension.cookiecutterDefaults)
        XCTAssertTrue(punctuated.contains { $0.isPunctuation || $0.isSymbol }, punctuated)
        let uuid = try render("{{ uuid4() }}", JinjaExtension.cookiecutterDefaults)
        XCTAssertNotNil(uuid.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/), uuid)
        XCTAssertNotEqual(uuid, try render("{{ uuid4() }}", JinjaExtension.cookiecutterDefaults))
    }

    func testGivenAnExtensionNotEnabledOrAFilterFolioLacksWhenCompiledThenItIsRefusedNamingIt() {
        XCTAssertThrowsError(try render("{{ 'x' | slugify }}", [])) { error in
            XCTAssertEqual((error as? JinjaError)?.kind, .assertion)
        }
        XCTAssertThrowsError(try render("{{ d | to_uuid }}", [.ansibleFilters])) { error in
            XCTAssertTrue("\(error)".contains("No filter named 'to_uuid': jinja2-ansible-filters has it, Folio does not."), "\(error)")
        }
        XCTAssertThrowsError(try render("{% now 'Europe/Paris' %}", [.time])) { error in
            XCTAssertTrue("\(error)".contains("the time zone 'Europe/Paris' is not available in Folio (utc or local)"), "\(error)")
        }
        XCTAssertThrowsError(try render("{{ 'Ελληνικά' | slugify }}", [.slugify])) { error in
            XCTAssertTrue("\(error)".contains("needs a transliteration table Folio does not have"), "\(error)")
        }
        XCTAssertThrowsError(try JinjaOptions(jinjaNames: { let d = JinjaDict(); d.set(.string("extensions"), .list(JinjaList([.string("jinja2_humanize_extension.HumanizeExtension")]))); return d }())) { error in
            XCTAssertTrue("\(error)".contains("jinja2_humanize_extension.HumanizeExtension"), "\(error)")
        }
    }

    func testGivenAPatternThatCouldBacktrackForeverWhenUsedThenItIsRefusedAtOnce() throws {
        let started = Date()
        XCTAssertThrowsError(try render("{{ ('a' * 40 + '!') | regex_search('(a+)+$') }}", [.ansibleFilters])) { error in
            XCTAssertTrue("\(error)".contains("can take exponential time"), "\(error)")
        }
        XCTAssertThrowsError(try render("{{ 'aaaa' | regex_replace('(x*)*y', '') }}", [.ansibleFilters]))
        for pattern in ["(a|a)*b", "(a|aa)+b", "(?:\\\\w|a)*$", "((a|b)|a)+"] {
            XCTAssertThrowsError(try render("{{ ('a' * 40) | regex_search('\(pattern)') }}", [.ansibleFilters]), pattern)
        }
        XCTAssertEqual(try render("{{ 'a.b' | regex_replace('(a|\\\\.)+', 'x') }}", [.ansibleFilters]), "xb")
        XCTAssertEqual(try render("{{ 'a-b' | regex_replace('(a|b)+', 'x') }}", [.ansibleFilters]), "x-x")
        XCTAssertEqual(try render("{{ 'ab12' | regex_findall('[a-z]+|\\\\d+') }}", [.ansibleFilters]), "['ab', '12']")
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    }
    func testGivenLipsumWhenCalledThenItMakesRandomParagraphsOfTheShapeJinja2Makes() throws {
        let html = try render("{{ lipsum() }}", [])
        let paragraphs = html.split(separator: "\n")
        XCTAssertEqual(paragraphs.count, 5, html)
        for p in paragraphs {
            XCTAssertTrue(p.hasPrefix("<p>") && p.hasSuffix(".</p>"), String(p))
            let words = p.dropFirst(3).dropLast(4).split(separator: " ")
            XCTAssertTrue((20..<100).contains(words.count), "\(words.count) words")
            XCTAssertTrue(words.first?.first?.isUppercase ?? false, String(p))
            XCTAssertTrue(words.allSatisfy { $0.allSatisfy { $0.isLetter || $0 == "," || $0 == "." } }, String(p))
        }
        let plain = try render("{{ lipsum(2, html=False, min=5, max=6) }}", [])
        XCTAssertEqual(plain.components(separatedBy: "\n\n").map { $0.split(separator: " ").count }, [5, 5], plain)
        XCTAssertNotEqual(try render("{{ lipsum(1) }}", []), try render("{{ lipsum(1) }}", []))
        XCTAssertThrowsError(try render("{{ lipsum(1, min=5, max=5) }}", []))
        XCTAssertThrowsError(try render("{{ lipsum(10000, max=100000) }}", []), "a billion words is refused, not made")
    }
}
