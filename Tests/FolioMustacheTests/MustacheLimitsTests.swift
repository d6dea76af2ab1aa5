import Foundation
import XCTest

@testable import FolioMustache

/// Every render is bounded: output bytes, nesting depth and steps; each limit gives a typed error naming the
/// template instead of a hang, a runaway allocation or a stack overflow.
final class MustacheLimitsTests: XCTestCase {
    private func tenItems() -> MustacheValue { ["a": .array((0..<10).map { _ in ["b": "x"] })] }

    private func nested(_ depth: Int, _ inner: String) -> String {
        String(repeating: "{{#a}}", count: depth) + inner + String(repeating: "{{/a}}", count: depth)
    }

    func testGivenTwelveNestedSectionsOverTenItemsWhenRenderedThenStepLimitStopsIt() throws {
        // Given twelve nested sections over a ten-item list (10^12 repetitions) and no output to stop it
        let template = try MustacheTemplate(nested(12, "{{! nothing }}"), name: "nested.mustache")
        let options = MustacheRenderOptions(limits: MustacheLimits(maxSteps: 200_000))
        // When rendered, then the step limit stops it with an error naming the template and the limit
        XCTAssertThrowsError(try template.render(tenItems(), options: options)) { error in
            guard let error = error as? MustacheError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.limit, .maxSteps)
            XCTAssertEqual(error.file, "nested.mustache")
            XCTAssertTrue(error.description.contains("more than 200000 steps"), error.description)
        }
    }

    func testGivenNestedSectionsProducingTextWhenRenderedWithDefaultsThenOutputLimitStopsIt() throws {
        // Given nested sections that would print 10^8 copies of a kilobyte
        let kilobyte = String(repeating: "x", count: 1024)
        let template = try MustacheTemplate(nested(8, kilobyte), name: "big.mustache")
        // When rendered with the default limits, then it stops at 64 MiB of output
        XCTAssertThrowsError(try template.render(tenItems())) { error in
            guard let error = error as? MustacheError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.limit, .maxOutputBytes)
            XCTAssertEqual(error.file, "big.mustache")
            XCTAssertTrue(error.message.contains("\(64 << 20) bytes"), error.message)
        }
    }

    func testGivenOutputLimitWhenValueIsLargeThenErrorNamesTagLocation() throws {
        let template = try MustacheTemplate("ok\n  {{text}}", name: "t.mustache")
        let options = MustacheRenderOptions(limits: MustacheLimits(maxOutputBytes: 100))
        XCTAssertThrowsError(try template.render(["text": .string(String(repeating: "y", count: 101))], options: options)) { error in
            XCTAssertEqual(String(describing: error),
                           "t.mustache:2:3: output passed the limit of 100 bytes (limit maxOutputBytes)")
        }
        // And exactly at the limit, it renders
        XCTAssertEqual(try template.render(["text": .string(String(repeating: "y", count: 95))], options: options).utf8.count, 100)
    }

    func testGivenSelfIncludingPartialOverDeepDataWhenRenderedThenDepthLimitStopsIt() throws {
        // Given a partial that includes itself once per level of 300-deep data (a section and a partial per level)
        var data: MustacheValue = ["c": false]  // the leaf ends the recursion (a missing key would resolve upwards)
        for _ in 0..<300 { data = ["c": data] }
        let partials = DictionaryPartialLoader(["p": "{{#c}}<{{>p}}>{{/c}}"])
        // When rendered with the defaults, then the depth limit (100) stops it, naming the partial and the template
        XCTAssertThrowsError(try MustacheTemplate("{{>p}}", name: "tree.mustache").render(data, partials: partials)) { error in
            guard let error = error as? MustacheError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.limit, .maxDepth)
            XCTAssertEqual(error.file, "p")
            XCTAssertTrue(error.message.contains("more than 100 levels") && error.message.contains("while rendering tree.mustache"), error.message)
        }
        // And with a higher limit, the same render completes
        let deep = MustacheRenderOptions(limits: MustacheLimits(maxDepth: 1_000))
        let output = try MustacheTemplate("{{>p}}", name: "tree.mustache").render(data, partials: partials, options: deep)
        XCTAssertEqual(output, String(repeating: "<", count: 300) + String(repeating: ">", count: 300))
    }

    func testGivenHugeDepthSettingWhenRecursingOnAWorkerThreadThenCeilingStopsItWithoutOverflow() throws {
        // Given a partial recursing forever and a depth limit far beyond the ceiling, rendered on a worker thread
        let partials = DictionaryPartialLoader(["loop": "{{#x}}{{>loop}}{{/x}}"])
        let options = MustacheRenderOptions(limits: MustacheLimits(maxDepth: 10_000_000))
        let box = ErrorBox()
        let done = expectation(description: "rendered")
        DispatchQueue.global().async {
            do { _ = try MustacheTemplate("{{>loop}}", name: "loop.mustache").render(["x": true], partials: partials, options: options) } catch {
                box.error = error
            }
            done.fulfill()
        }
        wait(for: [done], timeout: 60)
        // Then it stops at the ceiling with an error (no stack overflow)
        XCTAssertEqual((box.error as? MustacheError)?.limit, .maxDepth)
        XCTAssertTrue(String(describing: box.error).contains("more than \(MustacheLimits.depthCeiling) levels"), "\(String(describing: box.error))")
    }

    func testGivenManyTagsOnOneLineWhenAnErrorFollowsThenColumnIsExact() throws {
        // Given 20,000 tags on one line followed by a stray close tag (columns are tracked incrementally)
        let source = "é" + String(repeating: "{{x}}", count: 20_000) + "{{/y}}"
        // When parsed, then the error points at the exact column (the é counts as one)
        XCTAssertThrowsError(try MustacheTemplate(source, name: "line.mustache")) { error in
            XCTAssertEqual(String(describing: error), "line.mustache:1:100002: close tag 'y' has no open section")
        }
        // And the same line without the stray tag renders every tag
        let rendered = try MustacheTemplate("é" + String(repeating: "{{x}}", count: 20_000)).render(["x": "ab"])
        XCTAssertEqual(rendered.utf8.count, 2 + 40_000)
    }

    func testGivenManyStandaloneAndInlineCommentsWhenParsedThenTextIsKeptInOrder() throws {
        // Text between many tags on one line is gathered once, in order
        let source = (0..<5_000).map { "t\($0){{! c }}" }.joined() + "\n  {{! standalone }}\nend"
        let expected = (0..<5_000).map { "t\($0)" }.joined() + "\nend"
        XCTAssertEqual(try MustacheTemplate(source).render([:]), expected)
    }

    func testGivenDefaultLimitsThenTheyAreTheDocumentedOnes() {
        let limits = MustacheLimits()
        XCTAssertEqual(limits.maxOutputBytes, 64 * 1024 * 1024)
        XCTAssertEqual(limits.maxDepth, 100)
        XCTAssertEqual(limits.maxSteps, 20_000_000)
        XCTAssertEqual(MustacheRenderOptions().limits, limits)
    }
}

/// Carries an error from a worker thread to the test (written before the expectation is fulfilled).
private final class ErrorBox: @unchecked Sendable { var error: (any Error)? }
