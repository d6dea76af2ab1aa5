@testable import FolioCLI
import FolioCore
import FolioCLITestSupport
import Foundation
import XCTest

final class HistoryCommandTests: FolioCommandTestCase {
    func testNewWriteLogShowDiffThroughTheCommandLine() throws {
        // Given a new document
        folio("new", "Diary", "--title", "My Diary")
        // When two changes are written from stdin and a file
        folio("write", "Diary", "document.txt", "-m", "Monday", stdin: "rain\n")
        try dir.write("src.txt", "rain\nsun\n")
        folio("write", "Diary", "document.txt", "--from", "src.txt", "-m", "Tuesday")
        // Then the log shows them newest first with ids, authors and messages
        let log = folio("log", "Diary").stdout.split(separator: "\n")
        XCTAssertEqual(log.count, 3)
        XCTAssertTrue(log[0].hasSuffix("Ada Tester  Tuesday"), String(log[0]))
        XCTAssertTrue(log[2].hasSuffix("Create My Diary"), String(log[2]))
        XCTAssertEqual(folio("log", "Diary", "--limit", "1", "--skip", "1").stdout.split(separator: "\n").count, 1)
        // And show prints a version's primary file exactly
        XCTAssertEqual(folio("show", "Diary", "@2").stdout, "rain\n")
        XCTAssertEqual(folio("show", "Diary").stdout, "rain\nsun\n")
        // And diff defaults to previous vs current
        let diff = folio("diff", "Diary").stdout
        XCTAssertTrue(diff.contains("+sun"), diff)
        XCTAssertTrue(diff.contains("--- a/document.txt"), diff)
        XCTAssertEqual(folio("diff", "Diary", "@1", "@2").stdout.contains("+rain"), true)
    }

    func testJSONOutputIsStableAndParseable() throws {
        folio("new", "Doc", "--json")
        folio("write", "Doc", "document.txt", "-m", "One", stdin: "1")
        let log = folio("log", "Doc", "--json").stdout
        let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(log.utf8)) as? [[String: Any]])
        XCTAssertEqual(entries.map { $0["summary"] as? String }, ["One", "Create Doc"])
        XCTAssertEqual(Set(entries[0].keys), ["author", "email", "id", "message", "parents", "shortID", "summary", "tags", "time"])
        let change = folio("write", "Doc", "document.txt", "--json", stdin: "2").stdout
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(change.utf8)) as? [String: Any])
        XCTAssertEqual(report["changed"] as? Bool, true)
    }

    func testUndoRedoRestoreAndTagSequence() throws {
        folio("new", "D")
        for word in ["a", "b", "c"] { folio("write", "D", "document.txt", "-m", "Set \(word)", stdin: word) }
        XCTAssertEqual(folio("undo", "D").stdout.hasSuffix("Undo: Set c\n"), true)
        XCTAssertEqual(folio("show", "D").stdout, "b")
        folio("redo", "D")
        XCTAssertEqual(folio("show", "D").stdout, "c")
        folio("tag", "D", "final")
        folio("restore", "D", "@2")
        XCTAssertEqual(folio("show", "D").stdout, "a")
        XCTAssertEqual(folio("show", "D", "final").stdout, "c")
        XCTAssertTrue(folio("log", "D").stdout.contains("(tag: final)"))
        let redo = folio("redo", "D", expect: 1)
        XCTAssertTrue(redo.stderr.contains("nothing to redo"), redo.stderr)
        let fsck = try git(["fsck", "--strict"], in: dir.path("D"), environment: env)
        XCTAssertEqual(fsck.status, 0, fsck.stderr)
        XCTAssertEqual(try git(["status", "--porcelain"], in: dir.path("D"), environment: env).stdout, "")
    }

    func testCommitRecordsOutsideEditsAndSaysWhenThereIsNothing() throws {
        folio("new", "D")
        XCTAssertTrue(folio("commit", "D").stdout.contains("Nothing to commit"))
        try dir.write("D/document.txt", "typed in vim\n")
        XCTAssertTrue(folio("commit", "D", "-m", "Edit in vim").stdout.contains("Edit in vim"))
        XCTAssertEqual(folio("show", "D").stdout, "typed in vim\n")
    }

    func testBadInputIsOneLineOnStderrWithNonZeroExit() throws {
        try dir.write("plain.txt", "x")
        folio("new", "D")
        let cases: [([String], String)] = [
            (["log", "nowhere"], "no such folder"),
            (["log", "plain.txt"], "it is a file"),
            (["show", "D", "deadbeef"], "unknown version 'deadbeef'"),
            (["write", "D", "../x", "-m", "m"], "relative path"),
            (["log", "D", "--limit", "ten"], "whole number"),
            (["frobnicate"], "unknown command"),
            (["new", "D"], "already exists"),
        ]
        for (args, expected) in cases {
            let result = runFolio(args, environment: env, cwd: dir.url)
            XCTAssertNotEqual(result.status, 0, args.joined(separator: " "))
            XCTAssertTrue(result.stderr.contains(expected), "\(args): \(result.stderr)")
            XCTAssertEqual(result.stdout, "")
            XCTAssertTrue(result.stderr.hasPrefix("folio"), result.stderr)
        }
        XCTAssertEqual(folio("log", "D").stdout.split(separator: "\n").count, 1, "nothing changed")
    }

    func testTheRealExecutableRunsAndExitsWithTheRightCodes() throws {
        // The thin executable maps errors to exit codes and stderr.
        let made = try runProgram(folioExecutable.path, ["new", "Real", "--type", "public.plain-text"], cwd: dir.url, environment: env)
        XCTAssertEqual(made.status, 0, made.stderr)
        let written = try runProgram(folioExecutable.path, ["write", "Real", "document.txt", "-m", "Piped"], cwd: dir.url, environment: env, stdin: Data("from a pipe\n".utf8))
        XCTAssertEqual(written.status, 0, written.stderr)
        let bad = try runProgram(folioExecutable.path, ["show", "Real", "@7"], cwd: dir.url, environment: env)
        XCTAssertEqual(bad.status, 1)
        XCTAssertEqual(bad.stderr.split(separator: "\n").count, 1, bad.stderr)
        let shown = try runProgram(folioExecutable.path, ["show", "Real"], cwd: dir.url, environment: env)
        XCTAssertEqual(shown.stdout, "from a pipe\n")
    }
}

final class LogOutputTests: XCTestCase {
    func testHandWrittenLogJSONMatchesFoundationsEncoder() throws {
        // Given a document whose messages and tags need escaping
        let dir = TemporaryDirectory()
        let env = dir.environment()
        XCTAssertEqual(runFolio(["new", "D"], environment: env, cwd: dir.url).status, 0)
        XCTAssertEqual(runFolio(["write", "D", "document.txt", "-m", "Say \"hi\"\n\n\tbody \\ with \u{1} control"], environment: env, cwd: dir.url, stdin: Data("x".utf8)).status, 0)
        XCTAssertEqual(runFolio(["tag", "D", "v1"], environment: env, cwd: dir.url).status, 0)
        XCTAssertEqual(runFolio(["tag", "D", "ünïcode", "@1"], environment: env, cwd: dir.url).status, 0)
        // When the log is printed as JSON
        let printed = runFolio(["log", "D", "--json"], environment: env, cwd: dir.url).stdout
        // Then it is byte for byte what JSONEncoder makes of the same entries
        let entries = try DocumentStore(environment: env).open(at: dir.path("D")).log()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let expected = String(decoding: try encoder.encode(entries), as: UTF8.self) + "\n"
        XCTAssertEqual(printed, expected)
    }

    func testALongLogStreamsInChunksThatJoinToTheSameDocument() throws {
        // Given a history whose JSON log is several output chunks long, with non-ASCII authors and messages
        let dir = TemporaryDirectory()
        var env = dir.environment()
        env["GIT_AUTHOR_NAME"] = "Zoë Ünal"
        let document = try DocumentStore(settings: Settings(sync: .none), environment: env).create(at: dir.path("D"))
        let body = String(repeating: "a line of the body, naïve café ", count: 30)
        for i in 1...500 { try document.write(Data("\(i)".utf8), to: "document.txt", message: "Change \(i) — «quoted»\n\n\(body)") }
        // When the log is printed as JSON and as text
        var chunks: [String] = []
        let count = try LogOutput.print(document, limit: nil, skip: 0, since: nil, format: .json) { chunks.append($0) }
        let text = runFolio(["log", "D"], environment: env, cwd: dir.url).stdout
        // Then the chunks (each ending between entries) make the encoder's document, and the text has a line each
        XCTAssertEqual(count, 501)
        XCTAssertGreaterThan(chunks.count, 1)
        XCTAssertTrue(chunks.dropLast().allSatisfy { $0.hasSuffix("}") }, "chunks end between entries")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let entries = try document.log()
        XCTAssertEqual(chunks.joined(), String(decoding: try encoder.encode(entries), as: UTF8.self) + "\n")
        let lines = text.split(separator: "\n")
        XCTAssertEqual(lines.count, 501)
        XCTAssertTrue(lines[0].hasPrefix(entries[0].shortID + "  "), String(lines[0]))
        XCTAssertTrue(lines[0].hasSuffix("  Zoë Ünal  Change 500 — «quoted»"), String(lines[0]))
    }
}
