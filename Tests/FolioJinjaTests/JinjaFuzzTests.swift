import Foundation
import XCTest

@testable import FolioJinja

/// Random templates (token soup and mutated real templates) never crash or hang the engine: each one renders or
/// fails with a `JinjaError`.
final class JinjaFuzzTests: XCTestCase {
    /// A small deterministic generator (SplitMix64), so a failure reproduces.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let pieces = [
        "{{", "}}", "{%", "%}", "{#", "#}", "-", "+", "{%-", "-%}", "{{-", "-}}", " ", "\n", "\t", "x", "y", "loop",
        "if", "elif", "else", "endif", "for", "in", "endfor", "set", "endset", "macro", "endmacro", "call", "endcall",
        "block", "endblock", "extends", "include", "import", "from", "as", "with", "endwith", "filter", "endfilter",
        "raw", "endraw", "recursive", "not", "and", "or", "is", "defined", "none", "true", "(", ")", "[", "]", "{", "}",
        ",", ":", ".", "|", "upper", "join", "default", "=", "==", "<", "+", "*", "**", "//", "%", "~", "'s'", "\"t\"",
        "1", "0", "-1", "2.5", "1e308", "9223372036854775807", "10**100", "range(3)", "caller()", "super()", "loop(x)",
        "'\\u00e4'", "\u{1F40D}", "\u{0}", "\r\n", "\\", "'",
    ]

    func check(_ source: String, _ environment: JinjaEnvironment, file: StaticString = #filePath, line: UInt = #line) {
        do {
            _ = try JinjaTemplate(source: source, name: "fuzz", environment: environment).render([("x", .array([.int(1), .string("a")])), ("y", .string("b"))])
        } catch is JinjaError {
        } catch {
            XCTFail("\(source.debugDescription) threw \(error)", file: file, line: line)
        }
    }

    func environment() -> JinjaEnvironment {
        var options = JinjaOptions()
        options.limits = JinjaLimits(maxOutputBytes: 1 << 20, maxDepth: 16, maxSteps: 20_000)
        options.extensions = [.doStatement, .loopControls]
        return JinjaEnvironment(options: options, templates: ["a": "{% block b %}{{ x }}{% endblock %}", "self": "{% include 'self' %}"])
    }

    /// How many templates each test makes: `FOLIO_JINJA_FUZZ_ITERATIONS` for a longer run, 1500 by default.
    var iterations: Int { ProcessInfo.processInfo.environment["FOLIO_JINJA_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 1500 }

    func testGivenTokenSoupWhenRenderedThenEveryTemplateRendersOrFailsWithAJinjaError() {
        var rng = Seeded(state: UInt64(ProcessInfo.processInfo.environment["FOLIO_JINJA_FUZZ_SEED"].flatMap(Int.init) ?? 34))
        let env = environment()
        for _ in 0..<iterations {
            let count = Int.random(in: 1...24, using: &rng)
            let source = (0..<count).map { _ in Self.pieces.randomElement(using: &rng)! }.joined()
            check(source, env)
        }
    }

    func testGivenWellFormedTemplatesWithRandomEditsWhenRenderedThenEveryOneRendersOrFailsWithAJinjaError() {
        let seeds = [
            "{% for a in x if a is defined %}{{ loop.index }}{{ a|upper }}{% else %}-{% endfor %}",
            "{% macro m(p, q=1) %}{{ p ~ q }}{{ caller() if caller }}{% endmacro %}{% call m(1) %}c{% endcall %}",
            "{% set ns = namespace(n=0) %}{% for i in range(3) %}{% set ns.n = ns.n + i %}{% endfor %}{{ ns.n }}",
            "{% extends 'a' %}{% block b %}[{{ super() }}]{% endblock %}",
            "{{ '%s-%05.1f'|format('a', 2.5) }}{{ '{:>4}'.format(y) }}{{ x|tojson }}{{ x|map('string')|join(',') }}",
            "{%- if x -%}\n  {{ x[0] }}\n{%- endif %}{% raw %}{{ no }}{% endraw %}{# c #}",
        ]
        var rng = Seeded(state: 35)
        let env = environment()
        for seed in seeds {
            for _ in 0..<(iterations / 6) {
                var scalars = Array(seed.unicodeScalars)
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    let i = Int.random(in: 0..<scalars.count, using: &rng)
                    switch Int.random(in: 0..<3, using: &rng) {
                    case 0: scalars.remove(at: i)
                    case 1: scalars.insert(scalars[Int.random(in: 0..<scalars.count, using: &rng)], at: i)
                    default: scalars.swapAt(i, Int.random(in: 0..<scalars.count, using: &rng))
                    }
                    if scalars.isEmpty { scalars = ["x"] }
                }
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars)
                check(String(view), env)
            }
        }
    }
}
