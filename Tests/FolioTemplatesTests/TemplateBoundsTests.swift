import Foundation
import XCTest
import FolioCore
import FolioGit
import FolioMustache
import FolioTemplates
import FolioCLITestSupport

/// Plain template folders are snapshotted only up to a number of files and bytes; a corrupt template repository
/// is reported with the source and the file being read; templates render within the settings' limits.
final class TemplateBoundsTests: XCTestCase {
    private func folder(_ temp: TemporaryDirectory, extraFiles: Int = 0, extraBytes: Int = 0) throws -> TemplateRepoBuilder {
        let builder = TemplateRepoBuilder(root: temp.path("folder"), environment: temp.environment())
        try builder.template("t", id: "t")
        for index in 0..<extraFiles { try builder.write("t/files/extra/\(index).txt", "x") }
        if extraBytes > 0 { try builder.write("t/files/big.txt", String(repeating: "b", count: extraBytes)) }
        return builder
    }

    private func cacheEntries(_ temp: TemporaryDirectory) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: temp.path("home/.cache/folio/sources").path)) ?? []).filter { !$0.hasPrefix(".") }
    }

    func testGivenFolderWithMoreFilesThanTheLimitWhenResolvedThenRefusedNamingItAndNothingCached() throws {
        // Given a plain folder of 30 files and a limit of 10
        let temp = TemporaryDirectory()
        let builder = try folder(temp, extraFiles: 30)
        let resolver = TemplateResolver(environment: temp.environment(), limits: TemplateLimits(maxFolderFiles: 10))
        // When it is resolved, then the error names the folder and the limit, and nothing went into the cache
        XCTAssertThrowsError(try await_ { try await resolver.resolve(TemplateSource(name: "f", location: builder.root.path)) }) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.contains(builder.root.path) && text.contains("more than 10 files") && text.contains("maxFiles"), text)
        }
        XCTAssertEqual(cacheEntries(temp), [])
    }

    func testGivenFolderLargerThanTheByteLimitWhenResolvedThenRefusedNamingIt() throws {
        let temp = TemporaryDirectory()
        let builder = try folder(temp, extraBytes: 5_000)
        let resolver = TemplateResolver(environment: temp.environment(), limits: TemplateLimits(maxFolderBytes: 4_000))
        XCTAssertThrowsError(try await_ { try await resolver.resolve(TemplateSource(name: "f", location: builder.root.path)) }) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.contains(builder.root.path) && text.contains("more than 4000 bytes") && text.contains("maxBytes"), text)
        }
        XCTAssertEqual(cacheEntries(temp), [])
    }

    func testGivenFolderLimitInSettingsWhenListedThenCommandFailsInOneLine() throws {
        let temp = TemporaryDirectory()
        let builder = try folder(temp, extraFiles: 8)
        try temp.write("home/.config/folio/settings.json", #"{"templateFolders": {"maxFiles": 5}}"#)
        let result = runFolio(["templates", "list", "--source", builder.root.path], environment: temp.environment(), cwd: temp.url)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("more than 5 files"), result.stderr)
        // And with the default limits, the same folder lists its template
        try FileManager.default.removeItem(at: temp.path("home/.config/folio/settings.json"))
        let listed = runFolio(["templates", "list", "--source", builder.root.path], environment: temp.environment(), cwd: temp.url)
        XCTAssertEqual(listed.status, 0, listed.stderr)
    }

    func testGivenDefaultLimitsThenBundledTemplatesSnapshotAndRender() throws {
        let temp = TemporaryDirectory()
        let env = temp.environment(["FOLIO_TEMPLATES": repositoryRoot.appendingPathComponent("Templates").path])
        let resolver = TemplateResolver(environment: env, limits: TemplateLimits())
        let resolved = try await_ { try await resolver.resolve(.bundled) }
        XCTAssertFalse(resolved.templates.isEmpty)
        for summary in resolved.templates {
            let template = try await_ { try await resolver.template(summary.id, in: resolved) }
            XCTAssertEqual(template.renderLimits, MustacheLimits())
            let answers = try template.answers(given: [:], mode: .defaults, context: ["folder_name": .string("Doc"), "current_year": .string("2026")])
            XCTAssertFalse(try template.render(answers: answers).isEmpty, summary.id)
        }
    }

    func testGivenRenderLimitsInSettingsWhenTemplateLoadedThenRenderStopsAtThem() throws {
        // Given a template whose file repeats a section over a list, and a low output limit in the settings
        let temp = TemporaryDirectory()
        let builder = TemplateRepoBuilder(root: temp.path("folder"), environment: temp.environment())
        try builder.template("t", id: "t", body: "{{#who}}{{who}}{{/who}} and more text\n")
        try temp.write("home/.config/folio/settings.json", #"{"mustache": {"maxOutputBytes": 8}}"#)
        let resolver = TemplateResolver(environment: temp.environment())
        let template = try await_ { try await resolver.findTemplate("t", in: [TemplateSource(name: "f", location: builder.root.path)]) }
        // When rendered, then the limit error names the template's file
        XCTAssertThrowsError(try template.render(answers: ["who": .string("world")])) { error in
            XCTAssertEqual((error as? MustacheError)?.limit, .maxOutputBytes, "\(error)")
            XCTAssertTrue(String(describing: error).contains("t/files/hello.txt"), "\(error)")
        }
    }

    func testGivenTemplateRepositoryMissingAFileObjectWhenLoadedThenErrorNamesSourceAndFile() throws {
        // Given a git template repository whose blob for files/hello.txt was lost
        let temp = TemporaryDirectory()
        let builder = TemplateRepoBuilder(root: temp.path("repo"), environment: temp.environment())
        try FileManager.default.createDirectory(at: builder.root, withIntermediateDirectories: true)
        try builder.initRepository()
        try builder.template("t", id: "t", body: "a body only this file has {{who}}\n")
        try builder.commitAll("one")
        let blob = try git(["rev-parse", "HEAD:t/files/hello.txt"], in: builder.root, environment: temp.environment()).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let object = builder.root.appendingPathComponent(".git/objects/\(blob.prefix(2))/\(blob.dropFirst(2))")
        try FileManager.default.removeItem(at: object)
        // When the template is loaded, then the error names the source, the file and the object
        let resolver = TemplateResolver(environment: temp.environment())
        XCTAssertThrowsError(try await_ { try await resolver.findTemplate("t", in: [TemplateSource(name: "mine", location: builder.root.path)]) }) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.hasPrefix("mine: t/files/hello.txt: cannot read it from the template repository"), text)
            XCTAssertTrue(text.contains(String(blob.prefix(7))), text)
            XCTAssertFalse(text.contains("\n"), text)
        }
    }
}

/// Deep folders are walked without recursion: resolving one on a worker thread must not overflow its stack.
final class TemplateFolderDepthTests: XCTestCase {
    func testGivenFolderNestedOneThousandFiveHundredDeepWhenResolvedThenItFinishesWithoutCrashing() throws {
        let temp = TemporaryDirectory()
        let builder = TemplateRepoBuilder(root: temp.path("folder"), environment: temp.environment())
        try builder.template("t", id: "t")
        let deep = (0..<1_500).map { _ in "d" }.joined(separator: "/")
        try FileManager.default.createDirectory(at: builder.root.appendingPathComponent("t/files/" + deep), withIntermediateDirectories: true)
        let resolver = TemplateResolver(environment: temp.environment())
        // When resolved (on a worker thread), then the walk finishes and the template is listed (empty folders hold nothing)
        let resolved = try await_ { try await resolver.resolve(TemplateSource(name: "f", location: builder.root.path)) }
        XCTAssertEqual(resolved.templates.map(\.id), ["t"])
    }
}
