import Foundation
import XCTest
import FolioCLITestSupport

/// The command line answers typos and scripts: `folio help CMD` is `folio CMD --help`, unknown commands and options
/// get a did-you-mean, and under `--json` a failure is JSON on standard output with the exit code.
final class CommandSuggestionTests: XCTestCase {
    private let temp = TemporaryDirectory("folio-suggest")
    private func folio(_ arguments: String...) -> RunResult { runFolio(arguments, environment: temp.environment(), cwd: temp.url) }

    func testGivenHelpWithACommandWhenRunThenItIsThatCommandsHelpAndAnUnknownOneIsAUsageError() {
        XCTAssertEqual(folio("help", "clone").stdout, folio("clone", "--help").stdout)
        XCTAssertTrue(folio("help", "clone").stdout.hasPrefix("usage: folio clone URL PATH"))
        XCTAssertEqual(folio("help", "plugins", "install").stdout, folio("plugins", "install", "--help").stdout)
        let unknown = folio("help", "clnoe")
        XCTAssertEqual(unknown.status, 2)
        XCTAssertEqual(unknown.stderr, "folio help: no command 'clnoe'; did you mean 'clone'? (see folio --help)\n")
    }

    func testGivenATypoInACommandOrOptionWhenRunThenTheClosestIsSuggested() {
        let command = folio("nwe")
        XCTAssertEqual(command.status, 2)
        XCTAssertEqual(command.stderr, "folio: unknown command 'nwe'; did you mean 'new'? (see folio --help)\n")
        XCTAssertEqual(folio("sycn").stderr, "folio: unknown command 'sycn'; did you mean 'sync'? (see folio --help)\n")
        XCTAssertEqual(folio("frobnicate").stderr, "folio: unknown command 'frobnicate' (see folio --help)\n", "nothing close: no guess")
        XCTAssertEqual(folio("--verison").stderr, "folio: unknown option '--verison'; did you mean '--version'? (see folio --help)\n")
        let option = folio("new", "x", "--tempate", "t")
        XCTAssertEqual(option.status, 2)
        XCTAssertTrue(option.stderr.hasPrefix("folio new: unknown option --tempate; did you mean '--template'?\nusage: folio new"), option.stderr)
    }

    func testGivenJSONWhenACommandFailsThenTheErrorIsJSONOnStandardOutputWithTheExitCode() throws {
        for (arguments, code) in [(["status", temp.path("nothing").path, "--json"], 1), (["new", "x", "--tempate", "t", "--json"], 2)] {
            let result = runFolio(arguments, environment: temp.environment(), cwd: temp.url)
            XCTAssertEqual(result.status, Int32(code))
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
            XCTAssertEqual(object["exitCode"] as? Int, code)
            XCTAssertTrue((object["error"] as? String)?.hasPrefix("folio \(arguments[0]): ") ?? false, result.stdout)
            XCTAssertFalse(result.stderr.isEmpty, "the person watching still sees the line")
        }
    }
}
