import Foundation
import XCTest
@testable import FolioLaunch

/// An idle window draws only when something it shows may have changed, so idling costs next to no CPU.
final class FrameGateTests: XCTestCase {
    func testGivenAnIdleWindowThenFramesAreDrawnOnlyOnAChangeWhileAnimatingOrOnceASecond() {
        var gate = FrameGate()
        let start = Date(timeIntervalSince1970: 1_000)
        var state = AppState()
        func due(_ state: AppState, width: Int = 80, generation: UInt64? = 1, animating: Bool = false, after seconds: TimeInterval) -> Bool {
            gate.needsFrame(state, width: width, height: 24, renderGeneration: generation, animating: animating, now: start.addingTimeInterval(seconds))
        }
        // Given a first frame drawn
        XCTAssertTrue(due(state, after: 0))
        // When nothing changes (the spinner's tick aside), then no frame
        XCTAssertFalse(due(state, after: 0.08))
        state.tick += 5
        state.now = start.addingTimeInterval(0.16)
        XCTAssertFalse(due(state, after: 0.16))
        // When the state, the size or the render changes, or something animates, then a frame
        state.message = .success("Saved")
        XCTAssertTrue(due(state, after: 0.24))
        XCTAssertTrue(due(state, width: 100, after: 0.32))
        XCTAssertTrue(due(state, width: 100, generation: 2, after: 0.40))
        XCTAssertTrue(due(state, width: 100, generation: 2, animating: true, after: 0.48))
        XCTAssertFalse(due(state, width: 100, generation: 2, after: 0.56))
        // And once a second at the latest, for the clocks
        XCTAssertTrue(due(state, width: 100, generation: 2, after: 1.6))
    }
}
