import Foundation
import XCTest
import FolioCore
import FolioTemplates
import FolioCLITestSupport

/// `folio templates search` over the configured sources, and the versions `templates show` lists.
final class TemplateSearchTests: XCTestCase {
    private var temp: TemporaryDirectory!
    private var env: [String: String] = [:]
    private var repo: TemplateRepoBuilder!
    private var url: String { "file://" + repo.root.path }

    override func setUpWithError() throws {
        temp = TemporaryDirectory()
        env = temp.environment()
        repo = TemplateRepoBuilder(root: temp.path("src"), environment: env)
        try FileManager.default.createDirectory(at: repo.root, withIntermediateDirectories: true)
        try repo.initRepository()
        try repo.template("site", id: "web/site", extra: #", "summary": "A static site with a blog", "tags": ["html", "Blog"]"#)
        try repo.template("tool", id: "cli/tool", extra: #", "summary": "A Swift command-line tool", "tags": ["swift"]"#)
        try repo.write("blogpost/template.json", #"{"id": "blog/post", "name": "Blog post", "version": "1.0.0"}"#)
        try repo.write("blogpost/files/post.md", "post\n")
        try repo.commitAll("one", tag: "v1.0.0")
    }

    private func resolved() throws -> ResolvedSource {
        let resolver = TemplateResolver(environment: env)
        let source = TemplateSource(name: "mine", location: url)
        return try await_ { try await resolver.resolve(source) }
    }

    func testGivenWordsWhenSearchedThenEveryWordMustMatchAndIdOrNameMatchesRankFirst() throws {
        let source = try resolved()
        // A word in a name beats a word in tags; case and accents do not matter
        XCTAssertEqual(TemplateSearch.search(["BLÓG"], in: [source]).map(\.id), ["blog/post", "web/site"])
        XCTAssertEqual(TemplateSearch.search(["swift", "tool"], in: [source]).map(\.id), ["cli/tool"])
        XCTAssertEqual(TemplateSearch.search(["blog", "swift"], in: [source]).map(\.id), [])
        XCTAssertEqual(TemplateSearch.search(["html"], in: [source]).first?.tags, ["html", "Blog"])
    }

    func testGivenConfiguredSourceWhenSearchedOfflineThenTheCacheAnswersAndOnlineSeesNewTemplates() throws {
        // Given the source configured and fetched once
        XCTAssertEqual(runFolio(["templates", "add", "mine", url], environment: env, cwd: temp.url).status, 0)
        let first = runFolio(["templates", "search", "blog"], environment: env, cwd: temp.url)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("mine  blog/post"), first.stdout)
        XCTAssertTrue(first.stdout.contains("mine  web/site   Test web/site 1.0.0 — A static site with a blog"), first.stdout)
        // When a new template is published, offline search does not see it (and fetches nothing)
        try repo.write("guide/template.json", #"{"id": "docs/guide", "name": "Guide", "version": "1.1.0", "tags": ["manual"]}"#)
        try repo.write("guide/files/guide.md", "guide\n")
        try repo.commitAll("two", tag: "v1.1.0")
        let offline = runFolio(["templates", "search", "manual", "--offline"], environment: env, cwd: temp.url)
        XCTAssertEqual(offline.status, 0, offline.stderr)
        XCTAssertTrue(offline.stdout.contains("No template matches manual"), offline.stdout)
        XCTAssertTrue(offline.stderr.contains("offline, using the copy cached"), offline.stderr)
        // Then online it is found, in JSON too
        let online = runFolio(["templates", "search", "manual", "--json"], environment: env, cwd: temp.url)
        XCTAssertEqual(online.status, 0, online.stderr)
        XCTAssertTrue(online.stdout.contains(#""id" : "docs\/guide""#) || online.stdout.contains(#""id" : "docs/guide""#), online.stdout)
        // And no words is a usage error
        XCTAssertEqual(runFolio(["templates", "search"], environment: env, cwd: temp.url).status, 2)
        XCTAssertEqual(runFolio(["templates", "search", " "], environment: env, cwd: temp.url).status, 2)
    }

    func testGivenTaggedReleasesWhenShownThenEveryVersionHoldingTheTemplateIsListedNewestFirst() throws {
        try repo.template("site", id: "web/site", version: "2.0.0")
        try repo.commitAll("two", tag: "v2.0.0")
        try repo.git(["tag", "not-a-version"])
        try repo.git(["rm", "-q", "-r", "site"])
        try repo.commitAll("gone", tag: "v3.0.0")
        // When the template is shown (from v2.0.0, since v3.0.0 no longer has it)
        let shown = runFolio(["templates", "show", "web/site", "--source", url, "--ref", "v2.0.0", "--json"], environment: env, cwd: temp.url)
        XCTAssertEqual(shown.status, 0, shown.stderr)
        struct Shown: Decodable { struct Version: Decodable { let tag: String; let version: String? }; let versions: [Version] }
        let versions = try JSONDecoder().decode(Shown.self, from: Data(shown.stdout.utf8)).versions
        // Then the tags holding it are listed newest first, other tags after, and v3.0.0 (without it) is not
        XCTAssertEqual(versions.map(\.tag), ["v2.0.0", "v1.0.0", "not-a-version"])
        XCTAssertEqual(versions.map(\.version), ["2.0.0", "1.0.0", "2.0.0"])
        let text = runFolio(["templates", "show", "web/site", "--source", url, "--ref", "v2.0.0"], environment: env, cwd: temp.url).stdout
        XCTAssertTrue(text.contains("versions:\n  v2.0.0 "), text)
    }
}
