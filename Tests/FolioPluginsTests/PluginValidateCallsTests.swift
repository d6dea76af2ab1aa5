import FolioCore
@testable import FolioPlugins
import FolioCLITestSupport
import Foundation
import XCTest

/// `folio plugins validate` exercises real use: valid calls generated from each command's usage (seeded, shrunk to a
/// minimal failing call), ranges and NULL selections, non-ASCII documents grown by those calls, and Folio's own
/// deadlines. Each defect of the "lines" plugin is a failure the validator once passed.
final class PluginValidateCallsTests: PluginTempTestCase {
    override var temporaryName: String { "folio-validate-calls" }

    private func library(_ defects: [LinesPlugin.Defect]) throws -> URL {
        try PluginFixtures.compilePlugin(LinesPlugin.source(defects), named: "liblines.so", in: temp.url)
    }

    private func validate(_ defects: [LinesPlugin.Defect], seed: UInt64 = 1) throws -> PluginValidationReport {
        var validator = PluginValidator(library: try library(defects), hostExecutable: PluginFixtures.buildFolder.appendingPathComponent("folio-plugin-host"),
                                        environment: temp.environment(), reproducers: temp.path("reproducers"))
        validator.seed = seed
        return try validator.run()
    }

    /// The one failing test of `report`, which must be the generated calls from the empty document.
    private func callsFailure(_ report: PluginValidationReport, file: StaticString = #filePath, line: UInt = #line) throws -> PluginValidationTest {
        let failures = report.tests.filter { !$0.passed }
        XCTAssertEqual(failures.map(\.name), ["calls/lines/empty"], failures.map(\.details).joined(separator: "\n"), file: file, line: line)
        return try XCTUnwrap(failures.first, file: file, line: line)
    }

    func testGivenTheLinesPluginWithoutDefectsWhenValidatedThenItsGeneratedCallsPassToo() throws {
        // Given the lines plugin as it should be; When validated with two seeds
        for seed: UInt64 in [1, 2] {
            let report = try validate([], seed: seed)
            // Then every test passes, the generated calls among them
            XCTAssertEqual(report.tests.filter { !$0.passed }.map(\.details), [], "seed \(seed)")
            XCTAssertTrue(report.tests.contains { $0.name == "calls/lines/empty" })
            XCTAssertTrue(report.tests.contains { $0.name == "generated/lines/render/500x200" }, "the calls made a sample")
        }
    }

    func testGivenARenderThatCutsUTF8WhenValidatedThenAGeneratedCallWithNonASCIITextFindsIt() throws {
        // Given a render that cuts each line at `width` bytes; When validated from the empty document
        let report = try validate([.cutUTF8])
        // Then the generated calls fail (the renders of the sample they made, at 1x1, 7x3 and 500x200, happen to cut its
        // first lines' ASCII text)
        let failure = try callsFailure(report)
        XCTAssertTrue(report.tests.contains { $0.name == "generated/lines/render/7x3" })
        // Then a call on a document the generated calls gave non-ASCII text shows a render that is not valid UTF-8
        XCTAssertNotNil(failure.details.firstMatch(of: #/^apply '[a-z]+' .*, render \d+x\d+: render\(\d+x\d+\)'s text is not valid UTF-8 \(byte /#),
                        failure.details)
        XCTAssertTrue(failure.details.contains("seed 1"), failure.details)
        let input = try XCTUnwrap(failure.inputs.first { $0.hasSuffix(".input") })
        XCTAssertTrue(try Data(contentsOf: URL(fileURLWithPath: input)).contains { $0 >= 0x80 }, "the call's input document holds non-ASCII text")
    }

    func testGivenACommandThatLoopsOnAReversedRangeWhenValidatedThenFolioCallDeadlineOfFiveSecondsEndsIt() throws {
        // Given `sort` looping forever when the anchor is after the cursor; When validated with Folio's deadlines
        let failure = try callsFailure(try validate([.loopOnReversedRange]))
        // Then the call with a reversed range is named, timed out after Folio's 5 s
        let range = try XCTUnwrap(failure.details.firstMatch(of: #/^apply 'sort' \[\] selection (\d+)-(\d+), render \d+x\d+: /#), failure.details)
        XCTAssertGreaterThan(try XCTUnwrap(Int(range.1)), try XCTUnwrap(Int(range.2)))
        XCTAssertTrue(failure.details.contains("timed out: did not finish within 5 s (while apply 'sort')"), failure.details)
        XCTAssertTrue(failure.details.contains("seed 1"), failure.details)
    }

    func testGivenACommandTakingEightSecondsOnAValidCallWhenValidatedThenItFailsUnderFolioFiveSeconds() throws {
        // Given `slow N` sleeping 8 s for any valid N (the old validator allowed 30 s)
        let started = ContinuousClock.now
        let failure = try callsFailure(try validate([.slow]))
        // Then the valid call is named and fails at Folio's 5 s call deadline, not after the 8 s
        XCTAssertNotNil(failure.details.firstMatch(of: #/^apply 'slow' \["\d+"\] selection [^,]+, render \d+x\d+: timed out: did not finish within 5 s \(while apply 'slow'\)/#),
                        failure.details)
        XCTAssertEqual(PluginValidator(library: temp.url, hostExecutable: temp.url, environment: [:]).limitOptions(),
                       ["--call-deadline", "5000", "--render-deadline", "1000", "--buffer", "67108864"], "Folio's own PluginLimits")
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(30))
    }

    func testGivenAnApplyThatChangesItsInputDocumentWhenValidatedThenTheCallIsNamed() throws {
        // Given `add` appending to its input document before copying it
        let failure = try callsFailure(try validate([.changesInput]))
        // Then serializing the input before and after the call shows the change, on a call shrunk to one character
        XCTAssertNotNil(failure.details.firstMatch(of: #/^apply 'add' \["[^"]"\] selection none, render 1x1: apply changed its input document/#), failure.details)
        XCTAssertNil(failure.signal)
    }

    func testGivenACrashOnOneValidArgumentWhenValidatedThenTheCallIsShrunkToTheMinimalOne() throws {
        // Given `mark ellipse X W` crashing for W of 7 or more
        let failure = try callsFailure(try validate([.crashOnWideEllipse]))
        // Then the reported call is the least one: the first X, the least W that crashes, no colour, no selection
        XCTAssertTrue(failure.details.hasPrefix(#"apply 'mark' ["ellipse","0","7"] selection none, render 1x1: crashed (SIGSEGV) while apply 'mark' (call "#),
                      failure.details)
        XCTAssertTrue(failure.details.contains("; seed 1, shrunk in "), failure.details)
        // And its reproducer (the input document and the one call) crashes again, exiting non-zero
        let rerun = try runProgram("/bin/sh", ["-c", try XCTUnwrap(failure.rerun)], environment: temp.environment(["SWIFT_BACKTRACE": "enable=no"]))
        XCTAssertNotEqual(rerun.status, 0)
        XCTAssertTrue(rerun.stdout.hasSuffix("step apply 'mark'\n"), rerun.stdout)
    }

    func testGivenACrashOnOneValidArgumentWhenValidatedOnTheCommandLineThenOneLineNamesTheCallAndTheSeedAndTheSeedRepeatsIt() throws {
        let library = try library([.crashOnWideEllipse])
        let env = temp.environment(["TMPDIR": temp.url.path])
        // When validated with a seed, twice
        let runs = (0..<2).map { _ in runFolio(["plugins", "validate", library.path, "--seed", "7"], environment: env, cwd: temp.url) }
        for run in runs {
            // Then it exits non-zero with one line naming the command, the arguments, the selection and the seed
            XCTAssertEqual(run.status, 1, run.stdout)
            let line = try XCTUnwrap(run.stdout.split(separator: "\n").first { $0.hasPrefix("  apply 'mark'") }, run.stdout)
            XCTAssertTrue(line.hasPrefix(#"  apply 'mark' ["ellipse","0","7"] selection none, render 1x1: crashed (SIGSEGV)"#), String(line))
            XCTAssertTrue(line.contains("seed 7"), String(line))
            XCTAssertTrue(run.stdout.contains("the same calls again: folio plugins validate \(library.path) --seed 7\n"), run.stdout)
        }
        // And the seed repeats the same calls
        let calls = runs.map { $0.stdout.split(separator: "\n").first { $0.hasPrefix("  apply 'mark'") } }
        XCTAssertEqual(calls[0], calls[1])
    }

    func testGivenEachQuickDefectWhenValidatedOnTheCommandLineThenOneFailureLineNamesItsCallSelectionAndSeed() throws {
        for defect in [LinesPlugin.Defect.cutUTF8, .changesInput] {
            // Given the plugin with one defect; When validated on the command line with a seed
            let run = runFolio(["plugins", "validate", try library([defect]).path, "--seed", "3"], environment: temp.environment(), cwd: temp.url)
            // Then it exits 1, and the generated calls' failure is one line: the call, its selection, the seed
            XCTAssertEqual(run.status, 1, "\(defect): \(run.stdout)")
            let lines = run.stdout.split(separator: "\n")
            let failing = try XCTUnwrap(lines.firstIndex { $0 == "FAIL calls/lines/empty" }, "\(defect): \(run.stdout)")
            XCTAssertNotNil(lines[failing + 1].firstMatch(of: #/^  apply '[a-z]+' \[.*\] selection [^,]+, render \d+x\d+: .*seed 3[,)]/#),
                            "\(defect): \(lines[failing + 1])")
        }
    }

    func testGivenATestThatFailsWithoutACrashWhenItsRerunLineIsRunThenItExitsNonZero() throws {
        // Given the counter whose error message is not UTF-8 (a failure, not a crash)
        let library = try PluginFixtures.compilePlugin(PluginValidateTests.counterSource(["BAD_UTF8_MESSAGE"]), named: "libcounter.so", in: temp.url)
        let report = try PluginValidator(library: library, hostExecutable: PluginFixtures.buildFolder.appendingPathComponent("folio-plugin-host"),
                                         environment: temp.environment(), reproducers: temp.path("reproducers")).run()
        let failure = try XCTUnwrap(report.tests.first { !$0.passed })
        // When its rerun line is run
        let rerun = try runProgram("/bin/sh", ["-c", try XCTUnwrap(failure.rerun)], environment: temp.environment())
        // Then it fails again and says so in its exit status
        XCTAssertEqual(rerun.status, 1, rerun.stdout)
        XCTAssertTrue(rerun.stdout.contains(#"result {"status":"fail""#), rerun.stdout)
    }
}
