import FolioTestSupport
import Foundation
import XCTest

/// The set-up shared by the plugin tests that compile plugins: a temporary folder that the plugin host may enter.
class PluginTempTestCase: XCTestCase {
    var temp: TemporaryDirectory!
    /// The name the temporary folder starts with.
    var temporaryName: String { "folio-plugins" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        temp = TemporaryDirectory(temporaryName)
        chmod(temp.url.path, 0o755)
    }

    override func tearDown() {
        temp = nil
        super.tearDown()
    }
}
