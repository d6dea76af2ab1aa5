import Foundation
import XCTest

@testable import FolioJinja

/// Hostile templates stop with one typed error: never a crash, a hang or unbounded memory.
final class JinjaLimitsTests: XCTestCase {
    func failure(_ source: String, templates: [String: String] = [:], data: [(String, JinjaValue)] = [],
                 limits: JinjaLimits = JinjaLimits(), file: StaticString = #filePath, line: UInt = #line) -> JinjaError? {
        do {
            var options = JinjaOptions()
            options.limits = limits
            let environment = JinjaEnvironment(options: options, templates: templates)
            let output = try JinjaTemplate(source: source, name: "hostile", environment: environment).render(data)
            XCTFail("rendered \(output.utf8.count) bytes instead of failing", file: file, line: line)
            return nil
        } catch let error as JinjaError {
            return error
        } catch {
            XCTFail("threw \(error)", file: file, line: line)
            return nil
        }
    }

    func testGivenALoopOverABillionNumbersWhenRenderedThenTheStepLimitStopsIt() {
        let error = failure("{% for i in range(10**9) %}x{% endfor %}")
        XCTAssertEqual(error?.limit, .maxSteps)
        XCTAssertEqual(error?.template, "hostile")
    }

    func testGivenAMacroCallingItselfWhenRenderedThenTheDepthLimitStopsIt() {
        XCTAssertEqual(failure("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}")?.limit, .maxDepth)
    }

    func testGivenAMacroCallingItselfTwiceAtEveryLevelWhenRenderedThenTheStepLimitStopsIt() {
        let source = "{% macro f(n) %}{% if n > 0 %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(40) }}"
        XCTAssertEqual(failure(source, limits: JinjaLimits(maxSteps: 20_000))?.limit, .maxSteps)
    }

    func testGivenTemplatesIncludingOrExtendingEachOtherWhenRenderedThenTheDepthLimitStopsThem() {
        XCTAssertEqual(failure("{% include 'a' %}", templates: ["a": "{% include 'b' %}", "b": "{% include 'a' %}"])?.limit, .maxDepth)
        XCTAssertEqual(failure("{% extends 'a' %}", templates: ["a": "{% extends 'b' %}", "b": "{% extends 'a' %}"])?.limit, .maxDepth)
    }

    func testGivenARecursiveLoopOverSelfContainingDataWhenRenderedThenTheDepthLimitStopsIt() {
        let source = "{% set l = [] %}{% set _ = l.append(l) %}{% for x in l recursive %}{{ loop(x) }}{% endfor %}"
        XCTAssertEqual(failure(source)?.limit, .maxDepth)
    }

    func testGivenHugeStringsWhenBuiltThenTheOutputLimitStopsThemBeforeTheyAreAllocated() {
        XCTAssertEqual(failure("{{ 'x' * 10**9 }}")?.limit, .maxOutputBytes)
        XCTAssertEqual(failure("{% set ns = namespace(s='xx') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}")?.limit, .maxOutputBytes)
        XCTAssertEqual(failure("{{ 'x'|center(10**9) }}")?.limit, .maxOutputBytes)
        XCTAssertEqual(failure("{{ '{:>999999999}'.format(1) }}")?.limit, .maxOutputBytes)
        XCTAssertEqual(failure("{{ [1] * 10**9 }}")?.limit, .maxSteps)
    }

    func testGivenIntegersBeyond64BitsWhenComputedThenTheyAreExactAsInPython() throws {
        let source = "{{ 10 ** 30 }}|{{ 9223372036854775807 + 1 }}|{{ (-9223372036854775807 - 1) // -1 }}|{{ -(-9223372036854775807 - 1) }}|"
            + "{{ 99999999999999999999 - 99999999999999999998 }}|{{ (10 ** 20) // 7 }}|{{ -(10 ** 20) % 7 }}|{{ 2 ** 64 > 2 ** 63 }}|{{ '18446744073709551616'|int }}"
        XCTAssertEqual(try JinjaTemplate(source: source).render(),
                       "1000000000000000000000000000000|9223372036854775808|9223372036854775808|9223372036854775808|1|14285714285714285714|5|True|18446744073709551616")
    }

    func testGivenAnIntegerOfMillionsOfDigitsWhenComputedThenItIsAValueErrorNotAHang() {
        XCTAssertEqual(failure("{{ 10 ** (10 ** 9) }}")?.kind, .value)
        XCTAssertEqual(failure("{{ 7 ** 100000 }}")?.kind, .value)
        XCTAssertEqual(failure("{% set ns = namespace(n=10**4000) %}{{ ns.n * ns.n }}")?.kind, .value)
    }

    func testGivenExtremeSliceAndRangeArgumentsWhenEvaluatedThenNothingTraps() throws {
        let environment = JinjaEnvironment()
        let source = "{{ 'abc'[1::9223372036854775807] }}|{{ range(0, 3, -9223372036854775807 - 1)|list }}|{{ 'ab'[-9223372036854775807:] }}"
        XCTAssertEqual(try JinjaTemplate(source: source, environment: environment).render(), "b|[]|ab")
    }

    func testGivenDeeplyNestedSyntaxWhenParsedThenItIsASyntaxErrorNotAStackOverflow() {
        XCTAssertEqual(failure("{{ " + String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000) + " }}")?.kind, .syntax)
        XCTAssertEqual(failure("{{ 1" + String(repeating: " + 1", count: 20_000) + " }}")?.kind, .syntax)
        XCTAssertEqual(failure("{{ x" + String(repeating: "|trim", count: 20_000) + " }}")?.kind, .syntax)
        XCTAssertEqual(failure(String(repeating: "{% if true %}", count: 10_000))?.kind, .syntax)
        XCTAssertEqual(failure(String(repeating: "{{ [", count: 20_000))?.kind, .syntax)
    }

    func testGivenASelfContainingListWhenPrintedThenItPrintsAsPythonDoes() throws {
        let output = try JinjaTemplate(source: "{% set l = [1] %}{% set _ = l.append(l) %}{{ l }}").render()
        XCTAssertEqual(output, "[1, [...]]")
    }

    func testGivenInvalidUTF8InTemplateAndDataWhenRenderedThenItIsReplacedNotFatal() throws {
        let template = try JinjaTemplate(bytes: Array("a\u{1}".utf8) + [0xFF, 0xFE] + Array("{{ x }}".utf8))
        let data = try JinjaValue(json: Array("{\"x\": \"".utf8) + [0xC3] + Array("\"}".utf8))
        XCTAssertEqual(try template.render(context: data), "a\u{1}\u{FFFD}\u{FFFD}\u{FFFD}")
    }

    func testGivenHalfAMegabyteOfUnclosedTagsWhenLexedThenItFailsQuickly() {
        let start = ContinuousClock.now
        XCTAssertEqual(failure(String(repeating: "{%", count: 100_000))?.kind, .syntax)
        XCTAssertEqual(failure(String(repeating: "{{ '", count: 100_000))?.kind, .syntax)
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(5))
    }
}

/// Rendering on threads with small stacks: deep recursion ends in a typed error before the stack runs out.
final class JinjaStackTests: XCTestCase {
    final class Outcome: @unchecked Sendable { var errors: [JinjaError] = [] }

    func testGivenSmallThreadStacksWhenDeepTemplatesRenderThenTheyFailWithTypedErrorsNotACrash() {
        for size in [128 << 10, 512 << 10, 2 << 20] {
            let outcome = Outcome()
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                let deep = [
                    "{% macro f(n) %}{% for i in [1] %}{% if n > 0 %}{{ f(n - 1)|upper }}{% endif %}{% endfor %}{% endmacro %}{{ f(200) }}",
                    "{{ " + String(repeating: "(", count: 45) + "1" + String(repeating: ")", count: 45) + " }}",
                    "{% include 'a' %}",
                ]
                for source in deep {
                    do {
                        _ = try JinjaTemplate(source: source, environment: JinjaEnvironment(templates: ["a": "{% include 'a' %}"])).render()
                    } catch let error as JinjaError {
                        outcome.errors.append(error)
                    } catch {}
                }
                done.signal()
            }
            thread.stackSize = size
            thread.start()
            done.wait()
            XCTAssertGreaterThanOrEqual(outcome.errors.count, 2, "stack of \(size) bytes")
            XCTAssertTrue(outcome.errors.allSatisfy { $0.kind == .limit || $0.kind == .syntax }, "\(outcome.errors)")
        }
    }
}
