import FolioCore
import FolioTestSupport
import Foundation
import XCTest

/// The built `folio` under hostile input: closed or odd standard streams, bytes that are not UTF-8 in arguments,
/// JSON that is malformed in every way, names that would land inside `.git`. Each ends in one line and a non-zero
/// exit (or, for closed streams, in exactly the change asked for) — never a signal death.
final class HostileInputCLITests: TemporaryHomeTestCase {
    /// Runs `folio` through `/bin/sh -c 'exec "$0" ARGS REDIRECTIONS'`, so the redirections (closing a descriptor)
    /// apply to folio itself.
    @discardableResult
    func shell(_ script: String, stdin: String = "", file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        let result = try runProgram("/bin/sh", ["-c", "exec \"$0\" " + script, folioExecutable.path], cwd: dir.url, environment: env,
                                    stdin: Data(stdin.utf8))
        XCTAssertLessThan(result.status, 128, "folio died of a signal: \(script): \(result.stderr)", file: file, line: line)
        return result
    }

    @discardableResult
    func folio(_ args: String..., stdin: String = "", expect status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        let result = try runProgram(folioExecutable.path, args, cwd: dir.url, environment: env, stdin: Data(stdin.utf8))
        XCTAssertEqual(result.status, status, "folio \(args.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        return result
    }

    func gitOut(_ args: String..., in document: String = "Doc") throws -> String {
        try git(args, in: dir.path(document), environment: env).stdout
    }

    func assertFsckClean(_ document: String = "Doc", file: StaticString = #filePath, line: UInt = #line) throws {
        let fsck = try git(["fsck", "--strict"], in: dir.path(document), environment: env)
        XCTAssertEqual(fsck.status, 0, fsck.stdout + fsck.stderr, file: file, line: line)
    }

    func lockBytes() -> Data? { FileManager.default.contents(atPath: dir.path("Doc/.git/folio/lock").path) }

    // MARK: Standard streams

    func testGivenClosedStandardDescriptorsWhenWritingThenExactlyTheGivenContentIsCommitted() throws {
        try folio("new", "Doc")
        try folio("write", "Doc", "seed.txt", stdin: "seed\n")
        let lockBefore = try XCTUnwrap(lockBytes())
        // stdout closed: the confirmation goes nowhere, the content is what stdin gave.
        XCTAssertEqual(try shell("write Doc out.txt -m out 1>&-", stdin: "given on stdin\n").status, 0)
        XCTAssertEqual(try gitOut("show", "HEAD:out.txt"), "given on stdin\n")
        // stderr closed as well.
        XCTAssertEqual(try shell("write Doc err.txt -m err 1>&- 2>&-", stdin: "second\n").status, 0)
        XCTAssertEqual(try gitOut("show", "HEAD:err.txt"), "second\n")
        // All three closed, the content from a file: still one clean change.
        XCTAssertEqual(try shell("write Doc all.txt --from seed.src -m all 0<&- 1>&- 2>&-").status, 1)  // no seed.src: fails cleanly
        try dir.write("seed.src", "from a file\n")
        XCTAssertEqual(try shell("write Doc all.txt --from seed.src -m all 0<&- 1>&- 2>&-").status, 0)
        XCTAssertEqual(try gitOut("show", "HEAD:all.txt"), "from a file\n")
        XCTAssertEqual(try gitOut("log", "--format=%s"), "all\nerr\nout\nEdit seed.txt\nCreate Doc\n")
        try assertFsckClean()
        XCTAssertEqual(lockBytes(), lockBefore, "the lock file holds only its cleared note")
        XCTAssertEqual(try gitOut("status", "--porcelain"), "")
    }

    func testGivenClosedStandardInputWhenWritingFromItThenOneLineErrorAndNothingIsCommitted() throws {
        // Given a document
        try folio("new", "Doc")
        let head = try gitOut("rev-parse", "HEAD")
        let lockBefore = try XCTUnwrap(lockBytes())
        // When `folio write` is to read the content from a standard input that is closed (alone, or with the others)
        for redirections in ["0<&-", "0<&- 1>&-"] {
            let result = try shell("write Doc in.txt -m in " + redirections)
            // Then it fails with one line: closed is not empty content, and no empty file is committed
            XCTAssertEqual(result.status, 1, redirections)
            XCTAssertEqual(result.stderr, "folio write: standard input: is closed\n", redirections)
        }
        XCTAssertEqual(try gitOut("rev-parse", "HEAD"), head)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("Doc/in.txt").path))
        XCTAssertEqual(lockBytes(), lockBefore, "the lock file holds only its cleared note")
        // An empty standard input that is open is still empty content.
        XCTAssertEqual(try shell("write Doc in.txt -m in < /dev/null").status, 0)
        XCTAssertEqual(try gitOut("show", "HEAD:in.txt"), "")
        try assertFsckClean()
    }

    func testGivenStandardInputThatIsADirectoryOrWriteOnlyWhenWritingThenOneLineErrorAndNoChange() throws {
        try folio("new", "Doc")
        let head = try gitOut("rev-parse", "HEAD")
        let directory = try shell("write Doc f.txt < /")
        XCTAssertEqual(directory.status, 1)
        XCTAssertEqual(directory.stderr, "folio write: standard input: is a directory\n")
        let writeOnly = try shell("write Doc f.txt 0>somefile")
        XCTAssertEqual(writeOnly.status, 1)
        XCTAssertEqual(writeOnly.stderr, "folio write: standard input: is not open for reading\n")
        XCTAssertEqual(try gitOut("rev-parse", "HEAD"), head)
        XCTAssertEqual(try Data(contentsOf: dir.path("somefile")), Data())
    }

    // MARK: Arguments

    func testGivenArgumentsThatAreNotUTF8WhenRunThenTheyAreRefusedNotReplaced() throws {
        try folio("new", "Doc")
        let head = try gitOut("rev-parse", "HEAD")
        let name = try shell("write Doc \"$(printf 'caf\\351.txt')\"", stdin: "x")
        XCTAssertEqual(name.status, 2)
        XCTAssertEqual(name.stderr, "folio: argument 3 is not valid UTF-8: 'caf\\xE9.txt'\n")
        let document = try shell("new \"$(printf 'D\\377oc')\"")
        XCTAssertEqual(document.status, 2)
        XCTAssertTrue(document.stderr.contains("'D\\xFFoc'"), document.stderr)
        XCTAssertEqual(try gitOut("rev-parse", "HEAD"), head)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted(), ["Doc", "home"])
        // Valid UTF-8 names still work.
        try folio("write", "Doc", "café.txt", stdin: "ok")
        XCTAssertEqual(try gitOut("show", "HEAD:café.txt"), "ok")
    }

    func testGivenNewDocumentNamesThatAreGitOrDotsWhenCreatedThenRefused() throws {
        try folio("new", "Doc")
        for name in [".git", "Doc/.git", "x/.GIT/y", ".", "..", "Doc/..", "sub/.", "/"] {
            let result = try folio("new", name, expect: 1)
            XCTAssertTrue(result.stderr.hasPrefix("folio new: '\(name)': "), result.stderr)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path(".git").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("x").path))
        XCTAssertEqual(try gitOut("ls-files"), ".folio/document.json\ndocument.txt\n")
        try assertFsckClean()
    }

    // MARK: JSON Folio reads

    func testGivenHostileJSONInEachFileFolioReadsWhenUsedThenOneLineErrorNamingTheFile() throws {
        try folio("new", "Doc")
        let metadataPath = dir.path("Doc/.folio/document.json")
        let good = try String(contentsOf: metadataPath, encoding: .utf8)
        let hostile: [(String, String)] = [
            (good.replacingOccurrences(of: "\"format\" : 1", with: "\"format\" : -5"), "format -5 is not a format version"),
            (good.replacingOccurrences(of: "\"format\" : 1", with: "\"format\" : 1e30"), "expected a whole number"),
            (good.replacingOccurrences(of: "\"document.txt\"", with: "\".folio/document.json\""), ".folio is managed by Folio"),
            (good.replacingOccurrences(of: "\"title\" : \"Doc\"", with: "\"title\" : \"\\uD800\\u0041\""), "lone UTF-16 surrogate"),
            (good.replacingOccurrences(of: "\"title\" : \"Doc\"", with: "\"title\" : \"a\", \"title\" : \"b\""), "duplicate key 'title'"),
        ]
        for (text, expected) in hostile {
            XCTAssertNotEqual(text, good)
            try Data(text.utf8).write(to: metadataPath)
            let result = try folio("log", "Doc", expect: 1)
            XCTAssertTrue(result.stderr.contains(metadataPath.path) && result.stderr.contains(expected), result.stderr)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        }
        try Data(good.utf8).write(to: metadataPath)

        let settings = dir.path("home/.config/folio/settings.json")
        try FileManager.default.createDirectory(at: settings.deletingLastPathComponent(), withIntermediateDirectories: true)
        for (bytes, expected) in [(Array(#"{"sync": "\uDC00"}"#.utf8), "lone UTF-16 surrogate"),
                                  (Array(#"{"sync": "full", "sync": "none"}"#.utf8), "duplicate key 'sync'"),
                                  (Array(#"{"colors": {"a": ""#.utf8) + [0xFF] + Array(#""}}"#.utf8), "invalid UTF-8")] {
            try Data(bytes).write(to: settings)
            let result = try folio("write", "Doc", "x.txt", stdin: "x", expect: 1)
            XCTAssertTrue(result.stderr.contains(settings.path) && result.stderr.contains(expected), result.stderr)
            // Reading the history needs no settings: it is read with the file broken
            XCTAssertEqual(try folio("log", "Doc").stdout.split(separator: "\n").count, 1)
        }
        try FileManager.default.removeItem(at: settings)
        XCTAssertEqual(try folio("log", "Doc").stdout.split(separator: "\n").count, 1)
    }

    func testGivenSettingsTheRecentListOrALaunchFileThatIsAFolderOrAFIFOWhenACommandReadsItThenOneLineNamesItAndNothingIsWritten() throws {
        // Given a document, and in turn each of Folio's own files replaced by a folder and by a FIFO
        try folio("new", "Doc")
        let head = try gitOut("rev-parse", "HEAD")
        let settings = dir.path("home/.config/folio/settings.json")
        let recent = dir.path("home/.local/state/folio/recent.json")
        let launch = dir.path("launch.json")
        let cases: [(file: URL, arguments: [String])] = [
            (settings, ["write", "Doc", "x.txt"]),
            (recent, ["outdated"]),
            (launch, ["launch", "--render", "--config", "launch.json"]),
        ]
        for (file, arguments) in cases {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: file)  // `folio new` started the recent list
            for (kind, make) in [("a directory", { try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false) }),
                                 ("a FIFO (named pipe)", { XCTAssertEqual(mkfifo(file.path, 0o644), 0) })] as [(String, () throws -> Void)] {
                try make()
                // When a command that reads it runs (under `timeout`: a FIFO must never be waited on)
                let result = try runProgram("/usr/bin/timeout", ["20", folioExecutable.path] + arguments, cwd: dir.url, environment: env,
                                            stdin: Data("content".utf8))
                // Then it fails with one line naming the file and what is in its place
                XCTAssertEqual(result.status, 1, "\(arguments) with \(kind): \(result.stdout)")
                XCTAssertEqual(result.stderr, "folio \(arguments[0]): \(file.path): cannot read the file (it is \(kind), not a regular file)\n")
                try FileManager.default.removeItem(at: file)
            }
        }
        // And nothing was written
        XCTAssertEqual(try gitOut("rev-parse", "HEAD"), head)
        try folio("write", "Doc", "x.txt", stdin: "works again")
    }

    func testGivenHostileRenderInputsWhenRenderingThenOneLineErrorNamingTheFileOrFolder() throws {
        try dir.write("t.mustache", "Hi {{name}}{{>p}}")
        try dir.write("ok.json", #"{"name": "Ada"}"#)
        try dir.write("lone.json", #"{"name": "\uD800\u0041"}"#)
        try dir.write("dup.json", #"{"name": "a", "name": "b"}"#)
        try dir.write("deep.json", String(repeating: "[", count: 100_000))
        try dir.write("huge.json", #"{"name": 1e999}"#)
        for (data, expected) in [("lone.json", "lone.json: line 1, column 11: lone UTF-16 surrogate"), ("dup.json", "duplicate key 'name' (first at line 1, column 2)"),
                                 ("deep.json", "nested deeper than"), ("huge.json", "out of range")] {
            let result = try folio("render", "t.mustache", "--data", data, expect: 1)
            XCTAssertTrue(result.stderr.contains(expected), result.stderr)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        }
        let missing = try folio("render", "t.mustache", "--data", "ok.json", "--partials", "nowhere", expect: 1)
        XCTAssertEqual(missing.stderr, "folio render: \(dir.path("nowhere").path): cannot use the partials folder: no such file or directory\n")
        let notFolder = try folio("render", "t.mustache", "--data", "ok.json", "--partials", "ok.json", expect: 1)
        XCTAssertEqual(notFolder.stderr, "folio render: \(dir.path("ok.json").path): cannot use the partials folder: it is not a folder\n")
        let directoryData = try folio("render", "t.mustache", "--data", "/", expect: 1)
        XCTAssertEqual(directoryData.stderr, "folio render: /: is a directory, not a JSON file\n")
        XCTAssertEqual(try folio("render", "t.mustache", "--data", "ok.json").stdout, "Hi Ada")
    }

    func testGivenAMalformedPluginManifestOnThePluginPathWhenRunningUnrelatedCommandsThenTheyWorkAndPluginsWarns() throws {
        try folio("new", "Doc")
        let plugins = dir.path("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        let library = productsDirectory.appendingPathComponent("libFolioPlainText.so")
        for (name, manifest) in [("Lone", #"{"id": "x\uD800\u0041"}"#), ("Dup", #"{"id": "a", "id": "b"}"#), ("Deep", String(repeating: "[", count: 100_000))] {
            try FileManager.default.copyItem(at: library, to: plugins.appendingPathComponent("lib\(name).so"))
            try Data(manifest.utf8).write(to: plugins.appendingPathComponent("lib\(name).folio-plugin.json"))
        }
        env["FOLIO_PLUGIN_PATH"] = plugins.path
        XCTAssertEqual(try folio("log", "Doc").stdout.split(separator: "\n").count, 1)
        try folio("templates", "list")
        try folio("write", "Doc", "document.txt", stdin: "still editable\n")
        let list = try folio("plugins", "list")
        XCTAssertTrue(list.stdout.contains("org.folio.plugins.plain-text"), list.stdout)
        let warnings = list.stderr.split(separator: "\n")
        XCTAssertEqual(warnings.count, 3, list.stderr)
        XCTAssertTrue(warnings.contains { $0.contains("libLone.so") && $0.contains("lone UTF-16 surrogate") }, list.stderr)
        XCTAssertTrue(warnings.contains { $0.contains("libDup.so") && $0.contains("duplicate key 'id'") }, list.stderr)
        XCTAssertTrue(warnings.contains { $0.contains("libDeep.so") && $0.contains("nested deeper") }, list.stderr)
    }

    func testGivenAFIFONamedLikeALibraryWhenPluginsAreListedCheckedValidatedOrInstalledThenItIsRefusedAndNothingWaits() throws {
        // Given a FIFO named like a plugin (opening it for reading would wait for a writer forever)
        let plugins = dir.path("fifo-plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        let fifo = plugins.appendingPathComponent("libFifo.so").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        env["FOLIO_PLUGIN_PATH"] = plugins.path
        // When plugins are listed, the FIFO is one refusal and the bundled plugins are still there
        let list = try folio("plugins", "list")
        XCTAssertTrue(list.stdout.contains("org.folio.plugins.checklist"), list.stdout)
        XCTAssertEqual(list.stderr, "\(fifo): plugin refused: not a regular file\n")
        // Then check, validate and install each refuse it in one line
        for verb in ["check", "validate", "install"] {
            let refused = try folio("plugins", verb, fifo, expect: 1)
            XCTAssertTrue(refused.stderr.contains("not a regular file"), "\(verb): \(refused.stderr)")
            XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, "\(verb): \(refused.stderr)")
        }
    }

    func testGivenAPathWithTerminalEscapesWhenAnErrorQuotesItThenTheEscapesAreShownNotSent() throws {
        // Given a file name holding ESC, BEL and a C1 control; When an error names it
        let result = try folio("plugins", "install", "x\u{1B}[31m\u{07}\u{9B}.so", expect: 1)
        // Then the line shows them as visible escapes and no control byte reaches the terminal
        XCTAssertTrue(result.stderr.contains("x\\e[31m\\x07\\u{9B}.so"), result.stderr)
        XCTAssertFalse(result.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) }, result.stderr)
    }

    func testGivenStandardOutputOnAFullDeviceWhenACommandPrintsThenItFailsWithOneLineInsteadOfExitingZero() throws {
        // Given stdout on /dev/full (every write fails with ENOSPC), When folio prints its version or a bash script
        for command in ["--version", "completions bash"] {
            let result = try runProgram("/bin/sh", ["-c", "'\(folioExecutable.path)' \(command) > /dev/full"], cwd: dir.url, environment: env)
            // Then it exits 1 and says the output is incomplete, in one line
            XCTAssertEqual(result.status, 1, "\(command): \(result.stderr)")
            XCTAssertEqual(result.stderr, "folio: cannot write standard output (No space left on device); the output is incomplete\n", command)
        }
        // A reader that stops early is not an error (folio log | head)
        let early = try runProgram("/bin/sh", ["-c", "'\(folioExecutable.path)' completions bash | head -c 1 > /dev/null; exit ${PIPESTATUS:-0}"], cwd: dir.url, environment: env)
        XCTAssertEqual(early.stderr, "")
    }

    func testGivenHostileCommitDatesWhenWritingThenOneLineErrorNamingTheVariable() throws {
        try folio("new", "Doc")
        for (variable, value) in [("GIT_AUTHOR_DATE", "nan"), ("GIT_AUTHOR_DATE", "inf"), ("GIT_COMMITTER_DATE", "1e30 +0000"),
                                  ("GIT_AUTHOR_DATE", "-1e30"), ("GIT_AUTHOR_DATE", "1700000000 +999999999999"),
                                  ("GIT_COMMITTER_DATE", "1700000000 +9999"), ("GIT_AUTHOR_DATE", "1700000000 +2460")] {
            env[variable] = value
            let result = try folio("write", "Doc", "document.txt", stdin: value, expect: 1)
            XCTAssertTrue(result.stderr.hasPrefix("folio write: \(variable): '\(value)'"), result.stderr)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            env[variable] = nil
        }
        env["GIT_AUTHOR_DATE"] = "1700000000 -2359"
        env["GIT_COMMITTER_DATE"] = "@1700000000 +2359"
        try folio("write", "Doc", "document.txt", stdin: "kept")
        XCTAssertEqual(try gitOut("log", "-1", "--format=%ad|%cd", "--date=raw"), "1700000000 -2359|1700000000 +2359\n")
        try assertFsckClean()
    }
}
