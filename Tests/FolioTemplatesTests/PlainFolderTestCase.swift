import FolioTemplates
import FolioTestSupport
import XCTest

/// The set-up shared by the plain-folder source tests: a folder `plain` holding template `p/t` ("v1 {{who}}"), a
/// resolver and the source that names the folder.
class PlainFolderTestCase: XCTestCase {
    var temp: TemporaryDirectory!
    var folder: TemplateRepoBuilder!
    var resolver: TemplateResolver!
    var source: TemplateSource!

    override func setUpWithError() throws {
        try super.setUpWithError()
        temp = TemporaryDirectory()
        folder = TemplateRepoBuilder(root: temp.path("plain"), environment: temp.environment())
        try folder.template("t", id: "p/t", body: "v1 {{who}}\n")
        resolver = TemplateResolver(environment: temp.environment())
        source = TemplateSource(name: "plain", location: folder.root.path)
    }
}
