import Foundation
import FolioCore
import FolioSync
import FolioTemplates
import FolioTestSupport
import XCTest

/// `folio outdated`: which documents are behind their template, for CI.
final class TemplateOutdatedTests: TemplateRepoTestCase {
    var url: String { "file://" + template.path }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(at: ws.dir.path("projects/nested"), withIntermediateDirectories: true)
        try release("1.0.0")
        // Given two documents from v1 (one nested), and a blank document, under projects/
        ws.folio(["new", "projects/a", "--template", "pkg", "--source", url, "--defaults"])
        ws.folio(["new", "projects/nested/b", "--template", "pkg", "--source", url, "--defaults"])
        ws.folio(["new", "projects/blank"])
    }

    private func release(_ version: String) throws {
        try ws.dir.write("tpl/pkg/template.json", #"{"id": "pkg", "name": "Package", "version": "\#(version)", "variables": []}"#)
        try ws.dir.write("tpl/pkg/files/README.md", "version \(version)\n")
        try tplGit(["add", "-A"])
        try tplGit(["commit", "-q", "-m", version])
        try tplGit(["tag", "-a", "v" + version, "-m", version])
    }

    func testGivenFolderWhenDocumentsAreFoundThenEveryDocumentIsListedButNotSearchedInside() throws {
        try FileManager.default.createDirectory(at: ws.dir.path("projects/a/inner/.git"), withIntermediateDirectories: true)
        try ws.dir.write("projects/a/inner/.folio/document.json", "{}")
        let found = TemplateOutdated.documents(under: ws.dir.path("projects")).map { $0.path.replacingOccurrences(of: ws.dir.url.path + "/", with: "") }
        XCTAssertEqual(found, ["projects/a", "projects/blank", "projects/nested/b"])
    }

    func testGivenOneDocumentBehindWhenOutdatedRunsThenItIsListedAndTheExitIsOne() throws {
        // Given v2, and b updated to it
        try release("2.0.0")
        ws.folio(["update", "projects/nested/b"])
        // When outdated runs over the folder
        let result = ws.folio(["outdated", "projects"], expect: 1)
        // Then a is behind, b is up to date, the blank document is not listed
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, result.stdout)
        XCTAssertTrue(lines[0].hasPrefix(ws.dir.path("projects/a").path) && lines[0].hasSuffix("pkg 1.0.0 → 2.0.0 available"), result.stdout)
        XCTAssertTrue(lines[1].hasPrefix(ws.dir.path("projects/nested/b").path) && lines[1].hasSuffix("pkg 2.0.0 up to date"), result.stdout)
        // And the JSON says the same
        let json = ws.folio(["outdated", "projects", "--json"], expect: 1)
        struct Report: Decodable { struct Doc: Decodable { let path: String; let current: String; let latest: String?; let outdated: Bool }; let documents: [Doc]; let outdated: Int }
        let report = try JSONDecoder().decode(Report.self, from: Data(json.stdout.utf8))
        XCTAssertEqual(report.outdated, 1)
        XCTAssertEqual(report.documents.map(\.outdated), [true, false])
        XCTAssertEqual(report.documents.map(\.latest), ["2.0.0", "2.0.0"])
        // And once a is updated too, the exit is 0
        ws.folio(["update", "projects/a"])
        ws.folio(["outdated", "projects"], expect: 0)
    }

    func testGivenNoFolderWhenOutdatedRunsThenTheRecentDocumentsAreChecked() throws {
        try release("2.0.0")
        let result = ws.folio(["outdated"], expect: 1)
        XCTAssertTrue(result.stdout.contains(ws.dir.path("projects/a").path), result.stdout)
        XCTAssertTrue(result.stdout.contains(ws.dir.path("projects/nested/b").path), result.stdout)
        XCTAssertFalse(result.stdout.contains("blank"), result.stdout)
    }

    func testGivenNewerReleaseNotFetchedWhenOfflineThenTheCachedVersionIsUsedAndSaid() throws {
        // Given v2 released after the cache was filled
        try release("2.0.0")
        // When checked offline, the cache (still at v1) answers, and says so
        let offline = ws.folio(["outdated", "projects", "--offline"], expect: 0)
        XCTAssertTrue(offline.stdout.contains("pkg 1.0.0 up to date"), offline.stdout)
        XCTAssertTrue(offline.stdout.contains("offline, using the copy cached"), offline.stdout)
        XCTAssertTrue(offline.stdout.contains("offline: newest versions are from the cached sources"), offline.stdout)
        // And online it fetches and sees v2
        XCTAssertTrue(ws.folio(["outdated", "projects"], expect: 1).stdout.contains("1.0.0 → 2.0.0 available"))
    }

    func testGivenMissingFolderWhenOutdatedRunsThenOneLineNamesIt() {
        let result = ws.folio(["outdated", "nowhere"], expect: 1)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix("nowhere: no such folder\n"), result.stderr)
    }
}
