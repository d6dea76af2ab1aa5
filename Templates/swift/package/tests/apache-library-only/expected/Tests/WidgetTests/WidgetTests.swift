import XCTest
@testable import Widget

final class WidgetTests: XCTestCase {
    func testGreetingUsesTheGivenName() {
        // Given a value, when it greets Ada, then the greeting names her.
        XCTAssertEqual(Widget().greeting(for: "Ada"), "Hello, Ada!")
    }

    func testGreetingFallsBackToTheDefaultName() {
        // Given a blank name, when greeting, then the default name is used.
        XCTAssertEqual(Widget().greeting(for: "  "), "Hello, world!")
    }
}
