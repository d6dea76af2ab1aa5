@testable import FolioCLI
import Foundation
import XCTest
import FolioCLITestSupport

/// `folio remote` and `folio conflicts` pick their verb from their declared forms (`Verb`), as every other command
/// does: an option of another form is refused in one line, and `--help`, completion and the verb list in errors all
/// come from the declaration.
final class RemoteConflictVerbTests: XCTestCase {
    var temp: TemporaryDirectory!

    override func setUp() { temp = TemporaryDirectory("folio-remote-conflict-verbs") }
    override func tearDown() { temp = nil }

    func folio(_ arguments: [String]) -> RunResult { runFolio(arguments, environment: temp.environment(), cwd: temp.url) }

    /// `List`, a blank document with no remote.
    func makeDocument() {
        XCTAssertEqual(folio(["new", "List"]).status, 0)
    }

    static let settleForm = "conflicts PATH settle REF [--mine KEYS]... [--theirs KEYS]... [--both KEYS]... [--all mine|theirs] [--json]"

    func testGivenKeepWithTheShowOrSettleVerbWhenConflictsRunsThenKeepIsRefusedInOneLineWithExit2() {
        makeDocument()
        for (arguments, form) in [(["conflicts", "List", "settle", "refs/folio/conflicts/x", "--keep", "local"], Self.settleForm),
                                  (["conflicts", "List", "show", "refs/folio/conflicts/x", "--keep", "remote"], "conflicts PATH show REF [--json]")] {
            // Given a verb and --keep, which only the verbless `conflicts PATH --keep local|remote REF` takes
            // When it runs
            let result = folio(arguments)
            // Then one line names --keep and the verb's form (the old code took the verb for the REF of --keep)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertEqual(result.stderr, "folio conflicts: --keep does not apply to 'folio \(form)'\n", "\(arguments)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
        }
    }

    func testGivenAWordThatIsNoVerbWhenRemoteOrConflictsRunsThenTheDeclaredVerbsAreListed() {
        makeDocument()
        // Given a word where the verb goes / When each runs / Then the verbs of the declaration are named
        let remote = folio(["remote", "List", "bogus"])
        XCTAssertEqual(remote.status, 2)
        XCTAssertEqual(remote.stderr.split(separator: "\n").first, "folio remote: unknown remote command 'bogus' (add, list or remove)")
        let conflicts = folio(["conflicts", "List", "bogus"])
        XCTAssertEqual(conflicts.status, 2)
        XCTAssertEqual(conflicts.stderr.split(separator: "\n").first, "folio conflicts: unknown conflicts command 'bogus' (show or settle)")
    }

    func testGivenAnOptionNoRemoteVerbTakesWhenRemoteAddRunsThenItIsRefusedWithExit2AndNoRemoteIsAdded() {
        makeDocument()
        // Given `remote PATH add NAME URL` and --timeout (push and pull take it; no remote verb does)
        let result = folio(["remote", "List", "add", "origin", "https://example.invalid/doc.git", "--timeout", "5"])
        // Then it is refused (exit 2) and nothing was added
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr.split(separator: "\n").first, "folio remote: unknown option --timeout")
        XCTAssertEqual(folio(["remote", "List"]).stdout, "")
    }

    func testGivenRemoteVerbsWhenHelpIsAskedThenEachVerbsDeclaredFormAndOptionsAreShown() {
        // Given `remote PATH add` / When --help / Then its declared form, which takes --json as the code always did
        let add = folio(["remote", "List", "add", "--help"])
        XCTAssertEqual(add.status, 0)
        XCTAssertEqual(add.stdout, "usage: folio remote PATH add NAME URL [--json]\nAdd, list or remove the servers a document syncs with\n"
                       + "options:\n  --json  print the answer as JSON\n")
        // And the command's usage declares that list is the verb when none is given
        let usage = folio(["remote", "--help"]).stdout.split(separator: "\n").first.map(String.init)
        XCTAssertEqual(usage, "usage: folio remote PATH add NAME URL [--json] | remote PATH [list] [--json] | remote PATH remove NAME [--json]")
        // And `rm`, the old alias of remove, still runs but is in no usage
        makeDocument()
        XCTAssertEqual(folio(["remote", "List", "add", "origin", "https://example.invalid/doc.git"]).status, 0)
        XCTAssertEqual(folio(["remote", "List", "rm", "origin"]).stdout, "Removed remote origin\n")
        XCTAssertFalse(folio(["__manpage"]).stdout.contains("rm NAME"))
    }

    func testGivenTheKeepOptionWhenConflictsHelpIsAskedThenOnlyTheKeepFormIsShown() {
        // Given --keep, the option that selects `conflicts PATH --keep local|remote REF` / When --help
        let result = folio(["conflicts", "List", "--keep", "local", "--help"])
        // Then only that form, its selecting option listed first
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout.split(separator: "\n").first, "usage: folio conflicts PATH --keep local|remote REF [--json]")
        XCTAssertEqual(result.stdout.components(separatedBy: "options:\n").last?.split(separator: " ").first, "--keep")
    }

    func completed(_ words: [String]) -> [String] {
        folio(["__complete"] + words).stdout.split(separator: "\n").map(String.init)
    }

    func testGivenAConflictsVerbAndItsRefWhenOptionsAreCompletedThenExactlyThatVerbsOptionsAreOffered() {
        // Given `conflicts PATH settle REF` / When its options are completed / Then settle's, and not --keep
        XCTAssertEqual(completed(["conflicts", "List", "settle", "refs/folio/conflicts/x", "--"]),
                       ["--all", "--both", "--help", "--json", "--mine", "--theirs"])
        XCTAssertEqual(completed(["conflicts", "List", "show", "refs/folio/conflicts/x", "--"]), ["--help", "--json"])
        // And the verbs come from the declaration
        XCTAssertEqual(completed(["conflicts", "List", ""]).filter { !$0.hasPrefix(":") }, ["show", "settle"])
    }
}
