@testable import FolioCLI
import Foundation
import XCTest
import FolioCLITestSupport

/// Each verb takes only the options its form declares (`folio plugins list --timeout 5` is refused in one line, exit
/// 2), and `--help`, completion and the man page show exactly those options: one declaration drives them all.
final class CommandDeclarationTests: XCTestCase {
    var temp: TemporaryDirectory!

    override func setUp() { temp = TemporaryDirectory("folio-declaration") }
    override func tearDown() { temp = nil }

    func folio(_ arguments: [String]) -> RunResult { runFolio(arguments, environment: temp.environment(), cwd: temp.url) }

    /// For each command family, an option one verb takes given to another verb, and the form that refuses it.
    static let misplaced: [(arguments: [String], option: String, form: String)] = [
        (["plugins", "list", "--timeout", "5"], "--timeout", "plugins list [--json]"),
        (["plugins", "pack", "Project", "--seed", "3"], "--seed", "plugins pack DIR [-o FILE]"),
        (["templates", "add", "mine", "https://example.invalid/t.git", "--offline"], "--offline", "templates add NAME URL [--ref R] [--json]"),
        (["templates", "lint", "--update-golden"], "--update-golden", "templates lint [DIR|ID] [--source S [--ref R]] [--offline] [--timeout SECONDS] [--json]"),
        (["new", "List", "--title", "Shopping", "--set", "title=Shopping"], "--set", "new PATH [--type TYPE [--sample NAME]] [--title TITLE] [--json]"),
        (["log", "List", "--at", "3"], "--at", "log PATH [--limit N] [--skip N] [--since REV] [--json]"),
        (["sync", "List", "--interval", "5"], "--interval", "sync PATH [REMOTE] [--timeout SECONDS] [--accept-type] [--json]"),
        (["sync", "List", "--continuous", "on", "--watch"], "--watch", "sync PATH --continuous on|off [--interval SECONDS] [--json]"),
        (["conflicts", "List", "show", "refs/folio/conflicts/x", "--mine", "1"], "--mine", "conflicts PATH show REF [--json]"),
        (["update", "List", "--check", "--dry-run"], "--dry-run", "update PATH --check [--to REF] [--offline] [--source S] [--timeout SECONDS] [--json]"),
        // --json where the form has no JSON answer (it used to be taken by every form, and ignored)
        (["templates", "remove", "mine", "--json"], "--json", "templates remove NAME"),
        (["plugins", "pack", "Project", "--json"], "--json", "plugins pack DIR [-o FILE]"),
        (["sync", "--watch", "--json"], "--json", "sync --watch [--interval SECONDS] [--timeout SECONDS] [PATH...]"),
    ]

    func testGivenAnOptionOfAnotherVerbWhenEachFamilyRunsThenItIsRefusedInOneLineWithExit2() {
        for (arguments, option, form) in Self.misplaced {
            // Given a verb and an option only another verb of its command (or another command) takes
            // When it runs
            let result = folio(arguments)
            // Then one line names the option and the form called, exit 2, and nothing was done
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr, "folio \(arguments[0]): \(option) does not apply to 'folio \(form)'\n", "\(arguments)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("List").path), "\(arguments) made a document")
        }
    }

    func testGivenAVerbWhenItsHelpIsAskedThenOnlyThatVerbsUsageIsShown() {
        // Given `plugins list` / When --help / Then its own usage, not every plugins verb's options
        let result = folio(["plugins", "list", "--help"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout.split(separator: "\n").first, "usage: folio plugins list [--json]")
    }

    /// The options a synopsis shows (`[--name VALUE]`, `-m|--message`), read from the text.
    func shownOptions(_ synopsis: String) -> Set<String> {
        var names: Set<String> = ["--help"]
        for word in synopsis.split(separator: " ") {
            let bare = word.drop { $0 == "[" }
            guard bare.hasPrefix("-") else { continue }
            let name = bare.prefix { $0 != "=" && $0 != "]" }
            for alias in name.split(separator: "|") { names.insert(String(alias)) }
        }
        return names
    }

    func testGivenASelectingOptionWhenOptionsAreCompletedThenOnlyTheSelectedFormsOptionsAreOffered() {
        // Given `sync --watch` typed / When its options are completed / Then only the watch form's options
        let offered = folio(["__complete", "sync", "--watch", "--"]).stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(offered, ["--help", "--interval", "--timeout", "--watch"])
        // And without a selecting option, every form's options stay discoverable (`new PATH --template`)
        XCTAssertTrue(folio(["__complete", "new", "List", "--te"]).stdout.contains("--template"))
    }

    func testGivenEveryVerbWhenOptionsAreCompletedThenExactlyTheOptionsItsUsageShowsAreOffered() {
        var checked = 0
        for command in Commands.all {
            for form in command.forms {
                // Given a verb that its literal words name on their own (e.g. `plugins validate FILE.so`)
                let words = form.positionals.map { $0.isLiteral ? String($0.name.split(separator: "|")[0]) : "x" }
                let every = command.options.union(command.flags)
                let others = command.forms.filter { $0.fit(positionals: words, names: every, verbMayBeMissing: { _ in true }) != nil }
                guard others.count == 1 else { continue }
                // When its options are completed
                let offered = folio(["__complete", command.name] + words + ["--"]).stdout.split(separator: "\n").map(String.init)
                // Then they are exactly those the usage line shows for it (which --help and the man page print)
                XCTAssertEqual(Set(offered), shownOptions(form.text).filter { $0.hasPrefix("--") }, "folio \(form.text)")
                XCTAssertTrue(folio([command.name, "--help"]).stdout.contains(form.text), form.text)
                // And its --help lists exactly those options, each with its help
                let help = folio([command.name] + words + ["--help"]).stdout
                let listed = help.components(separatedBy: "options:\n").dropFirst().first?.split(separator: "\n") ?? []
                XCTAssertEqual(Set(listed.compactMap { $0.split(separator: " ").first.map(String.init) }),
                               shownOptions(form.text).subtracting(["--help", "--json"]).union(form.text.contains("[--json]") ? ["--json"] : []),
                               "folio \(form.text) --help:\n\(help)")
                for line in listed { XCTAssertGreaterThan(line.split(separator: " ", omittingEmptySubsequences: true).count, 2, "no help: \(line)") }
                XCTAssertTrue(folio(["__manpage"]).stdout.contains(ManPage.escape(form.text)), form.text)
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 30, "every plugins and templates verb and each single-form command is checked")
    }

    func testGivenTheOptionHelpWhenCheckedAgainstTheFormsThenEveryOptionHasHelpAndEveryEntryAnOption() {
        // Given every option of every form, and the help entries (`--name` or `command --name`)
        var taken: Set<String> = []
        for command in Commands.all {
            for option in command.forms.flatMap(\.options) {
                // Then each option has help
                XCTAssertNotNil(OptionHelp.help(option.name, command: command.name), "folio \(command.name) \(option.name)")
                taken.insert(option.name)
                taken.insert("\(command.name) \(option.name)")
            }
        }
        // And no entry describes an option no form takes (a renamed option leaves no stale help behind)
        XCTAssertEqual(Set(OptionHelp.text.keys).subtracting(taken).subtracting(["--json", "--help"]), [])
    }
}
