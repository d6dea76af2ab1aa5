import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
@testable import FolioTerminal

/// The generic document view as a pure state machine: the tree, the `/` filter, scrolling a file, and which file
/// `e` asks to edit.
final class GenericViewStateTests: XCTestCase {
    static let entries = [
        GenericFileEntry(path: "Package.swift", size: 437),
        GenericFileEntry(path: "README.md", size: 1200),
        GenericFileEntry(path: "Sources/Pkg/Pkg.swift", size: 465),
        GenericFileEntry(path: "Sources/PkgTool/main.swift", size: 146),
        GenericFileEntry(path: "Tests/PkgTests/PkgTests.swift", size: 464),
        GenericFileEntry(path: "scripts/check.sh", size: 138, kind: .executable),
        GenericFileEntry(path: "latest", size: 9, kind: .link),
    ]

    static func view(_ entries: [GenericFileEntry] = entries) -> GenericViewState {
        var view = GenericViewState(path: "/docs/pkg", title: "Pkg", contentType: "org.folio.project", reason: .noEditor(contentType: "org.folio.project"))
        view.replacingEntries(entries, commitID: "3c952f3aa", commitMessage: "Create from swift/package")
        view.viewRows = 5
        return view
    }

    /// Sends keys to an app state showing `view`; returns the last state and every effect.
    func press(_ keys: [Key], on view: GenericViewState) -> (AppState, [AppEffect]) {
        var state = AppState()
        state.screen = .generic(view)
        return state.pressing(keys)
    }

    func generic(_ state: AppState, file: StaticString = #filePath, line: UInt = #line) -> GenericViewState? {
        guard case let .generic(view) = state.screen else { XCTFail("not the generic view: \(state.screen)", file: file, line: line); return nil }
        return view
    }

    // MARK: Tree

    func testGivenNestedFilesWhenListedThenFoldersComeFirstIndentedWithTheSumOfTheirSizes() {
        let rows = Self.view().rows
        XCTAssertEqual(rows.map { String(repeating: " ", count: $0.depth * 2) + $0.name + ($0.isFolder ? "/" : "") }, [
            "scripts/", "  check.sh", "Sources/", "  Pkg/", "    Pkg.swift", "  PkgTool/", "    main.swift", "Tests/", "  PkgTests/",
            "    PkgTests.swift", "latest", "Package.swift", "README.md",
        ])
        XCTAssertEqual(rows.first { $0.path == "Sources" }?.size, 465 + 146)
        XCTAssertEqual(rows.first { $0.path == "README.md" }?.size, 1200)
    }

    func testGivenAFolderSelectedWhenEnterThenItClosesAndOpensAgainWithItsFilesBack() throws {
        var view = Self.view()
        view.selection = 2 // Sources/
        let (closed, _) = press([.enter], on: view)
        let closedView = try XCTUnwrap(generic(closed))
        XCTAssertFalse(closedView.rows.contains { $0.path == "Sources/Pkg/Pkg.swift" })
        XCTAssertEqual(closedView.rows.first { $0.path == "Sources" }?.size, 611, "a closed folder keeps its size")
        let (opened, _) = press([.enter], on: closedView)
        XCTAssertTrue(try XCTUnwrap(generic(opened)).rows.contains { $0.path == "Sources/Pkg/Pkg.swift" })
    }

    func testGivenSlashWhenTypingThenOnlyMatchingFilesAndTheirFoldersShowAndEscClearsTheFilter() throws {
        let (state, effects) = press([.character("/"), .character("m"), .character("a"), .character("i"), .character("n")], on: Self.view())
        let view = try XCTUnwrap(generic(state))
        XCTAssertTrue(view.filtering)
        XCTAssertEqual(view.rows.map(\.path), ["Sources", "Sources/PkgTool", "Sources/PkgTool/main.swift"])
        XCTAssertEqual(view.selectedRow?.path, "Sources/PkgTool/main.swift", "the first matching file is selected, ready for e")
        XCTAssertFalse(effects.contains(.generic(.edit(path: "Sources/PkgTool/main.swift"))), "letters while filtering are text, not commands")
        let (cleared, _) = press([.escape], on: view)
        let clearedView = try XCTUnwrap(generic(cleared))
        XCTAssertEqual(clearedView.filter, "")
        XCTAssertEqual(clearedView.rows.count, 13)
    }

    func testGivenAFilterKeptWithEnterWhenMovingThenTheSelectionStaysAmongMatches() throws {
        let (state, _) = press([.character("/"), .character("s"), .character("w"), .character("i"), .character("f"), .character("t"), .enter,
                                .down, .down, .down, .down, .down, .down, .down, .down], on: Self.view())
        let view = try XCTUnwrap(generic(state))
        XCTAssertFalse(view.filtering)
        XCTAssertEqual(view.filter, "swift")
        XCTAssertEqual(view.selectedRow?.path, "Package.swift", "the last match, not past it")
    }

    func testGivenTheSelectionMovesToAFileThenItsContentIsAskedForOnceAndAStaleAnswerIsIgnored() throws {
        let (state, effects) = press([.down], on: Self.view())
        XCTAssertEqual(effects, [.generic(.load(path: "scripts/check.sh"))])
        var view = try XCTUnwrap(generic(state))
        view.showing(GenericFileView(path: "README.md", data: Data("late".utf8)))
        XCTAssertNil(view.file, "an answer for a file no longer selected is dropped")
        view.showing(GenericFileView(path: "scripts/check.sh", data: Data("#!/bin/sh\n".utf8)))
        XCTAssertEqual(view.file?.lines, ["#!/bin/sh"])
    }

    func testGivenManyFilesWhenPagingDownThenTheSelectionStaysOnScreen() throws {
        let many = (1...40).map { GenericFileEntry(path: String(format: "notes/%02d.md", $0), size: $0) }
        let (state, _) = press([.pageDown, .pageDown, .down], on: Self.view(many))
        let view = try XCTUnwrap(generic(state))
        XCTAssertEqual(view.selection, 9)
        XCTAssertTrue(view.scroll <= view.selection && view.selection < view.scroll + view.viewRows)
        let (end, _) = press([.end], on: view)
        let endView = try XCTUnwrap(generic(end))
        XCTAssertEqual(endView.selectedRow?.path, "notes/40.md")
        XCTAssertEqual(endView.scroll, 41 - 5)
    }

    // MARK: File view

    func longFile() -> GenericViewState {
        var view = Self.view()
        view.selection = 12 // README.md
        let text = (1...30).map { "line \($0)" + ($0 == 3 ? String(repeating: " long", count: 40) : "") }.joined(separator: "\n")
        view.file = GenericFileView(path: "README.md", data: Data(text.utf8))
        return view
    }

    func testGivenAFileOpenWhenPagingAndScrollingThenItMovesByPagesAndLinesAndStopsAtTheEnds() throws {
        let (opened, effects) = press([.enter], on: longFile())
        XCTAssertEqual(effects, [], "the content is already there")
        XCTAssertEqual(try XCTUnwrap(generic(opened)).focus, .file)
        let (paged, _) = press([.pageDown, .character("j")], on: try XCTUnwrap(generic(opened)))
        XCTAssertEqual(try XCTUnwrap(generic(paged)).file?.scroll, 5)
        let (bottom, _) = press([.pageDown, .pageDown, .pageDown, .pageDown, .pageDown, .pageDown, .pageDown], on: try XCTUnwrap(generic(paged)))
        XCTAssertEqual(try XCTUnwrap(generic(bottom)).file?.scroll, 30 - 5, "the last page is full")
        let (top, _) = press([.pageUp, .pageUp, .pageUp, .pageUp, .pageUp, .pageUp, .pageUp, .pageUp, .character("k")], on: try XCTUnwrap(generic(bottom)))
        XCTAssertEqual(try XCTUnwrap(generic(top)).file?.scroll, 0)
    }

    func testGivenALongLineWhenScrollingSidewaysThenTheColumnMovesAndStopsBeforeTheLongestLineEnds() throws {
        let (state, _) = press([.enter, .right, .right], on: longFile())
        XCTAssertEqual(try XCTUnwrap(generic(state)).file?.column, 16)
        let (far, _) = press(Array(repeating: .right, count: 60), on: try XCTUnwrap(generic(state)))
        XCTAssertEqual(try XCTUnwrap(generic(far)).file?.column, DisplayWidth.width(of: "line 3" + String(repeating: " long", count: 40)) - 8,
                       "the last 8 columns of the longest line stay in view")
        let (back, _) = press([.left, .home], on: try XCTUnwrap(generic(far)))
        XCTAssertEqual(try XCTUnwrap(generic(back)).file?.column, 0)
    }

    func testGivenAFileOpenWhenEscThenTheTreeHasFocusAgainAndTheDocumentStaysOpen() throws {
        let (state, _) = press([.enter, .escape, .escape], on: longFile())
        let view = try XCTUnwrap(generic(state))
        XCTAssertEqual(view.focus, .tree)
        XCTAssertEqual(view.message, .note("^W closes the document · ^Q quits"))
        let (closed, _) = press([.ctrl("w")], on: view)
        XCTAssertEqual(closed.screen, .launch)
    }

    // MARK: Which file `e` edits

    func testGivenAFileSelectedWhenEThenThatFileIsEdited() {
        var view = Self.view()
        view.selection = 1 // scripts/check.sh
        XCTAssertEqual(press([.character("e")], on: view).1, [.generic(.edit(path: "scripts/check.sh"))])
    }

    func testGivenAFileOpenWhenEThenTheOpenFileIsEdited() {
        XCTAssertEqual(press([.enter, .pageDown, .character("e")], on: longFile()).1, [.generic(.edit(path: "README.md"))])
    }

    func testGivenAFolderOrALinkSelectedWhenEThenNothingIsEditedAndTheStatusSaysWhy() throws {
        var view = Self.view()
        view.selection = 2 // Sources/
        let (folder, folderEffects) = press([.character("e")], on: view)
        XCTAssertEqual(folderEffects, [])
        XCTAssertEqual(try XCTUnwrap(generic(folder)).message, .note("select a file to edit (e)"))
        view.selection = 10 // latest (a link)
        let (link, linkEffects) = press([.character("e")], on: view)
        XCTAssertEqual(linkEffects, [])
        XCTAssertEqual(try XCTUnwrap(generic(link)).message, .failure("a link cannot be edited here"))
    }

    // MARK: History and settings as everywhere else

    func testGivenTheGenericViewWhenHistoryIsOpenedAndClosedThenTheViewComesBackWithItsSelectionAndFilter() throws {
        var view = Self.view()
        view.filter = "pkg"
        view.selection = 2
        let (history, effects) = press([.ctrl("g")], on: view)
        guard case let .history(_, editor) = history.screen else { return XCTFail("history not open: \(history.screen)") }
        XCTAssertEqual(editor.path, "/docs/pkg")
        XCTAssertTrue(effects.contains(.loadHistoryPage(after: nil)))
        var back = history
        back = back.handling(.escape, scene: .defaultScene).0
        let restored = try XCTUnwrap(generic(back))
        XCTAssertEqual(restored.filter, "pkg")
        XCTAssertEqual(restored.selection, 2)
        XCTAssertNil(back.genericReturn)
    }

    func testGivenTheGenericViewWhenSettingsAreOpenedAndClosedThenTheViewComesBack() throws {
        let (settings, effects) = press([.character(",")], on: Self.view())
        guard case .settings = settings.screen else { return XCTFail("settings not open: \(settings.screen)") }
        XCTAssertEqual(effects, [.openSettings])
        let back = settings.handling(.escape, scene: .defaultScene).0
        XCTAssertNotNil(generic(back))
    }

    func testGivenTheGenericViewWhenUndoThenFolioUndoRunsAndItsFailureShowsAsAnError() {
        XCTAssertEqual(press([.ctrl("z")], on: Self.view()).1, [.runEditorCommand("folio.undo")])
        var state = AppState()
        state.screen = .generic(Self.view())
        state.showFailure("/docs/pkg: nothing to undo")
        let bottom = LaunchApp.frame(state, scene: .defaultScene, services: LaunchServices(recent: NoRecent(), templates: NoTemplates()), width: 60, height: 10)
            .plainText().split(separator: "\n").last.map(String.init)
        XCTAssertEqual(bottom?.trimmingCharacters(in: .whitespaces), "✗ /docs/pkg: nothing to undo")
    }

    func testGivenAPasteOutsideTheFilterThenItIsIgnoredWithAHintAndInsideItIsFilterText() throws {
        let paste = Key.paste(PastedText("e\nmain", truncated: false))
        let (outside, outsideEffects) = press([paste], on: Self.view())
        XCTAssertEqual(outsideEffects, [])
        XCTAssertEqual(try XCTUnwrap(generic(outside)).message, .failure("paste ignored: open a field first (/ to filter)"))
        let (inside, _) = press([.character("/"), paste], on: Self.view())
        XCTAssertEqual(try XCTUnwrap(generic(inside)).filter, "e main")
    }

    // MARK: What reaches the terminal

    func testGivenEscapeAndControlCharactersInANameOrTheTextThenTheyAreShownAsVisibleEscapesNeverSent() {
        XCTAssertEqual(GenericText.sanitize("bad\u{1B}[31mname\u{07}\u{7F}\u{9B}2J\u{2028}"), "bad\\e[31mname\\x07\\x7F\\u{9B}2J\\u{2028}")
        let view = Self.view([GenericFileEntry(path: "x\u{1B}]0;pwned\u{07}/f\u{1B}[2J.txt", size: 1)])
        XCTAssertEqual(view.rows.map(\.name), ["x\\e]0;pwned\\x07", "f\\e[2J.txt"])
        let file = GenericFileView(path: "f", data: Data("a\tb\u{1B}[31m\r\nc\rd\n".utf8))
        XCTAssertEqual(file.lines, ["a       b\\e[31m", "c\\rd"])
        let grid = Screens.generic(view, width: 60, height: 8)
        XCTAssertFalse(grid.plainText().unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    func testGivenBytesWithANulThenTheFileIsShownAsBinaryInHex() {
        let file = GenericFileView(path: "logo.png", data: Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0x1B, 0x41]))
        XCTAssertTrue(file.binary)
        XCTAssertEqual(file.lines, ["00000000  89 50 4e 47 00 1b 41" + String(repeating: " ", count: 29) + ".PNG..A"])
    }

    func testGivenSizesThenTheyReadAsPeopleWriteThem() {
        XCTAssertEqual(GenericText.size(812), "812 B")
        XCTAssertEqual(GenericText.size(4_200), "4.2 KB")
        XCTAssertEqual(GenericText.size(1_500_000), "1.5 MB")
        XCTAssertEqual(GenericText.size(999_999), "1.0 MB")
    }

    func testGivenAnEditorCommandWithArgumentsThenItRunsThroughTheShellAsGitRunsIt() {
        XCTAssertEqual(ExternalEditor(environment: ["EDITOR": "code -w"]).arguments(file: "/d/a b.txt"),
                       ["/bin/sh", "-c", "code -w \"$@\"", "code -w", "/d/a b.txt"])
        XCTAssertEqual(ExternalEditor(environment: ["VISUAL": "nano", "EDITOR": "ed"]).arguments(file: "/d/f"), ["nano", "/d/f"])
        XCTAssertEqual(ExternalEditor(environment: ["VISUAL": "nano", "EDITOR": "ed", "TERM": "dumb"]).command, "ed")
        XCTAssertEqual(ExternalEditor(environment: ["EDITOR": "  "]).command, "vi")
    }
}
