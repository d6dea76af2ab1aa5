import FolioCLITestSupport
import FolioCore
import Foundation
import XCTest

/// A template's hooks (cookiecutter) and tasks (copier) are programs from outside: they run only with `--trust`, and
/// then confined — writing only the new project, reading the system and their own scripts, no network unless
/// `--allow-network`, no credentials, stopped at the time limit — and what they change is its own commit.
final class TemplateProgramTests: XCTestCase {
    private var temp: TemporaryDirectory!

    override func setUp() { temp = TemporaryDirectory() }
    override func tearDown() { temp = nil }

    /// A cookiecutter template whose project holds `a.txt` and whose `hooks/post_gen_project.py` is `hook`.
    private func cookiecutter(hook: String, stage: String = "post_gen_project", folder: String = "hooked") throws -> String {
        let root = temp.path(folder)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("{{cookiecutter.name}}"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("hooks"), withIntermediateDirectories: true)
        try #"{"name": "proj"}"#.write(to: root.appendingPathComponent("cookiecutter.json"), atomically: true, encoding: .utf8)
        try "a for {{ cookiecutter.name }}\n".write(to: root.appendingPathComponent("{{cookiecutter.name}}/a.txt"), atomically: true, encoding: .utf8)
        try hook.write(to: root.appendingPathComponent("hooks/\(stage).py"), atomically: true, encoding: .utf8)
        return root.path
    }

    private func new(_ template: String, _ extra: [String] = [], environment: [String: String]? = nil) -> RunResult {
        runFolio(["new", "doc", "--template", template, "--defaults"] + extra, environment: environment ?? temp.environment(), cwd: temp.url)
    }

    func testGivenATrustedHookThatChangesTheProjectWhenFolioNewRunsThenItsChangesAreACommitAfterTheTemplates() throws {
        let template = try cookiecutter(hook: """
            import os, pathlib
            pathlib.Path("made.txt").write_text("made for {{ cookiecutter.name }}\\n")
            os.remove("a.txt")
            print("hook ran in", os.path.basename(os.getcwd()))
            """)
        let made = new(template, ["--trust"])
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertTrue(made.stderr.contains("hook ran in doc"), made.stderr)
        XCTAssertEqual(try String(contentsOf: temp.path("doc/made.txt"), encoding: .utf8), "made for proj\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("doc/a.txt").path))
        let log = try git(["log", "--format=%s", "--name-status"], in: temp.path("doc"), environment: temp.environment()).stdout
        XCTAssertTrue(log.hasPrefix("Run the template's hooks: hooks/post_gen_project.py\n\nD\ta.txt\nA\tmade.txt\n"), log)
        XCTAssertEqual(try git(["rev-list", "--count", "HEAD"], in: temp.path("doc"), environment: temp.environment()).stdout, "2\n")
        XCTAssertEqual(try git(["fsck", "--strict"], in: temp.path("doc"), environment: temp.environment()).status, 0)
    }

    func testGivenAHookReachingForFilesKeysTheNetworkAndCredentialsWhenTrustedThenEachIsRefusedAndNothingOutsideChanges() throws {
        // Given a key in the user's ~/.ssh, a token in the environment, a server listening on loopback, and a file
        // beside the destination the hook will try to change
        let env = temp.environment(["FOLIO_GIT_TOKEN": "s3cret-token", "GITHUB_TOKEN": "gh-token"])
        let key = temp.path("home/.ssh/id_ed25519")
        try FileManager.default.createDirectory(at: key.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "PRIVATE KEY\n".write(to: key, atomically: true, encoding: .utf8)
        let outside = temp.path("outside.txt")
        try "untouched\n".write(to: outside, atomically: true, encoding: .utf8)
        let server = try SilentServer()
        let template = try cookiecutter(hook: """
            import os, socket, subprocess
            results = []
            def attempt(name, action):
                try:
                    action(); results.append(name + " done")
                except Exception as error:
                    results.append(name + " refused " + type(error).__name__)
            attempt("write outside", lambda: open("\(outside.path)", "a").write("changed"))
            attempt("read key", lambda: open("\(key.path)").read())
            attempt("connect", lambda: socket.create_connection(("127.0.0.1", \(server.port)), timeout=5))
            attempt("list home", lambda: os.listdir("\(temp.path("home").path)"))
            results.append("token " + os.environ.get("FOLIO_GIT_TOKEN", "absent") + " " + os.environ.get("GITHUB_TOKEN", "absent"))
            open("results.txt", "w").write("\\n".join(results) + "\\n")
            """)
        let made = new(template, ["--trust"], environment: env)
        XCTAssertEqual(made.status, 0, made.stderr)
        let results = try String(contentsOf: temp.path("doc/results.txt"), encoding: .utf8)
        XCTAssertEqual(results, """
            write outside refused PermissionError
            read key refused PermissionError
            connect refused PermissionError
            list home refused PermissionError
            token absent absent

            """)
        XCTAssertEqual(try String(contentsOf: outside, encoding: .utf8), "untouched\n")
        XCTAssertEqual(server.acceptedConnections, 0)
    }

    func testGivenAllowNetworkWhenATrustedHookConnectsThenItReachesTheServer() throws {
        let server = try SilentServer()
        let template = try cookiecutter(hook: """
            import socket
            socket.create_connection(("127.0.0.1", \(server.port)), timeout=5).close()
            open("connected.txt", "w").write("yes\\n")
            """)
        let made = new(template, ["--trust", "--allow-network"])
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: temp.path("doc/connected.txt").path))
        XCTAssertEqual(server.acceptedConnections, 1)
    }

    func testGivenAHookThatFailsWhenTrustedThenNoDocumentIsMadeAndOneLineQuotesItsLastError() throws {
        let template = try cookiecutter(hook: "import sys\nprint('checking the name')\nsys.exit('ERROR: the name proj is taken')\n", stage: "pre_gen_project")
        let made = new(template, ["--trust"])
        XCTAssertEqual(made.status, 1, made.stderr)
        XCTAssertEqual(made.stderr, "folio new: hooks/pre_gen_project.py failed (exit status 1): ERROR: the name proj is taken\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("doc").path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: temp.url.path).filter { $0.hasPrefix(".doc") || $0.hasPrefix("doc") }
        XCTAssertEqual(leftovers, [], "no staging folder is left beside it")
    }

    func testGivenAHookThatSpinsAndLeavesAChildWhenTrustedThenItIsStoppedAtTheLimitAndNoProcessOutlivesIt() throws {
        let settings = temp.path("home/.config/folio/settings.json")
        try FileManager.default.createDirectory(at: settings.deletingLastPathComponent(), withIntermediateDirectories: true)
        try #"{"templateProgramSeconds": 2}"#.write(to: settings, atomically: true, encoding: .utf8)
        let marker = "987\(Int.random(in: 100_000...999_999))"
        let template = try cookiecutter(hook: "import subprocess\nsubprocess.Popen(['sleep', '\(marker)'])\nwhile True:\n    pass\n")
        let made = new(template, ["--trust"])
        XCTAssertEqual(made.status, 1, made.stderr)
        XCTAssertTrue(made.stderr.contains("hooks/post_gen_project.py failed (still running after 2 s, stopped)"), made.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("doc").path))
        let left = try FileManager.default.contentsOfDirectory(atPath: "/proc").filter { $0.allSatisfy(\.isNumber) }.filter { pid in
            ((try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))).map { String(decoding: $0, as: UTF8.self) } ?? "").contains(marker)
        }
        XCTAssertEqual(left, [], "the hook's child was ended with it")
    }

    /// The processes whose command line holds `marker`.
    private func processes(holding marker: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc").filter { $0.allSatisfy(\.isNumber) }.filter { pid in
            ((try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))).map { String(decoding: $0, as: UTF8.self) } ?? "").contains(marker)
        }
    }

    func testGivenAHookRunningWithAChildWhenFolioIsKilledWithSIGKILLThenTheHookAndItsChildEndToo() throws {
        guard FileManager.default.isExecutableFile(atPath: folioExecutable.path) else { throw XCTSkip("folio is not built at \(folioExecutable.path)") }
        // Given a trusted hook that starts a child and then sleeps itself (both well within the time limit)
        let marker = "986\(Int.random(in: 100_000...999_999))"
        let template = try cookiecutter(hook: "import os, subprocess\nsubprocess.Popen(['sleep', '\(marker)'])\nos.execvp('sleep', ['sleep', '\(marker)1'])\n")
        let folio = Process()
        folio.executableURL = folioExecutable
        folio.arguments = ["new", "doc", "--template", template, "--defaults", "--trust"]
        folio.environment = temp.environment()
        folio.currentDirectoryURL = temp.url
        folio.standardInput = FileHandle.nullDevice
        folio.standardOutput = FileHandle.nullDevice
        folio.standardError = FileHandle.nullDevice
        try folio.run()
        defer { if folio.isRunning { kill(folio.processIdentifier, SIGKILL) } }
        XCTAssertTrue(eventually(60) { ((try? self.processes(holding: marker)) ?? []).count >= 2 }, "the hook and its child started")
        // When folio is killed with SIGKILL mid-hook
        kill(folio.processIdentifier, SIGKILL)
        folio.waitUntilExit()
        // Then nothing the hook started outlives it
        XCTAssertTrue(eventually(20) { ((try? self.processes(holding: marker)) ?? ["?"]).isEmpty }, "left: \((try? processes(holding: marker)) ?? [])")
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("doc").path))
    }

    func testGivenATrustedCopierTemplateWhenFolioNewRunsThenItsTasksRunInOrderAndTheirChangesAreACommit() throws {
        let root = temp.path("tasks")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try """
            name: Ada
            _tasks:
              - "echo first {{ name }} > tasks.txt"
              - command: ["sh", "-c", "echo never >> tasks.txt"]
                when: "{{ name == 'Bob' }}"
              - command: ["sh", "-c", "echo third $STAGE >> tasks.txt"]
            """.write(to: root.appendingPathComponent("copier.yml"), atomically: true, encoding: .utf8)
        try "Hello {{ name }}\n".write(to: root.appendingPathComponent("hello.txt.jinja"), atomically: true, encoding: .utf8)
        let made = new(root.path, ["--trust"])
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertEqual(try String(contentsOf: temp.path("doc/tasks.txt"), encoding: .utf8), "first Ada\nthird task\n")
        let log = try git(["log", "--format=%s"], in: temp.path("doc"), environment: temp.environment()).stdout
        XCTAssertTrue(log.hasPrefix("Run the template's tasks: task 1, task 3\n"), log)
        // And without --trust none runs, and the note says how to run them
        let untrusted = runFolio(["new", "plain", "--template", root.path, "--defaults"], environment: temp.environment(), cwd: temp.url)
        XCTAssertEqual(untrusted.status, 0, untrusted.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("plain/tasks.txt").path))
        XCTAssertTrue(untrusted.stderr.contains("tasks were not run") && untrusted.stderr.contains("--trust runs them confined"), untrusted.stderr)
    }

    func testGivenATerminalWhenTheUserSaysYesToTheHooksThenTheyRunAndTheSourceIsRememberedForTheNextProject() throws {
        let template = try cookiecutter(hook: "open('hooked.txt', 'w').write('yes\\n')\n")
        // When asked on a terminal (the one question takes its default, then yes to the hooks)
        let asked = runFolio(["new", "doc", "--template", template], environment: temp.environment(), cwd: temp.url,
                             stdin: Data("\ny\n".utf8), interactive: true)
        XCTAssertEqual(asked.status, 0, asked.stderr)
        XCTAssertTrue(asked.stdout.contains("runs programs when a project is made:\n  hooks/post_gen_project.py (post_gen_project.py)"), asked.stdout + "/" + asked.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: temp.path("doc/hooked.txt").path), asked.stdout + "/" + asked.stderr)
        // Then the next project from the same source runs them without asking
        let again = runFolio(["new", "doc2", "--template", template, "--defaults"], environment: temp.environment(), cwd: temp.url)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: temp.path("doc2/hooked.txt").path))
        // And a no on the terminal runs nothing
        let other = try cookiecutter(hook: "open('hooked.txt', 'w').write('yes\\n')\n", folder: "other")
        let refused = runFolio(["new", "doc3", "--template", other], environment: temp.environment(), cwd: temp.url,
                               stdin: Data("\nn\n".utf8), interactive: true)
        XCTAssertEqual(refused.status, 0, refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("doc3/hooked.txt").path))
    }
}
