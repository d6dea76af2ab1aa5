import Foundation
import FolioSync
import XCTest

/// The sync loop's timing after a push that lost a race for the remote's branch (issue 32): the round runs again at
/// once, and the backoff is kept for a remote that cannot be reached.
final class SyncScheduleRaceTests: XCTestCase {
    let start = ContinuousClock.now
    func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    func testGivenALostRaceThenTheNextRoundIsDueAfterThePauseWithAWaitingPushAndTheRetryDelayDoesNotGrow() {
        // Given a schedule that looked at the remote, and a version waiting to be pushed
        var schedule = SyncSchedule(timings: SyncTimings(), now: at(0))
        schedule.succeeded(started: at(0), now: at(0))
        schedule.committed(at: at(1))
        // When the round at 2 s loses the race for the remote's branch
        let delay = schedule.lostRace(at: at(2), pause: .milliseconds(40))
        // Then the next round is due 40 ms later, not after the 2 s retry delay, and the delay was not grown
        XCTAssertEqual(delay, .milliseconds(40))
        XCTAssertEqual(schedule.nextRound, at(2.04))
        XCTAssertNil(schedule.retryDelay)
        XCTAssertEqual(schedule.racesLost, 1)
        // And a failure to reach the remote afterwards still waits the first retry delay, 2 s
        XCTAssertEqual(schedule.failed(at: at(3)), .seconds(2))
    }

    func testGivenRacesLostBeyondTheLimitThenTheNextCountsAsAFailureAndASuccessStartsOver() {
        // Given a schedule that loses every race
        var schedule = SyncSchedule(timings: SyncTimings(), now: at(0))
        var now = 0.0
        for _ in 0..<SyncSchedule.raceLimit {
            XCTAssertEqual(schedule.lostRace(at: at(now), pause: .milliseconds(50)), .milliseconds(50))
            now += 0.05
        }
        // When one more is lost / Then it backs off as a failure would (a server that always answers so)
        XCTAssertEqual(schedule.lostRace(at: at(now), pause: .milliseconds(50)), .seconds(2))
        XCTAssertEqual(schedule.racesLost, 0)
        // When a round then succeeds, a lost race is retried at once again
        schedule.succeeded(started: at(now + 2), now: at(now + 2))
        XCTAssertEqual(schedule.lostRace(at: at(now + 3), pause: .milliseconds(30)), .milliseconds(30))
    }
}
