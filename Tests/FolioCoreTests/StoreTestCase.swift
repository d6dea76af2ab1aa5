import FolioCore
import FolioTestSupport
import XCTest

/// The set-up shared by the store tests: each test gets a temporary directory, its environment (a home of its own)
/// and a store on it that does not sync.
class StoreTestCase: XCTestCase {
    var dir: TemporaryDirectory!
    var env: [String: String]!
    var store: DocumentStore!

    override func setUp() {
        super.setUp()
        dir = TemporaryDirectory()
        env = dir.environment()
        store = DocumentStore(settings: Settings(sync: .none), environment: env)
    }
}
