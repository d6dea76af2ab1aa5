@testable import FolioLaunch
import FolioBasics
import FolioTerminal
import Foundation
import XCTest

/// The history browser as a timeline: days and tags stand out, `/` filters by message or tag, Home/End/PgUp/PgDn
/// and `g` move through a long list (loading what they need), and a restore asks first, then shows its result.
final class HistoryTimelineTests: XCTestCase {
    let scene = LaunchScene.defaultScene
    let newYork = ClockZone(TimeZone(identifier: "America/New_York")!)
    /// 2026-12-01 in New York, a Tuesday.
    var today: Int { HistoryDay.day(year: 2026, month: 12, day: 1) }

    /// A UTC time as a date ("2026-12-01T03:30").
    func utc(_ text: String) -> Date {
        let n = text.split(whereSeparator: { "-T:".contains($0) }).map { Int($0) ?? 0 }
        return Date(timeIntervalSince1970: Double(HistoryDay.day(year: n[0], month: n[1], day: n[2]) * 86_400 + n[3] * 3600 + n[4] * 60))
    }

    /// Six versions over four New York days, newest first; the second is tagged.
    var sixVersions: [HistoryEntry] {
        [
            HistoryEntry(id: "a6" + String(repeating: "0", count: 38), message: "checked 'Tea'", author: "Ada", date: "2026-12-01 14:05", time: utc("2026-12-01T19:05")),
            HistoryEntry(id: "a5" + String(repeating: "0", count: 38), message: "added 'Tea'", author: "Ada", date: "2026-12-01 09:00", tags: ["v2"], time: utc("2026-12-01T14:00")),
            HistoryEntry(id: "a4" + String(repeating: "0", count: 38), message: "renamed 'Milk' to 'Oat milk'", author: "Ada", date: "2026-11-30 22:30", time: utc("2026-12-01T03:30")),
            HistoryEntry(id: "a3" + String(repeating: "0", count: 38), message: "added 'Green tea'", author: "Ada", date: "2026-11-28 10:00", tags: ["first-draft"], time: utc("2026-11-28T15:00")),
            HistoryEntry(id: "a2" + String(repeating: "0", count: 38), message: "added 'Milk'", author: "Ada", date: "2026-11-28 09:00", time: utc("2026-11-28T14:00")),
            HistoryEntry(id: "a1" + String(repeating: "0", count: 38), message: "Create from template checklist/groceries", author: "Ada", date: "2026-11-20 08:00", time: utc("2026-11-20T13:00")),
        ]
    }

    func browser(_ entries: [HistoryEntry], next: String? = nil, total: Int? = nil, width: Int = 160, height: Int = 45, zone: ClockZone? = nil) -> AppState {
        var history = HistoryState(viewWidth: width, viewHeight: height)
        history.timeline.timeZone = zone ?? newYork
        history.timeline.today = today
        _ = history.arrived(HistoryPage(entries: entries, next: next, total: total ?? entries.count))
        var state = AppState.showing(history, of: EditorState(path: "list", title: "Groceries", contentType: "org.folio.checklist"))
        state.columns = width
        state.rows = height
        return state
    }

    func press(_ keys: [Key], _ state: AppState) -> (AppState, [AppEffect]) { state.pressing(keys, scene: scene) }

    func type(_ text: String) -> [Key] { text.map(Key.character) }

    func text(_ state: AppState) -> String {
        let h = history(state)
        var grid = Screens.history(h, title: "Groceries", width: h.viewWidth, height: h.viewHeight)
        Screens.decorate(&grid, state: state, scene: scene)
        return grid.plainText()
    }

    func selectedMessage(_ state: AppState) -> String? {
        let h = history(state)
        return h.selectedID.flatMap { id in h.entries.first { $0.id == id }?.message }
    }

    // MARK: Days

    func testGivenVersionsOverFourDaysInNewYorkWhenTheListIsDrawnThenEachLocalDayHasItsHeadingAndEachVersionItsLocalTime() {
        // Given six versions, one made at 03:30 UTC on 1 December (22:30 on 30 November in New York)
        let state = browser(sixVersions)
        let h = history(state)
        // When the list's rows are laid out
        let rows = h.rows(from: 0, room: 20, visible: h.visible)
        // Then a heading starts each New York day, the 03:30 UTC version under yesterday's
        let yesterday = today - 1, saturday = HistoryDay.day(year: 2026, month: 11, day: 28), friday = HistoryDay.day(year: 2026, month: 11, day: 20)
        XCTAssertEqual(rows, [.day(today), .entry(0), .entry(1), .day(yesterday), .entry(2), .day(saturday), .entry(3), .entry(4), .day(friday), .entry(5)])
        // And the screen names them Today, Yesterday and the date, with the local time on each row
        let screen = text(state)
        for heading in ["── Today ──", "── Yesterday ──", "── Sat 28 Nov 2026 ──", "── Fri 20 Nov 2026 ──"] {
            XCTAssertTrue(screen.contains(heading), "\(heading) missing:\n\(screen)")
        }
        XCTAssertTrue(screen.contains("renamed 'Milk' to 'Oat milk'") && screen.contains("22:30"), screen)
        XCTAssertTrue(screen.contains("⚑ v2 added 'Tea'"), "the tag is set off before the message:\n\(screen)")
    }

    func testGivenTheSameVersionsInUTCWhenTheListIsLaidOutThenTheLateVersionIsToday() {
        // Given the same versions, counted in UTC
        let h = history(browser(sixVersions, zone: .utc))
        // Then 03:30 UTC on 1 December is today, and there is no Yesterday
        XCTAssertEqual(h.rows(from: 0, room: 6, visible: h.visible), [.day(today), .entry(0), .entry(1), .entry(2), .day(today - 3), .entry(3)])
        XCTAssertEqual(HistoryDay.clock(of: h.entries[2].time!, in: h.timeline.timeZone), "03:30")
    }

    func testGivenAListScrolledIntoADayWhenDrawnThenTheTopVersionsDayIsStillShownFirst() {
        // Given the list scrolled so that its top is the second version of Saturday
        let h = history(browser(sixVersions))
        let rows = h.rows(from: 4, room: 10, visible: h.visible)
        // Then the first row is Saturday's heading, not the version alone
        XCTAssertEqual(rows.first, .day(HistoryDay.day(year: 2026, month: 11, day: 28)))
        XCTAssertEqual(rows.dropFirst().first, .entry(4))
    }

    func testDayLabelsAndCalendarArithmeticAgreeWithTheGregorianCalendar() {
        XCTAssertEqual(HistoryDay.label(HistoryDay.day(year: 2026, month: 11, day: 30)), "Mon 30 Nov 2026")
        XCTAssertEqual(HistoryDay.label(0), "Thu 1 Jan 1970")
        XCTAssertEqual(HistoryDay.label(HistoryDay.day(year: 2024, month: 2, day: 29)), "Thu 29 Feb 2024")
        XCTAssertEqual(HistoryDay.label(HistoryDay.day(year: 1969, month: 12, day: 31)), "Wed 31 Dec 1969")
        for day in stride(from: -800_000, through: 800_000, by: 997) {
            let (y, m, d) = HistoryDay.civil(day)
            XCTAssertEqual(HistoryDay.day(year: y, month: m, day: d), day)
        }
        XCTAssertEqual(HistoryDay.heading(today, today: today), "Today")
        XCTAssertEqual(HistoryDay.heading(today - 1, today: today), "Yesterday")
        XCTAssertEqual(HistoryDay.heading(today - 2, today: today), "Sun 29 Nov 2026")
    }

    // MARK: Filter

    func testGivenSixVersionsWhenTeaIsTypedAfterSlashThenTheListNarrowsAsItIsTypedWithTheCountInTheFilterLine() {
        // Given the timeline
        let start = browser(sixVersions)
        // When "/" opens the filter and "tea" is typed
        let (typed, effects) = press([.character("/")] + type("tea"), start)
        let h = history(typed)
        // Then the versions whose message holds "tea" (any case) are left, the newest selected, its diff asked for
        XCTAssertEqual(h.visible, [0, 1, 3])
        XCTAssertEqual(h.selection, 0)
        XCTAssertTrue(effects.isEmpty || effects.allSatisfy { if case .loadDiff = $0 { true } else { false } }, "\(effects)")
        // And the filter line shows it with the count
        let screen = text(typed)
        XCTAssertTrue(screen.contains(" / tea"), screen)
        XCTAssertTrue(screen.contains("3 of 6 versions"), screen)
        XCTAssertFalse(screen.contains("added 'Milk'"), screen)
        // And "?" types into the field rather than opening help
        XCTAssertEqual(history(press([.character("?")], typed).0).timeline.filterField?.text, "tea?")
    }

    func testGivenAFilterWhenItNamesATagOrTagColonThenTaggedVersionsAreKept() {
        let start = browser(sixVersions)
        XCTAssertEqual(history(press([.character("/")] + type("draft"), start).0).visible, [3], "a tag's words match")
        XCTAssertEqual(history(press([.character("/")] + type("tag:"), start).0).visible, [1, 3], "tag: alone keeps the named versions")
        XCTAssertEqual(history(press([.character("/")] + type("tag:v2"), start).0).visible, [1])
        XCTAssertEqual(history(press([.character("/")] + type("ADDED tea"), start).0).visible, [1, 3], "every word, any case")
        XCTAssertEqual(history(press([.character("/")] + type("tag:tea"), start).0).visible, [], "tag: looks in tags only")
        let none = text(press([.character("/")] + type("zebra"), start).0)
        XCTAssertTrue(none.contains("No version matches “zebra”"), none)
        XCTAssertTrue(none.contains("0 of 6 versions"), none)
    }

    func testGivenItemColonAKeyWhenEnterIsPressedThenTheListBecomesThatItemsHistory() {
        // Given "item:2" typed after "/": it hides nothing while typed (it is not a word of a message)
        let typed = press([.character("/")] + type("item:2"), browser(sixVersions)).0
        XCTAssertEqual(history(typed).visible.count, 6)
        // When ⏎ keeps it
        let (kept, effects) = press([.enter], typed)
        // Then the browser asks for item 2's history and shows itself as that item's
        XCTAssertEqual(history(kept).item?.key, "2")
        XCTAssertTrue(effects.contains { if case .openItemHistory(item: "2", at: nil) = $0 { true } else { false } }, "\(effects)")
        XCTAssertTrue(text(kept).contains("History of item 2"), text(kept))
        // And a key that is not an item's number is a plain word
        XCTAssertNil(HistoryFilter("item:x").item)
        XCTAssertEqual(HistoryFilter("milk item:1.2").item, "1.2")
    }

    func testGivenAFilterTypedWhenEnterKeepsItAndEscClearsItThenTheListFollows() {
        // Given "tea" typed
        let typed = press([.character("/")] + type("tea"), browser(sixVersions)).0
        // When ⏎ keeps it: the field closes, the filter stays and the movement keys walk the matches
        let kept = press([.enter], typed).0
        XCTAssertNil(history(kept).timeline.filterField)
        XCTAssertEqual(history(press([.down, .down], kept).0).selection, 3)
        XCTAssertTrue(text(kept).contains(" / tea"), "a kept filter still shows in its line")
        // When Esc is pressed with the filter kept, the filter goes (the browser stays open)
        let cleared = press([.escape], kept).0
        XCTAssertEqual(history(cleared).visible.count, 6)
        XCTAssertFalse(text(cleared).contains(" / tea"))
        // And Esc while typing clears it at once
        XCTAssertEqual(history(press([.escape], typed).0).visible.count, 6)
        XCTAssertNil(history(press([.escape], typed).0).timeline.filterField)
    }

    func testGivenALongHistoryPartlyLoadedWhenAFilterIsTypedThenTheRestLoadsInBigPagesAndTheCountSaysHowFarItSearched() {
        // Given the first 50 of 10,000 versions loaded
        let entries = (0..<50).map { HistoryEntry(id: String(format: "%040d", $0), message: $0 % 10 == 0 ? "named \($0)" : "change \($0)") }
        let start = browser(entries, next: "cursor-50", total: 10_000)
        // When a filter is typed
        let (typed, effects) = press([.character("/")] + type("named"), start)
        // Then the next page is asked for once, in a big page, and the line says how far the search got
        XCTAssertEqual(effects.filter { if case .loadHistoryPage = $0 { true } else { false } }, [.loadHistoryPage(after: "cursor-50", limit: HistoryState.searchPage)])
        XCTAssertTrue(text(typed).contains("5 of 10000 versions · searched 50…"), text(typed))
        // When the page arrives, the next is asked for at once (until the history is read)
        var state = typed
        var more: [AppEffect] = []
        state.updateHistory { more = $0.arrived(HistoryPage(entries: (50..<2050).map { HistoryEntry(id: String(format: "%040d", $0), message: "change \($0)") },
                                                            next: "cursor-2050", total: 10_000)) }
        XCTAssertEqual(more, [.loadHistoryPage(after: "cursor-2050", limit: HistoryState.searchPage)])
        state.updateHistory { more = $0.arrived(HistoryPage(entries: [HistoryEntry(id: String(format: "%040d", 2050), message: "named last")], next: nil, total: 10_000)) }
        XCTAssertEqual(more, [])
        XCTAssertEqual(history(state).visible.count, 6)
    }

    // MARK: Paging keys

    func hundredVersions(next: String? = "cursor-100") -> AppState {
        let base = utc("2026-12-01T18:00").timeIntervalSince1970
        // A version every 6 hours: four a day, so each day has a heading.
        let entries = (0..<100).map { HistoryEntry(id: String(format: "%040d", $0), message: "change \(100 - $0)", time: Date(timeIntervalSince1970: base - Double($0) * 21_600)) }
        return browser(entries, next: next, total: next == nil ? 100 : 1000, width: 60, height: 16)
    }

    func testGivenAHundredVersionsWhenPageDownAndPageUpArePressedThenTheSelectionAndTheListMoveAPageAtATime() {
        // Given a hundred versions at 60×16 (a list of 13 rows: 2-3 headings and about ten versions)
        let start = hundredVersions()
        let firstScreen = history(start).rows(from: 0, room: history(start).listRoom, visible: history(start).visible)
        let shown = firstScreen.filter { if case .entry = $0 { true } else { false } }.count
        XCTAssertGreaterThan(shown, 6)
        // When PgDn is pressed
        let (down, effects) = press([.pageDown], start)
        // Then the selection moves down a page (what was shown less one) and the list scrolls with it
        XCTAssertEqual(history(down).selection, shown - 1)
        XCTAssertEqual(history(down).timeline.top, shown - 1)
        XCTAssertEqual(effects, [.loadDiff(commitID: String(format: "%040d", shown - 1))])
        let screen = text(down)
        XCTAssertTrue(screen.contains("change \(100 - (shown - 1))"), screen)
        XCTAssertFalse(screen.contains("change 100 "), "the first version scrolled off:\n\(screen)")
        // And PgUp comes back to the top
        let up = press([.pageDown, .pageUp], start).0
        XCTAssertEqual(history(up).selection, 0)
        XCTAssertEqual(history(up).timeline.top, 0)
        // And ↓ past the bottom row scrolls by one version, keeping the selection on screen
        let stepped = press(Array(repeating: .down, count: shown + 2), start).0
        XCTAssertTrue(text(stepped).contains("change \(100 - (shown + 2))"), text(stepped))
    }

    func testGivenAPartlyLoadedHistoryWhenEndIsPressedThenTheRestIsLoadedAndTheOldestVersionIsSelected() {
        // Given 100 of 1,000 versions loaded
        let start = hundredVersions()
        // When End is pressed
        let (ending, effects) = press([.end], start)
        // Then the rest is asked for in a big page, the selection stays until it arrives
        XCTAssertEqual(effects, [.loadHistoryPage(after: "cursor-100", limit: HistoryState.searchPage)])
        XCTAssertEqual(history(ending).timeline.goal, .end)
        XCTAssertEqual(history(ending).selection, 0)
        // When the last page arrives
        var state = ending
        var more: [AppEffect] = []
        let older = (100..<1000).map { HistoryEntry(id: String(format: "%040d", $0), message: "change \(1000 - $0)", time: Date(timeIntervalSince1970: 1_700_000_000 - Double($0) * 60)) }
        state.updateHistory { more = $0.arrived(HistoryPage(entries: older, next: nil, total: 1000)) }
        // Then the oldest is selected, on the list's last row, and its diff asked for
        XCTAssertEqual(history(state).selection, 999)
        XCTAssertEqual(more, [.loadDiff(commitID: String(format: "%040d", 999))])
        let screen = text(state)
        let listRows = screen.split(separator: "\n").dropFirst().dropLast()
        XCTAssertTrue(listRows.dropLast().last?.contains("change 1") ?? false, screen)
        XCTAssertTrue(listRows.last?.contains("— first commit —") ?? false, screen)
        // And Home goes back to the newest
        XCTAssertEqual(history(press([.home], state).0).selection, 0)
        XCTAssertEqual(history(press([.home], state).0).timeline.top, 0)
    }

    func testGivenAFullyLoadedHistoryWhenEndIsPressedThenTheOldestIsSelectedAtOnce() {
        let (ended, effects) = press([.end], hundredVersions(next: nil))
        XCTAssertEqual(history(ended).selection, 99)
        XCTAssertEqual(effects, [.loadDiff(commitID: String(format: "%040d", 99))])
        XCTAssertNil(history(ended).timeline.goal)
    }

    // MARK: Jump to a date

    func testTheJumpFieldReadsDatesRelativeDatesAndVersionNumbers() throws {
        let march31 = HistoryDay.day(year: 2025, month: 3, day: 31)
        XCTAssertEqual(try HistoryJump.parse("2026-11-30", today: today), .day(today - 1))
        XCTAssertEqual(try HistoryJump.parse(" Yesterday ", today: today), .day(today - 1))
        XCTAssertEqual(try HistoryJump.parse("today", today: today), .day(today))
        XCTAssertEqual(try HistoryJump.parse("3 days ago", today: today), .day(today - 3))
        XCTAssertEqual(try HistoryJump.parse("1 day ago", today: today), .day(today - 1))
        XCTAssertEqual(try HistoryJump.parse("2 weeks ago", today: today), .day(today - 14))
        XCTAssertEqual(try HistoryJump.parse("1 month ago", today: march31), .day(HistoryDay.day(year: 2025, month: 2, day: 28)), "the month's last day")
        XCTAssertEqual(try HistoryJump.parse("13 months ago", today: march31), .day(HistoryDay.day(year: 2024, month: 2, day: 29)))
        XCTAssertEqual(try HistoryJump.parse("1 year ago", today: today), .day(HistoryDay.day(year: 2025, month: 12, day: 1)))
        XCTAssertEqual(try HistoryJump.parse("@5", today: today), .version(5))
        for refused in ["2026-02-30", "2026-13-01", "2026-1-01", "tomorrow", "", "@0", "@x", "three days ago", "9999999999999999999999 days ago", "١٢٣٤-٠١-٠١"] {
            XCTAssertThrowsError(try HistoryJump.parse(refused, today: today), refused) { error in
                XCTAssertTrue("\(error)".hasPrefix("can't read “\(refused)”"), "\(error)")
            }
        }
    }

    func testGivenTheTimelineWhenGJumpsToADateThenTheLastVersionOfThatDayOrTheOneBeforeItIsSelected() {
        let start = browser(sixVersions)
        // When g, "2026-11-28", ⏎: the newest version made that Saturday (New York time)
        let (saturday, effects) = press([.character("g")] + type("2026-11-28") + [.enter], start)
        XCTAssertEqual(selectedMessage(saturday), "added 'Green tea'")
        XCTAssertEqual(effects.last, .loadDiff(commitID: "a3" + String(repeating: "0", count: 38)))
        XCTAssertNil(history(saturday).timeline.jumpField, "the field closes")
        XCTAssertTrue(text(saturday).contains("Sat 28 Nov 2026: the last version that day"), text(saturday))
        // When the day has no version: the one before it, and the status line says so
        let sunday = press([.character("g")] + type("2026-11-29") + [.enter], start).0
        XCTAssertEqual(selectedMessage(sunday), "added 'Green tea'")
        XCTAssertTrue(text(sunday).contains("No version on Sun 29 Nov 2026; the one before it, Sat 28 Nov 2026"), text(sunday))
        // When "yesterday": New York's yesterday, 22:30
        XCTAssertEqual(selectedMessage(press([.character("g")] + type("yesterday") + [.enter], start).0), "renamed 'Milk' to 'Oat milk'")
        // When before the first version: the first, said so
        let before = press([.character("g")] + type("2020-01-01") + [.enter], start).0
        XCTAssertEqual(selectedMessage(before), "Create from template checklist/groceries")
        XCTAssertTrue(text(before).contains("Nothing on or before Wed 1 Jan 2020; the first version"), text(before))
        // When @2: the second version
        XCTAssertEqual(selectedMessage(press([.character("g")] + type("@2") + [.enter], start).0), "added 'Milk'")
    }

    func testGivenTheJumpFieldWhenItsTextIsNotADateThenItStaysOpenWithWhyAndEscClosesIt() {
        let (refused, _) = press([.character("g")] + type("next week") + [.enter], browser(sixVersions))
        XCTAssertEqual(history(refused).timeline.jumpField?.text, "next week")
        XCTAssertEqual(history(refused).selection, 0)
        let screen = text(refused)
        XCTAssertTrue(screen.contains("Go to: next week"), screen)
        XCTAssertTrue(screen.contains("✗ can't read “next week”"), screen)
        XCTAssertNil(history(press([.escape], refused).0).timeline.jumpField)
        XCTAssertEqual(press([.escape], refused).0.screen.isHistory, true, "Esc closes the field, not the browser")
    }

    func testGivenAPartlyLoadedHistoryWhenADateOlderThanTheLoadedVersionsIsAskedForThenPagesLoadUntilItIsFound() {
        // Given 100 versions loaded, every 6 hours back from 1 December
        let start = hundredVersions()
        // When g "2026-09-01" (older than what is loaded)
        let (jumping, effects) = press([.character("g")] + type("2026-09-01") + [.enter], start)
        XCTAssertEqual(effects, [.loadHistoryPage(after: "cursor-100", limit: HistoryState.searchPage)])
        // And the next page holds it
        var state = jumping
        var more: [AppEffect] = []
        let base = utc("2026-12-01T18:00").timeIntervalSince1970
        let older = (100..<1000).map { HistoryEntry(id: String(format: "%040d", $0), message: "change \(1000 - $0)", time: Date(timeIntervalSince1970: base - Double($0) * 21_600)) }
        state.updateHistory { more = $0.arrived(HistoryPage(entries: older, next: nil, total: 1000)) }
        // Then the newest version of 1 September (New York) is selected
        let h = history(state)
        XCTAssertEqual(h.entries[h.selection].time.map { HistoryDay.day(of: $0, in: newYork) }, HistoryDay.day(year: 2026, month: 9, day: 1))
        XCTAssertEqual(h.entries[h.selection - 1].time.map { HistoryDay.day(of: $0, in: newYork) }, HistoryDay.day(year: 2026, month: 9, day: 2))
        XCTAssertEqual(more, [.loadDiff(commitID: h.entries[h.selection].id)])
        XCTAssertTrue(text(state).contains("── Tue 1 Sep 2026 ──"), text(state))
    }

    // MARK: Restore

    func testGivenAnOldVersionWhenRIsPressedThenAConfirmationLineAsksAndOnlyRAgainRestores() {
        // Given the fourth-newest version selected (@3 of 6)
        let start = press([.down, .down, .down], browser(sixVersions)).0
        // When r is pressed: nothing is restored yet, a line asks
        let (asking, effects) = press([.character("r")], start)
        XCTAssertEqual(effects, [])
        XCTAssertTrue(text(asking).contains("r again restores @3 “added 'Green tea'” as a new version (u undoes it) · any other key cancels"), text(asking))
        // When any other key: nothing restored (the key does its own job)
        let (cancelled, other) = press([.up], asking)
        XCTAssertEqual(other, [.loadDiff(commitID: "a4" + String(repeating: "0", count: 38))])
        XCTAssertNil(cancelled.confirming)
        // When r again: the restore runs, remembered for the reload
        let (confirmed, restore) = press([.character("r")], asking)
        XCTAssertEqual(restore, [.restore(commitID: "a3" + String(repeating: "0", count: 38))])
        XCTAssertEqual(history(confirmed).timeline.change, .restore(commitID: "a3" + String(repeating: "0", count: 38), label: "@3"))
    }

    func testGivenTheNewestVersionWhenRIsPressedThenItSaysThereIsNothingToRestore() {
        let (state, effects) = press([.character("r")], browser(sixVersions))
        XCTAssertEqual(effects, [])
        XCTAssertNil(state.confirming)
        XCTAssertTrue(text(state).contains("@6 is the current version: nothing to restore"), text(state))
    }

    func testGivenARestoreThatSucceededWhenTheListIsReadAgainThenItsResultIsSelectedWithAStatusLineAndUUndoesIt() {
        // Given @3 restored (the run loop reloads the list after the restore succeeds)
        let restoring = press([.down, .down, .down, .character("r"), .character("r")], browser(sixVersions)).0
        var state = restoring
        XCTAssertNotNil(state.call, "the restore runs as a document call")
        state.call = nil  // it finished
        state.screen = .history(history(restoring).reloaded(), EditorState(path: "list", title: "Groceries", contentType: "org.folio.checklist"))
        var effects: [AppEffect] = []
        let restoreCommit = HistoryEntry(id: "b7" + String(repeating: "0", count: 38), message: "Restore to a300000: added 'Green tea'", time: utc("2026-12-01T20:00"))
        state.updateHistory { effects = $0.arrived(HistoryPage(entries: [restoreCommit] + sixVersions, next: nil, total: 7)) }
        // Then the restore's version is selected at the top, its diff asked for, and the status line says what happened
        XCTAssertEqual(history(state).selection, 0)
        XCTAssertEqual(effects, [.loadDiff(commitID: restoreCommit.id)])
        XCTAssertTrue(text(state).contains("Restored @3 as @7 — u to undo"), text(state))
        XCTAssertEqual(history(state).viewWidth, 160, "the reloaded list keeps the terminal's size")
        // When u is pressed: one undo, and after the reload the status line says what was undone
        let (undoing, undo) = press([.character("u")], state)
        XCTAssertEqual(undo, [.runEditorCommand("folio.undo")])
        XCTAssertFalse(text(undoing).contains("Restored @3"), "the status line goes with the next key")
        var undone = undoing
        undone.call = nil
        undone.screen = .history(history(undoing).reloaded(), EditorState(path: "list", title: "Groceries", contentType: "org.folio.checklist"))
        let undoCommit = HistoryEntry(id: "c8" + String(repeating: "0", count: 38), message: "Undo: Restore to a300000: added 'Green tea'", time: utc("2026-12-01T20:01"))
        undone.updateHistory { _ = $0.arrived(HistoryPage(entries: [undoCommit, restoreCommit] + sixVersions, next: nil, total: 8)) }
        XCTAssertTrue(text(undone).contains("Undone: “Restore to a300000: added 'Green tea'”, as @8 — ^Y to redo"), text(undone))
        XCTAssertTrue(HistoryState.reloadsAfter(.runEditorCommand("folio.undo")))
        XCTAssertTrue(HistoryState.reloadsAfter(.restore(commitID: "x")))
        XCTAssertFalse(HistoryState.reloadsAfter(.tag(commitID: "x", name: "v")))
    }
}

extension AppState.Screen {
    var isHistory: Bool { if case .history = self { true } else { false } }
}

/// The timeline as a user sees it at 60×16, 100×30 and 160×45 (each golden inspected by eye before it was committed).
final class HistoryTimelineGoldenTests: XCTestCase {
    let scene = LaunchScene.defaultScene
    let sizes = [(60, 16), (100, 30), (160, 45)]
    let editor = EditorState(path: "list", title: "Groceries", contentType: "org.folio.checklist")

    /// Forty versions of a grocery list, two or three a day back from Tuesday 1 December 2026 (New York), three named.
    var versions: [HistoryEntry] {
        let items = ["Tea", "Oat milk", "Saffron", "Bread", "Lemons", "Green tea", "Rice", "Coffee", "Honey", "Butter"]
        let today = HistoryDay.day(year: 2026, month: 12, day: 1)
        return (0..<40).map { index in
            let day = today - index * 2 / 5
            let seconds = day * 86_400 + (20 - (index * 2 % 5) * 3) * 3600 + 5 * 60 + 5 * 3600  // local evening, UTC-5
            let item = items[index % items.count]
            let message = index % 3 == 0 ? "checked '\(item)'" : index % 3 == 1 ? "added '\(item)'" : "renamed '\(item)' to '\(item.lowercased()) (organic)'"
            let tags = index == 3 ? ["v2"] : index == 17 ? ["shared-with-sam"] : index == 39 ? ["v1"] : []
            let id = String(format: "%02x", index) + String(repeating: "e", count: 38)
            let time = Date(timeIntervalSince1970: Double(seconds))
            let (y, m, d) = HistoryDay.civil(day)
            let date = "\(y)-\(m)-" + (d < 10 ? "0" : "") + "\(d) " + HistoryDay.clock(of: time, in: ClockZone(TimeZone(identifier: "America/New_York")!))
            return HistoryEntry(id: id, message: index == 39 ? "Create from template checklist/groceries" : message, author: "Ada",
                                date: date, tags: tags, time: time)
        }
    }

    func browser(width: Int, height: Int, total: Int = 40, next: String? = nil) -> AppState {
        var history = HistoryState(viewWidth: width, viewHeight: height)
        history.timeline.timeZone = ClockZone(TimeZone(identifier: "America/New_York")!)
        history.timeline.today = HistoryDay.day(year: 2026, month: 12, day: 1)
        _ = history.arrived(HistoryPage(entries: versions, next: next, total: total))
        var state = AppState.showing(history, of: editor)
        state.columns = width
        state.rows = height
        return state
    }

    func press(_ keys: [Key], _ state: AppState) -> AppState { keys.reduce(state) { $0.handling($1, scene: scene).0 } }

    func withDiff(_ state: AppState) -> AppState {
        var state = state
        state.updateHistory { history in
            guard let id = history.selectedID else { return }
            _ = history.want(.commit(id))
            history.receive(HistoryDiff(lines: ["renamed 'Bread' to 'bread (organic)'"], kind: .semantic), for: .commit(id))
        }
        return state
    }

    func frame(_ state: AppState, _ width: Int, _ height: Int) -> String {
        guard case let .history(history, _) = state.screen else { return "" }
        var grid = Screens.history(history, title: "Groceries", width: width, height: height)
        Screens.decorate(&grid, state: state, scene: scene)
        return grid.plainText()
    }

    func testGoldenTimelineScrolledFilteredAskingAndRestoredAtThreeSizes() {
        for (w, h) in sizes {
            // Scrolled a page down: the top version's day heads the list, tags set off, times local
            assertGolden(frame(withDiff(press([.pageDown], browser(width: w, height: h))), w, h), "sizes/history-timeline-\(w)x\(h)")
            // "/ tea" typed on a history of 340 versions, 40 loaded: the count and how far the search got
            assertGolden(frame(withDiff(press([.character("/")] + "tea".map(Key.character), browser(width: w, height: h, total: 340, next: "more"))), w, h),
                         "sizes/history-filter-\(w)x\(h)")
            // r on @37: the confirmation line
            assertGolden(frame(withDiff(press([.down, .down, .down, .character("r")], browser(width: w, height: h))), w, h), "sizes/history-restore-asks-\(w)x\(h)")
            // The list read again after the restore: its result selected at the top, the status line
            var restored = press([.down, .down, .down, .character("r"), .character("r")], browser(width: w, height: h))
            restored.call = nil
            restored.updateHistory { history in
                history = history.reloaded()
                let commit = HistoryEntry(id: "f" + String(repeating: "0", count: 39), message: "Restore to 03eeeee: checked 'Bread'", author: "Ada",
                                          time: Date(timeIntervalSince1970: Double(HistoryDay.day(year: 2026, month: 12, day: 1) * 86_400 + 23 * 3600 + 50 * 60 + 5 * 3600)))
                _ = history.arrived(HistoryPage(entries: [commit] + versions, next: nil, total: 41))
            }
            assertGolden(frame(withDiff(restored), w, h), "sizes/history-restored-\(w)x\(h)")
            // g with text that is not a date: the field stays open with why
            assertGolden(frame(press([.character("g")] + "next week".map(Key.character) + [.enter], withDiff(browser(width: w, height: h))), w, h),
                         "sizes/history-jump-refused-\(w)x\(h)")
        }
    }
}

extension ClockZone {
    /// A test's fixed zone, with Foundation's time-zone rules (the test process has ICU; `folio` does not need it).
    init(_ zone: TimeZone) { self.init(name: zone.identifier) { zone.secondsFromGMT(for: $0) } }
}
