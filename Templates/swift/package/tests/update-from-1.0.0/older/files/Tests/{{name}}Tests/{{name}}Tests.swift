import XCTest
@testable import {{name}}

final class {{name}}Tests: XCTestCase {
    func testGreetingUsesTheGivenName() {
        // Given a value, when it greets Ada, then the greeting names her.
        XCTAssertEqual({{name}}().greeting(for: "Ada"), "Hello, Ada!")
    }

    func testGreetingFallsBackToTheDefaultName() {
        // Given a blank name, when greeting, then the default name is used.
        XCTAssertEqual({{name}}().greeting(for: "  "), "Hello, world!")
    }
}
