import Foundation
import XCTest
import FolioCLI
import FolioCLITestSupport

/// `folio completions SHELL` scripts parse in their shell and, driven like the shell drives them, offer commands,
/// template ids, revisions and editor commands from the `folio` being completed.
final class CompletionTests: XCTestCase {
    var temp: TemporaryDirectory!

    override func setUp() { temp = TemporaryDirectory("folio-completion") }
    override func tearDown() { temp = nil }

    func script(_ shell: String) throws -> URL {
        let result = runFolio(["completions", shell], environment: temp.environment(), cwd: temp.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try temp.write("completion.\(shell)", result.stdout)
    }

    /// What bash's `_folio` puts in COMPREPLY for `words` (the last one is being completed), run in `cwd`.
    func bashCompletions(_ words: [String], cwd: URL? = nil) throws -> [String] {
        let quoted = ([folioExecutable.path] + words).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let driver = """
        source '\(try script("bash").path)'
        complete -p folio
        COMP_WORDS=(\(quoted.joined(separator: " ")))
        COMP_CWORD=\(words.count)
        _folio
        printf '%s\\n' "${COMPREPLY[@]}"
        """
        let result = try runProgram("bash", ["--norc", "-c", driver], cwd: cwd ?? temp.url, environment: temp.environment())
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "complete -F _folio folio", "the script registers _folio for folio")
        return Array(lines.dropFirst())
    }

    func makeDocument() throws {
        let env = temp.environment()
        XCTAssertEqual(runFolio(["new", "Groceries", "--template", "checklist/groceries", "--defaults"], environment: env, cwd: temp.url).status, 0)
        XCTAssertEqual(runFolio(["edit", "Groceries", "toggle", "1"], environment: env, cwd: temp.url).status, 0)
        XCTAssertEqual(runFolio(["tag", "Groceries", "first-trip"], environment: env, cwd: temp.url).status, 0)
    }

    func testGivenBashWhenCompletingTeThenTemplatesIsOffered() throws {
        XCTAssertEqual(try bashCompletions(["te"]), ["templates"])
    }

    func testGivenBashWhenCompletingATemplateOptionThenBundledTemplateIdsAreOffered() throws {
        XCTAssertEqual(try bashCompletions(["new", "List", "--template", "check"]), ["checklist/groceries"])
        XCTAssertTrue(try bashCompletions(["new", "List", "--template", ""]).contains("swift/package"))
    }

    func testGivenADocumentWhenCompletingARevisionThenHeadTagsAndVersionsAreOffered() throws {
        try makeDocument()
        let offered = try bashCompletions(["show", "Groceries", ""])
        XCTAssertEqual(offered.first, "HEAD")
        XCTAssertTrue(offered.contains("first-trip"), "\(offered)")
        XCTAssertEqual(offered.count, 4, "HEAD, the tag and the two versions: \(offered)")
        XCTAssertEqual(try bashCompletions(["diff", "Groceries", "fi"]), ["first-trip"])
    }

    func testGivenADocumentWhenCompletingEditThenTheEditorsCommandsAreOffered() throws {
        try makeDocument()
        XCTAssertEqual(try bashCompletions(["edit", "Groceries", "to"]), ["toggle"])
    }

    func testGivenBashWhenCompletingPathsVerbsIdsAndOptionsThenEachComesFromTheCommandsUsage() throws {
        try makeDocument()
        XCTAssertEqual(try bashCompletions(["log", "Gro"]), ["Groceries"])
        XCTAssertEqual(try bashCompletions(["plugins", "info", "org.folio.plugins.ch"]), ["org.folio.plugins.checklist"])
        XCTAssertEqual(try bashCompletions(["plugins", "in"]), ["info", "install"])
        XCTAssertEqual(try bashCompletions(["templates", "show", "sw"]), ["swift/package"], "an alternative without the command's name")
        XCTAssertEqual(try bashCompletions(["remote", "Groceries", ""]), ["add", "list", "remove"])
        XCTAssertEqual(try bashCompletions(["diff", "Groceries", "--sem"]), ["--semantic"])
    }

    func testGivenBashWhenCompletingThePackageVerbsThenPackLinkAndUnlinkAreOfferedAndTheirDIRIsAFolder() throws {
        // Given a folder to pack or link
        try FileManager.default.createDirectory(at: temp.path("Project"), withIntermediateDirectories: true)
        // When the plugins verbs and their DIR are completed / Then the new verbs come from the usage, DIR from the folders
        XCTAssertEqual(try bashCompletions(["plugins", "p"]), ["pack"])
        XCTAssertEqual(try bashCompletions(["plugins", "l"]), ["list", "link", "log"], "in the usage's order")
        XCTAssertEqual(try bashCompletions(["plugins", "un"]), ["unlink"])
        XCTAssertEqual(try bashCompletions(["plugins", "link", "Proj"]), ["Project"])
        XCTAssertEqual(try bashCompletions(["plugins", "pack", "Proj"]), ["Project"])
    }

    func testGivenEachShellWhenItsScriptIsParsedThenItHasNoSyntaxError() throws {
        XCTAssertEqual(try runProgram("bash", ["-n", try script("bash").path]).status, 0)
        var checked = ["bash"]
        for (shell, arguments) in [("zsh", ["-n"]), ("fish", ["--no-execute"])] {
            guard (try? runProgram(shell, ["-c", "exit 0"]))?.status == 0 else { continue }
            let result = try runProgram(shell, arguments + [try script(shell).path])
            XCTAssertEqual(result.status, 0, "\(shell): \(result.stderr)")
            checked.append(shell)
        }
        print("completion scripts parsed by: \(checked.joined(separator: ", "))")
        XCTAssertEqual(runFolio(["completions", "tcsh"], environment: temp.environment(), cwd: temp.url).status, 2)
    }

    func testGivenVersionWhenAskedThenFolioThePluginABIAndLibgit2AreNamed() throws {
        let result = runFolio(["--version"], environment: temp.environment(), cwd: temp.url)
        XCTAssertEqual(result.status, 0)
        let libgit2 = try runProgram("pkg-config", ["--modversion", "libgit2"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4, result.stdout)
        XCTAssertEqual(lines.first, "folio \(FolioVersion.current)")
        XCTAssertEqual(lines.dropFirst().first, "plugin ABI 1.2")
        // The confinement a plugin host reports after confining itself: seccomp at least, and Landlock where the kernel has it
        XCTAssertTrue(lines.dropFirst(2).first?.hasPrefix("plugin confinement: ") == true, result.stdout)
        XCTAssertTrue(lines.dropFirst(2).first?.contains("seccomp, no-new-privs, own session") == true, result.stdout)
        XCTAssertEqual(lines.last, "libgit2 \(libgit2)")
    }
}
