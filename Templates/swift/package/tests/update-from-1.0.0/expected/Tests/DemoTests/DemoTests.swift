import XCTest
@testable import Demo

final class DemoTests: XCTestCase {
    func testGreetingUsesTheGivenName() {
        // Given a value, when it greets Ada, then the greeting names her.
        XCTAssertEqual(Demo().greeting(for: "Ada"), "Hello, Ada!")
    }

    func testGreetingFallsBackToTheDefaultName() {
        // Given a blank name, when greeting, then the default name is used.
        XCTAssertEqual(Demo().greeting(for: "  "), "Hello, world!")
    }
}
