import FolioCore
import FolioTerminal

/// The launch screen: a title block with actions, a recent-documents list, and decorations around the title.
/// Built from `launch.json` or in Swift with the result builder; both give equal values.
package struct LaunchScene: Equatable, Sendable {
    package var title: String
    package var subtitle: String?
    package var actions: [LaunchAction]
    package var banners: [Banner]
    package var background: LaunchBackground
    package var recent: RecentOptions
    package var footer: String?
    /// Where new documents are created, relative to the working folder.
    package var documentsFolder: String

    package init(title: String, subtitle: String? = nil, actions: [LaunchAction], banners: [Banner] = [],
                background: LaunchBackground = .none, recent: RecentOptions = RecentOptions(), footer: String? = nil,
                documentsFolder: String = ".") {
        self.title = title; self.subtitle = subtitle; self.actions = actions; self.banners = banners
        self.background = background; self.recent = recent; self.footer = footer; self.documentsFolder = documentsFolder
    }
}

/// One button of the launch screen.
package struct LaunchAction: Equatable, Sendable {
    /// What the button does.
    package enum Kind: Equatable, Sendable {
        /// Creates a blank document of a content type.
        case newDocument(contentType: ContentType)
        /// Opens the template picker, optionally limited to a group and/or a content type.
        case chooseTemplate(group: String?, contentType: ContentType?)
        /// Moves the selection to the recent-documents list.
        case openRecent
        /// Asks for a path to open (prefilled when given).
        case open(path: String?)
        /// Runs a `folio` subcommand, e.g. `["templates", "update"]`.
        case command([String])
    }

    package var kind: Kind
    package var label: String
    /// The shortcut key, when there is one.
    package var key: Character?

    package init(_ kind: Kind, label: String, key: Character? = nil) { self.kind = kind; self.label = label; self.key = key }
}

/// Multi-line text art drawn around the title; dropped when it does not fit or would cover content.
package struct Banner: Equatable, Sendable {
    package var lines: [String]
    package var color: TerminalColor
    package var anchor: BannerAnchor

    package init(lines: [String], color: TerminalColor = .default, anchor: BannerAnchor = BannerAnchor()) {
        self.lines = lines; self.color = color; self.anchor = anchor
    }
}

/// A horizontal reference line for placing a banner's top-left corner.
package enum AnchorX: String, CaseIterable, Sendable {
    case titleMinX = "title.minX", titleMaxX = "title.maxX", titleMidX = "title.midX"
    case screenMinX = "screen.minX", screenMaxX = "screen.maxX", screenMidX = "screen.midX"
}

/// A vertical reference line for placing a banner's top-left corner.
package enum AnchorY: String, CaseIterable, Sendable {
    case titleMinY = "title.minY", titleMaxY = "title.maxY", titleMidY = "title.midY"
    case screenMinY = "screen.minY", screenMaxY = "screen.maxY", screenMidY = "screen.midY"
}

/// Where a banner's top-left corner goes: a reference on each axis plus an offset in cells.
package struct BannerAnchor: Equatable, Sendable {
    package var x: AnchorX
    package var y: AnchorY
    package var dx: Int
    package var dy: Int
    package init(x: AnchorX = .titleMinX, y: AnchorY = .titleMinY, dx: Int = 0, dy: Int = 0) { self.x = x; self.y = y; self.dx = dx; self.dy = dy }
}

/// What is drawn under everything.
package enum LaunchBackground: Equatable, Sendable {
    case none
    case color(TerminalColor)
    /// A vertical gradient from the top row to the bottom row.
    case gradient(from: TerminalColor, to: TerminalColor)
    /// Text tiled over the screen (drawn dim), e.g. `"· "`.
    case pattern(String, color: TerminalColor = .default)
}

/// How the recent-documents list is shown.
package struct RecentOptions: Equatable, Sendable {
    /// How many rows the list shows at most at once (it scrolls through all recent documents; fewer rows when the
    /// screen is short); 0 hides the list.
    package var count: Int
    /// Paths always listed first.
    package var pinned: [String]
    /// The count that shows as many rows as fit (the most `launch.json` allows).
    package static let asManyAsFit = 100
    package init(count: Int = asManyAsFit, pinned: [String] = []) { self.count = count; self.pinned = pinned }
}

extension LaunchScene {
    /// Navigation keys an action shortcut may not use.
    package static let reservedKeys: [Character: String] = ["j": "move down", "k": "move up", "q": "quit", "/": "filter", " ": "space"]

    /// Shortcut problems: (index of the action, message), empty when the shortcuts are fine.
    package func shortcutProblems() -> [(index: Int, message: String)] {
        var problems: [(Int, String)] = []
        var seen: [String: String] = [:]
        for (index, action) in actions.enumerated() {
            guard let key = action.key else { continue }
            let lowered = String(key).lowercased()
            if let meaning = Self.reservedKeys[Character(lowered)] {
                problems.append((index, "shortcut '\(key)' collides with the navigation key '\(lowered)' (\(meaning))"))
            } else if let other = seen[lowered] {
                problems.append((index, "shortcut '\(key)' is already used by '\(other)'"))
            } else {
                seen[lowered] = action.label
            }
        }
        return problems
    }
}
