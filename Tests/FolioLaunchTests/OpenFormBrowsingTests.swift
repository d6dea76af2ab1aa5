import XCTest
import FolioCore
@testable import FolioLaunch
@testable import FolioTerminal

/// A folder tree in memory, as `FolderBrowsing` sees it: path → listing.
struct FakeFolders: FolderBrowsing {
    var tree: [String: FolderListing]
    func listing(of path: String) -> FolderListing { tree[path] ?? FolderListing(kind: nil) }
}

/// The Open… form (issue 23): Tab completes the path, ⏎ on a folder of documents lists them.
final class OpenFormBrowsingTests: XCTestCase {
    let scene = LaunchScene.defaultScene
    static let folders = FakeFolders(tree: [
        "": FolderListing(kind: .folder, entries: [.init(name: "notes", kind: .folder), .init(name: "novel", kind: .document),
                                                    .init(name: "readme.txt", kind: .file), .init(name: ".hidden", kind: .folder)]),
        "notes/": FolderListing(kind: .folder, entries: [.init(name: "groceries", kind: .document), .init(name: "garden", kind: .document),
                                                          .init(name: "gardening-tips", kind: .document), .init(name: "old", kind: .folder),
                                                          .init(name: "todo.txt", kind: .file)]),
        "notes": FolderListing(kind: .folder, entries: [.init(name: "groceries", kind: .document), .init(name: "garden", kind: .document),
                                                         .init(name: "gardening-tips", kind: .document), .init(name: "old", kind: .folder),
                                                         .init(name: "todo.txt", kind: .file)]),
        "notes/garden": FolderListing(kind: .document),
        "notes/old/": FolderListing(kind: .folder, entries: []),
        "notes/old": FolderListing(kind: .folder, entries: []),
    ])

    func openForm(_ width: Int = 100, _ height: Int = 30) -> AppState {
        var state = AppState()
        state.columns = width; state.rows = height
        return press([.character("o")], state).0
    }

    /// Presses keys as the run loop does: a `.browse` effect (Tab), and the Open… form's `.open` (⏎), are answered at
    /// once from `folders`.
    func press(_ keys: [Key], _ start: AppState) -> (AppState, [AppEffect]) {
        var state = start
        var left: [AppEffect] = []
        for key in keys {
            let submitted = AppState.submittedForm(state.screen)
            let (next, effects) = state.handling(key, scene: scene)
            state = next
            for effect in effects {
                switch effect {
                case let .browse(request): _ = state.browsed(request, listing: Self.folders.listing(of: request.listed))
                case let .open(path) where AppState.isOpenForm(submitted):
                    let request = BrowseRequest(text: path, intent: .open)
                    if let open = state.browsed(request, listing: Self.folders.listing(of: path), in: submitted) { left.append(open) }
                default: left.append(effect)
                }
            }
        }
        return (state, left)
    }
    func typing(_ text: String) -> [Key] { text.map(Key.character) }
    func field(_ state: AppState) -> String? { if case let .form(form) = state.screen { return form.fields.first?.value } else { return nil } }
    func browser(_ state: AppState) -> PathBrowser? { if case let .form(form) = state.screen { return form.browser } else { return nil } }
    func frame(_ state: AppState) -> String {
        guard case let .form(form) = state.screen else { return "" }
        return Screens.form(form, width: state.columns, height: state.rows).plainText()
    }

    func testTabCompletesAUniqueName() {
        // Given the Open… form with "no" typed
        // When Tab is pressed with "not" typed
        let (state, _) = press(typing("not") + [.tab], openForm())
        // Then the folder's name is completed, with a slash to go on
        XCTAssertEqual(field(state), "notes/")
    }

    func testTabCompletesTheCommonPartThenListsAndCycles() {
        // Given "notes/g" typed
        let start = press(typing("notes/g"), openForm()).0
        // When Tab is pressed: the names share "g" only
        let listed = press([.tab], start).0
        // Then the three names are listed, the text as typed
        XCTAssertEqual(field(listed), "notes/g")
        XCTAssertEqual(browser(listed)?.entries.map(\.name), ["groceries", "garden", "gardening-tips"])
        XCTAssertTrue(frame(listed).contains("garden"), frame(listed))
        // When Tab is pressed again, and again
        XCTAssertEqual(field(press([.tab], listed).0), "notes/groceries")
        XCTAssertEqual(field(press([.tab, .tab], listed).0), "notes/garden")
        // And "notes/gard" completes to the common "notes/garden"
        XCTAssertEqual(field(press(typing("notes/gard") + [.tab], openForm()).0), "notes/garden")
    }

    func testEnterOnAFolderOfDocumentsListsThemAndEnterOpensTheChosenOne() {
        // Given "notes" typed in the Open… form
        // When ⏎ is pressed
        let (listed, none) = press(typing("notes") + [.enter], openForm())
        // Then nothing is opened, and the documents in it are listed (not the folder or the file)
        XCTAssertEqual(none, [])
        XCTAssertEqual(browser(listed)?.entries.map(\.name), ["groceries", "garden", "gardening-tips"])
        XCTAssertTrue(frame(listed).contains("Documents in notes/"), frame(listed))
        // When ↓ then ⏎
        let (_, opened) = press([.down, .enter], listed)
        // Then the second document opens
        XCTAssertEqual(opened, [.open(path: "notes/garden")])
    }

    func testEnterOnAFolderWithoutDocumentsSaysSo() {
        let (state, effects) = press(typing("notes/old") + [.enter], openForm())
        XCTAssertEqual(effects, [])
        XCTAssertEqual(browser(state)?.note, "notes/old holds no Folio document (Tab lists what it holds)")
    }

    func testEnterOnADocumentOpensIt() {
        XCTAssertEqual(press(typing("notes/garden") + [.enter], openForm()).1, [.open(path: "notes/garden")])
    }

    func testLocalFoldersTellsDocumentsFromFolders() throws {
        // Given a folder with a document (.git and .folio/document.json), a plain folder and a file
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("open-browse-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let fm = FileManager.default
        try fm.createDirectory(at: root.appendingPathComponent("doc/.git"), withIntermediateDirectories: true)
        try fm.createDirectory(at: root.appendingPathComponent("doc/.folio"), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: root.appendingPathComponent("doc/.folio/document.json"))
        try fm.createDirectory(at: root.appendingPathComponent("plain"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: root.appendingPathComponent("file.txt"))
        // When it is listed from its parent and as ~
        let folders = LocalFolders(home: root.path, workingDirectory: root.deletingLastPathComponent().path)
        let listing = folders.listing(of: root.lastPathComponent)
        // Then each entry has its kind
        XCTAssertEqual(listing.kind, .folder)
        XCTAssertEqual(listing.entries, [.init(name: "doc", kind: .document), .init(name: "file.txt", kind: .file), .init(name: "plain", kind: .folder)])
        XCTAssertEqual(folders.listing(of: "~/doc").kind, .document)
        XCTAssertNil(folders.listing(of: "~/missing").kind)
    }

    func testGoldenOpenCompletion() {
        for (w, h) in [(60, 16), (100, 30), (160, 45)] {
            assertGolden(frame(press(typing("notes/g") + [.tab], openForm(w, h)).0), "launcher23/open-completion-\(w)x\(h)")
        }
        assertGolden(frame(press(typing("notes") + [.enter, .down], openForm(60, 16)).0), "launcher23/open-documents-60x16")
    }
}
