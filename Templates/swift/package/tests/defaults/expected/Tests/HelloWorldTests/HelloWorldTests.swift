import XCTest
@testable import HelloWorld

final class HelloWorldTests: XCTestCase {
    func testGreetingUsesTheGivenName() {
        // Given a value, when it greets Ada, then the greeting names her.
        XCTAssertEqual(HelloWorld().greeting(for: "Ada"), "Hello, Ada!")
    }

    func testGreetingFallsBackToTheDefaultName() {
        // Given a blank name, when greeting, then the default name is used.
        XCTAssertEqual(HelloWorld().greeting(for: "  "), "Hello, world!")
    }
}
