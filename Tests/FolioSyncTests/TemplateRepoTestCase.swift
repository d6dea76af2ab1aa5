import FolioTestSupport
import Foundation
import XCTest

/// The set-up shared by the template update tests: a sync workspace with an empty git repository (branch `main`) at
/// `tpl` for the template's versions.
class TemplateRepoTestCase: XCTestCase {
    var ws: SyncWorkspace!
    var template: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        ws = try SyncWorkspace()
        template = ws.dir.path("tpl")
        try FileManager.default.createDirectory(at: template, withIntermediateDirectories: true)
        try tplGit(["init", "-q", "-b", "main"])
    }

    override func tearDown() {
        ws = nil
        super.tearDown()
    }

    /// Runs `git ARGS` in the template repository and checks that it succeeds.
    func tplGit(_ args: [String]) throws {
        let result = try git(args, in: template, environment: ws.env)
        XCTAssertEqual(result.status, 0, "git \(args): \(result.stderr)")
    }
}
