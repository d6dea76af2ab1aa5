import FolioCLITestSupport
import FolioTestSupport
import Foundation
import XCTest

/// Issue 32's second reproduction through `folio`: after `b` keeps a conflict (the same item renamed two ways), one
/// more change on each side and `folio sync b` must neither merge nor push, and must say why and what to do; settling
/// releases it, and `folio status b` reports no stale conflict afterwards.
final class HeldBackSyncCLITests: SharedGroceriesTestCase {
    func testGivenBKeepsAConflictAndEachSideChangesOnceMoreWhenBSyncsThenNothingIsMergedOrPushedUntilItIsSettled() throws {
        // Given a and b renamed Tomatoes (8) differently, b keeping the conflict
        try twoClones()
        folio("edit", "a", "rename", "8", "Plum tomatoes")
        folio("sync", "a")
        folio("edit", "b", "rename", "8", "Cherry tomatoes")
        folio("sync", "b", expect: 1)
        let kept = try keptConflicts()
        XCTAssertEqual(kept.count, 1)
        let ref = try XCTUnwrap(kept.first)
        // And one more change on each side
        folio("edit", "a", "add", "A-extra")
        folio("sync", "a")
        folio("edit", "b", "add", "B-extra")
        let bHead = try head("b"), remoteTip = try tip()
        // When b syncs
        let synced = folio("sync", "b", expect: 1)
        // Then it says it is held back by the kept conflict, and how to settle it
        XCTAssertTrue(synced.stderr.contains("held back: a kept conflict waits to be settled"), synced.stderr)
        let short = String(ref.dropFirst("refs/folio/conflicts/".count)), b = dir.path("b").path
        XCTAssertTrue(synced.stderr.contains("'folio conflicts \(b) show \(short)'"), synced.stderr)
        XCTAssertTrue(synced.stderr.contains("'folio conflicts \(b) settle \(short) --all mine|theirs'"), synced.stderr)
        // And nothing was merged into b, nor pushed
        XCTAssertEqual(try head("b"), bHead)
        XCTAssertEqual(try tip(), remoteTip)
        let view = folio("view", "b").stdout
        XCTAssertFalse(view.contains("A-extra") || view.contains("Plum tomatoes"), view)
        // And `folio pull b` is held back the same way
        XCTAssertTrue(folio("pull", "b", expect: 1).stderr.contains("held back"))
        XCTAssertEqual(try head("b"), bHead)
        // And the status says why and what to do, in text and JSON
        let status = folio("status", "b").stdout
        XCTAssertTrue(status.contains("1 kept conflict (\(short)): held back: a kept conflict waits to be settled"), status)
        XCTAssertTrue(status.contains("'folio conflicts \(b) settle \(short)"), status)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(folio("status", "b", "--json").stdout.utf8)) as? [String: Any])
        XCTAssertTrue((json["heldBack"] as? String)?.hasPrefix("held back:") == true, "\(json)")
        XCTAssertTrue((json["settle"] as? String)?.contains("folio conflicts \(b) settle \(short)") == true, "\(json)")

        // When b settles the conflict keeping its own name, then syncs
        folio("conflicts", "b", "settle", short, "--all", "mine")
        folio("sync", "b")
        // Then b merged a's other change and pushed, with Cherry tomatoes once
        let settled = folio("view", "b").stdout
        XCTAssertTrue(settled.contains("A-extra") && settled.contains("B-extra") && settled.contains("Cherry tomatoes"), settled)
        XCTAssertFalse(settled.contains("Plum tomatoes"), settled)
        XCTAssertEqual(try tip(), try head("b"))
        // And the status reports no kept conflict, stale or not
        let after = folio("status", "b").stdout
        XCTAssertFalse(after.contains("kept conflict"), after)
        XCTAssertEqual(try keptConflicts(), [])
    }

    func testGivenAKeptConflictWhoseVersionIsAlreadyInMainWhenStatusRunsThenItIsDroppedWithANoteAndNotReported() throws {
        // Given b and a kept conflict ref naming a version b already holds (as the old `folio sync b` left it)
        try twoClones()
        let stale = "refs/folio/conflicts/20240102T030405Z"
        XCTAssertEqual(try git(["update-ref", stale, try head("b")], in: dir.path("b"), environment: env).status, 0)
        folio("edit", "b", "add", "B-extra")
        // When the status is asked for
        let status = folio("status", "b").stdout
        // Then the stale conflict is dropped with a note, and not reported as kept
        XCTAssertTrue(status.contains("dropped kept conflict 20240102T030405Z: its version is already part of main"), status)
        XCTAssertFalse(status.contains("kept conflict(s)") || status.contains("1 kept conflict ("), status)
        XCTAssertEqual(try keptConflicts(), [])
        // And b syncs as usual
        folio("sync", "b")
        XCTAssertEqual(try tip(), try head("b"))
    }
}
