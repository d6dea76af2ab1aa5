import Foundation
import FolioSync
import XCTest

/// The sync loop's timing, driven with made-up instants (no real timers).
final class SyncScheduleTests: XCTestCase {
    let start = ContinuousClock.now
    func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    func testGivenANewScheduleThenTheFirstLookIsDueAtOnce() {
        // Given a schedule made now
        let schedule = SyncSchedule(timings: SyncTimings(), now: at(0))
        // Then a round is due at once, and not an interval later as a poll alone would be
        XCTAssertTrue(schedule.isDue(at: at(0)))
    }

    func testGivenALookAt0WhenTheIntervalChangesThenTheNextLookIsTheNewIntervalAfterItNeverInThePastAndARetryStays() {
        // Given a look at 0 that succeeded, the next one due at 30
        var schedule = SyncSchedule(timings: SyncTimings(interval: .seconds(30)), now: at(0))
        schedule.succeeded(started: at(0), now: at(0))
        XCTAssertEqual(schedule.nextPoll, at(30))
        // When the interval becomes 5 s at 2 s: due at 5; at 10 s it becomes 1 s: due now, not in the past
        schedule.retime(interval: .seconds(5), now: at(2))
        XCTAssertEqual(schedule.nextPoll, at(5))
        XCTAssertEqual(schedule.timings.interval, .seconds(5))
        schedule.retime(interval: .seconds(1), now: at(10))
        XCTAssertEqual(schedule.nextPoll, at(10))
        // And back to 30 s: an interval after the last look
        schedule.succeeded(started: at(10), now: at(10))
        schedule.retime(interval: .seconds(30), now: at(10.5))
        XCTAssertEqual(schedule.nextPoll, at(40))
        // And a pending retry (offline) is left as it is
        schedule.failed(at: at(41))
        let retry = schedule.nextRound
        schedule.retime(interval: .seconds(5), now: at(41.5))
        XCTAssertEqual(schedule.nextRound, retry)
    }

    func testGivenABurstOfCommitsThenOnePushIsDueAfterTheLastButNeverLaterThanTheLimit() {
        // Given a schedule that just looked at the remote (next poll in 30 s)
        var schedule = SyncSchedule(timings: SyncTimings(), now: at(0))
        schedule.succeeded(started: at(0), now: at(0))
        // When versions are committed every 0.5 s
        schedule.committed(at: at(1))
        schedule.committed(at: at(1.5))
        schedule.committed(at: at(2))
        // Then the push is due 1 s after the last one, not after each
        XCTAssertFalse(schedule.isDue(at: at(2.9)))
        XCTAssertEqual(schedule.nextRound, at(3))
        // When commits keep coming, the push is still due 5 s after the first
        for t in stride(from: 2.5, through: 8.0, by: 0.5) { schedule.committed(at: at(t)) }
        XCTAssertEqual(schedule.nextRound, at(6))
        // When the round that started then succeeds, nothing waits and the next look is an interval later
        schedule.succeeded(started: at(8), now: at(8.2))
        XCTAssertNil(schedule.pushDue)
        XCTAssertEqual(schedule.nextRound, at(38.2))
    }

    func testGivenRepeatedFailuresThenTheRetryDelayDoublesToItsCapAndASuccessOrSyncNowResetsIt() {
        // Given a schedule whose rounds keep failing
        var schedule = SyncSchedule(timings: SyncTimings(), now: at(0))
        var delays: [Duration] = []
        var now = 0.0
        for _ in 0..<10 {
            let delay = schedule.failed(at: at(now))
            delays.append(delay)
            now += Double(delay.components.seconds)
        }
        // Then the delay grows 2, 4, 8 … and stops at 5 min
        XCTAssertEqual(delays, [2, 4, 8, 16, 32, 64, 128, 256, 300, 300].map { Duration.seconds($0) })
        // And a commit made while offline waits for the retry
        schedule.committed(at: at(now))
        XCTAssertEqual(schedule.nextRound, schedule.retryAt)
        // When a round succeeds, the next failure waits 2 s again
        schedule.succeeded(started: at(now), now: at(now))
        XCTAssertEqual(schedule.failed(at: at(now)), .seconds(2))
        XCTAssertEqual(schedule.failed(at: at(now)), .seconds(4))
        // When the user asks to sync now, it is due at once and the delay starts over
        schedule.requestNow(at: at(now + 1))
        XCTAssertTrue(schedule.isDue(at: at(now + 1)))
        XCTAssertEqual(schedule.failed(at: at(now + 1)), .seconds(2))
    }

    func testGivenASkippedRoundThenWaitingPushesAreHeldUntilTheNextLook() {
        // Given a version waiting to be pushed
        var schedule = SyncSchedule(timings: SyncTimings(), now: at(0))
        schedule.succeeded(started: at(0), now: at(0))
        schedule.committed(at: at(1))
        // When the round is skipped (a conflict waits, or another process syncs)
        schedule.postponed(at: at(2), by: .seconds(30))
        // Then no round is due before the look 30 s later (no busy loop)
        XCTAssertFalse(schedule.isDue(at: at(31)))
        XCTAssertTrue(schedule.isDue(at: at(32)))
    }
}
