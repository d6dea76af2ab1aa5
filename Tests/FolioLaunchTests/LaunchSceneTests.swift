import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
@testable import FolioTerminal

final class LaunchSceneTests: XCTestCase {
    let recent = [
        RecentDocument(path: "notes/groceries.checklist", detail: "checklist"),
        RecentDocument(path: "stories/the-lighthouse", title: "The Lighthouse", detail: "story"),
        RecentDocument(path: "shapes/logo.shapes", detail: "shapes"),
    ]

    func parse(_ json: String, base: URL? = nil) throws -> LaunchScene {
        try LaunchScene.parse(json: Data(json.utf8), file: "launch.json", baseDirectory: base)
    }

    func error(_ json: String) -> String {
        do { _ = try parse(json); return "no error" } catch { return "\(error)" }
    }

    func testExampleFromTheIssueParses() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("folio-launch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(" _\n(_)\n |\n".utf8).write(to: dir.appendingPathComponent("plant.txt"))
        let scene = try parse("""
        { "title": "Start Writing", "subtitle": "Stories, checklists and shapes", "footer": "…",
          "actions": [ { "kind": "new-document", "label": "Start Writing", "contentType": "org.folio.story", "key": "n" },
                       { "kind": "choose-template", "label": "Choose a Template", "group": "stories", "key": "t" },
                       { "kind": "open-recent", "label": "Open Recent", "key": "r" },
                       { "kind": "open", "label": "Open…", "key": "o" },
                       { "kind": "command", "label": "Update templates", "run": ["templates", "update"], "key": "u" } ],
          "banners": [ { "text": "( o.o )", "color": "green", "anchor": { "x": "title.minX", "y": "title.minY", "dx": -10, "dy": -3 } },
                       { "file": "plant.txt", "anchor": { "x": "title.maxX", "y": "title.maxY", "dx": 2, "dy": 1 } } ],
          "background": { "kind": "gradient", "from": "#1e1e2e", "to": "#313244" },
          "recent": { "count": 8, "pinned": [] }, "documentsFolder": "." }
        """, base: dir)
        let swift = LaunchScene("Start Writing") {
            NewDocumentButton("Start Writing", contentType: "org.folio.story", key: "n")
            NewDocumentButton("Choose a Template", forTemplateGroup: "stories", key: "t")
            OpenRecentButton("Open Recent", key: "r")
            OpenButton("Open…", key: "o")
            CommandButton("Update templates", run: ["templates", "update"], key: "u")
        }
        .subtitle("Stories, checklists and shapes")
        .footer("…")
        .background(.gradient(from: "#1e1e2e", to: "#313244"))
        .recentDocuments(count: 8)
        .overlayAccessory { geometry in
            Banner("( o.o )", color: "green").position(x: geometry.titleViewFrame.minX - 10, y: geometry.titleViewFrame.minY - 3)
            Banner(" _\n(_)\n |\n").position(x: geometry.titleViewFrame.maxX + 2, y: geometry.titleViewFrame.maxY + 1)
        }
        XCTAssertEqual(scene, swift)
    }

    func testDefaultSceneIsTheSameInJSONAndSwift() throws {
        let parsed = try parse(LaunchScene.defaultJSON)
        XCTAssertEqual(parsed, LaunchScene.defaultScene)
        for (w, h) in [(80, 24), (120, 40), (40, 12)] {
            XCTAssertEqual(renderLaunchFrame(scene: parsed, width: w, height: h, ansi: true, recent: recent),
                           renderLaunchFrame(scene: .defaultScene, width: w, height: h, ansi: true, recent: recent))
        }
    }

    func testErrorsNameFileKeyLineAndColumn() {
        XCTAssertEqual(error("{\n  \"title\": \"x\",\n  \"actions\": [{\"kind\": \"open\", \"label\": \"O\"}],\n  \"colour\": 1\n}"),
                       "launch.json:4:3: colour: unknown key (expected one of: $schema, actions, background, banners, documentsFolder, footer, recent, subtitle, title)")
        XCTAssertEqual(error(#"{"title": "x", "actions": [{"kind": "teleport", "label": "T"}]}"#),
                       "launch.json:1:37: actions[0].kind: unknown action kind 'teleport' (expected one of: choose-template, command, new-document, open, open-recent)")
        XCTAssertEqual(error(#"{"title": "x", "actions": [{"kind": "open", "label": "O", "run": ["x"]}]}"#),
                       "launch.json:1:59: actions[0].run: not allowed for an action of kind 'open'")
        XCTAssertEqual(error(##"{"title": "x", "actions": [{"kind": "open", "label": "O"}], "background": {"kind": "color", "color": "#12"}}"##),
                       "launch.json:1:102: background.color: '#12' is not a color (use a name such as 'green' or 'bright-blue', or '#rrggbb')")
        XCTAssertEqual(error(#"{"title": "x", "actions": [{"kind": "open", "label": "O"}], "banners": [{"text": "a", "anchor": {"x": "title.left"}}]}"#),
                       "launch.json:1:103: banners[0].anchor.x: 'title.left' is not one of title.minX, title.maxX, title.midX, screen.minX, screen.maxX, screen.midX")
        XCTAssertEqual(error(#"{"title": "x", "actions": []}"#), "launch.json:1:27: actions: at least one action is needed")
        XCTAssertEqual(error(#"{"title": "x""#), "launch.json:1:14: unexpected end of JSON in an object")
        XCTAssertEqual(error(#"{"title": "x", "actions": [{"kind": "open", "label": "O"}], "recent": {"count": -1}}"#),
                       "launch.json:1:81: recent.count: expected a whole number from 0 to 100")
    }

    func testShortcutCollisionsNameTheKey() {
        XCTAssertEqual(error(#"{"title": "x", "actions": [{"kind": "open", "label": "O", "key": "j"}]}"#),
                       "launch.json:1:66: actions[0].key: shortcut 'j' collides with the navigation key 'j' (move down)")
        XCTAssertEqual(error(#"{"title": "x", "actions": [{"kind": "open", "label": "O", "key": "/"}]}"#),
                       "launch.json:1:66: actions[0].key: shortcut '/' collides with the navigation key '/' (filter)")
        XCTAssertEqual(error(#"{"title": "x", "actions": [{"kind": "open", "label": "O", "key": "o"}, {"kind": "open-recent", "label": "R", "key": "O"}]}"#),
                       "launch.json:1:117: actions[1].key: shortcut 'O' is already used by 'O'")
        XCTAssertEqual(error(#"{"title": "x", "actions": [{"kind": "open", "label": "O", "key": "ab"}]}"#),
                       "launch.json:1:66: actions[0].key: a shortcut is a single printable character, not 'ab'")
    }

    func testConfigLookupOrder() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-lookup-\(UUID().uuidString)")
        let work = root.appendingPathComponent("work"), config = root.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: work.appendingPathComponent(".folio"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: config.appendingPathComponent("folio"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let env = ["XDG_CONFIG_HOME": config.path, "HOME": root.path]
        func json(_ title: String) -> Data { Data(#"{"title": "\#(title)", "actions": [{"kind": "open", "label": "O"}]}"#.utf8) }
        XCTAssertEqual(try LaunchScene.resolve(configPath: nil, workingDirectory: work, environment: env), .bundled)
        try json("user").write(to: config.appendingPathComponent("folio/launch.json"))
        XCTAssertEqual(try LaunchScene.resolve(configPath: nil, workingDirectory: work, environment: env).title, "user")
        try json("folder").write(to: work.appendingPathComponent(".folio/launch.json"))
        XCTAssertEqual(try LaunchScene.resolve(configPath: nil, workingDirectory: work, environment: env).title, "folder")
        try json("explicit").write(to: root.appendingPathComponent("x.json"))
        XCTAssertEqual(try LaunchScene.resolve(configPath: "../x.json", workingDirectory: work, environment: env).title, "explicit")
        XCTAssertThrowsError(try LaunchScene.resolve(configPath: "missing.json", workingDirectory: work, environment: env))
    }

    func testLauncherGoldens() {
        assertGolden(renderLaunchFrame(scene: .defaultScene, width: 80, height: 24, ansi: false, recent: recent), "launcher-80x24")
        assertGolden(renderLaunchFrame(scene: .defaultScene, width: 120, height: 40, ansi: false, recent: recent), "launcher-120x40")
        assertGolden(renderLaunchFrame(scene: .defaultScene, width: 40, height: 12, ansi: false, recent: recent), "launcher-40x12")
    }

    func testBannersNeverOverlapContentAndStayOnScreen() {
        for width in stride(from: 1, through: 140, by: 7) {
            for height in stride(from: 1, through: 50, by: 3) {
                let layout = LaunchLayout(scene: .defaultScene, width: width, height: height, context: LaunchContext(recent: recent))
                for banner in layout.bannerFrames {
                    XCTAssertTrue(layout.grid.bounds.contains(banner), "\(width)x\(height)")
                    XCTAssertFalse(layout.contentFrames.contains { $0.intersects(banner) }, "\(width)x\(height)")
                    XCTAssertFalse(layout.bannerFrames.contains { $0 != banner && $0.intersects(banner) })
                }
            }
        }
        let wide = LaunchLayout(scene: .defaultScene, width: 120, height: 40, context: LaunchContext(recent: recent))
        XCTAssertEqual(wide.bannerFrames.count, 3)
        let narrow = LaunchLayout(scene: .defaultScene, width: 40, height: 12, context: LaunchContext(recent: recent))
        XCTAssertEqual(narrow.bannerFrames.count, 0)
    }

    func testContentIsCenteredOnBothAxes() {
        let layout = LaunchLayout(scene: .defaultScene, width: 120, height: 40, context: LaunchContext(recent: recent))
        let top = layout.contentFrames.map(\.minY).min() ?? 0, bottom = layout.contentFrames.map(\.maxY).max() ?? 0
        XCTAssertLessThanOrEqual(abs(top - (40 - bottom)), 1)
        let left = layout.contentFrames.map(\.minX).min() ?? 0, right = layout.contentFrames.map(\.maxX).max() ?? 0
        XCTAssertLessThanOrEqual(abs(left - (120 - right)), 1)
    }

    func testPatternBackgroundIsTiledAndClearedUnderContent() {
        let scene = LaunchScene("Hi") { OpenButton("Open", key: "o") }.background(.pattern("· ")).recentDocuments(count: 0)
        let text = renderLaunchFrame(scene: scene, width: 50, height: 12, ansi: false)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertTrue(lines[0].hasPrefix("· · · "))
        XCTAssertTrue(text.contains("│ ▸ Open"))
        XCTAssertFalse(lines.first(where: { $0.contains("Hi") })?.contains("·  Hi") ?? true)
    }

    func testTinyTerminalsNeverTrap() {
        for (w, h) in [(1, 1), (2, 3), (10, 2), (5, 40)] {
            _ = renderLaunchFrame(scene: .defaultScene, width: w, height: h, ansi: true, recent: recent)
        }
    }

    func testNoColorAndDumbTerminal() {
        let dumb = renderLaunchFrame(scene: .defaultScene, width: 80, height: 24, ansi: true, capability: .none)
        XCTAssertFalse(dumb.contains("\u{1B}"))
        let mono = renderLaunchFrame(scene: .defaultScene, width: 80, height: 24, ansi: true, capability: .monochrome)
        XCTAssertFalse(mono.contains("38;") || mono.contains("48;"))
        XCTAssertTrue(mono.contains("\u{1B}[0;1;7m"))
    }

    func testPinnedComeFirst() {
        let merged = RecentList.merge(pinned: ["shapes/logo.shapes", "todo.txt"], recent: recent, count: 3)
        XCTAssertEqual(merged.map(\.path), ["shapes/logo.shapes", "todo.txt", "notes/groceries.checklist"])
        XCTAssertTrue(merged[0].pinned)
        XCTAssertEqual(merged[0].detail, "shapes")
    }
}
