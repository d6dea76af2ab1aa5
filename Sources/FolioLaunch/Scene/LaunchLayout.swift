import FolioCore
import FolioTerminal

/// What the launch screen shows besides the scene itself.
package struct LaunchContext: Equatable, Sendable {
    /// Recent documents (pinned first), already merged and limited.
    package var recent: [RecentDocument]
    /// Template sources and how far they have got.
    package var templates: [TemplateSourceStatus]
    /// The focused row: actions first, then the recent documents shown.
    package var selection: Int
    /// The recent-list filter being typed after `/`, nil when not filtering.
    package var filter: String? { filterField?.text }
    /// The filter being typed (text and cursor), nil when not filtering.
    package var filterField: TextField?
    /// Animation frame for spinners.
    package var tick: Int
    /// The first recent document shown (of those left after the filter) when they do not all fit; the layout moves it
    /// just enough to show the selected one.
    package var recentScroll: Int
    /// The home folder: paths under it are shown as `~/…`.
    package var home: String?
    package init(recent: [RecentDocument] = [], templates: [TemplateSourceStatus] = [], selection: Int = 0, filter: String? = nil, tick: Int = 0,
                filterField: TextField? = nil, recentScroll: Int = 0, home: String? = nil) {
        self.recent = recent; self.templates = templates; self.selection = selection; self.filterField = filterField ?? filter.map { TextField($0) }
        self.tick = tick; self.recentScroll = recentScroll; self.home = home
    }

    /// The recent documents left after the filter (title or path, `~/…` too; every recent document, not only the rows
    /// shown).
    package var filteredRecent: [RecentDocument] {
        guard let filter, !filter.isEmpty else { return recent }
        let needle = filter.lowercased()
        return recent.filter {
            $0.title.lowercased().contains(needle) || $0.path.lowercased().contains(needle)
                || RecentList.shortened($0.path, home: home).lowercased().contains(needle)
        }
    }
}

/// The launch screen laid out for one terminal size: the cells and where things went.
package struct LaunchLayout: Sendable {
    package var grid: CellGrid
    package var titleFrame: Rect
    /// The frames of content that decorations must not cover.
    package var contentFrames: [Rect]
    /// The frames of banners drawn (banners dropped for lack of room are absent).
    package var bannerFrames: [Rect]
    /// The number of recent documents that fit.
    package var visibleRecent: Int
    /// The first recent document shown (an index into the filtered list), so the selected one is on screen.
    package var recentFirst: Int

    /// Lays out `scene` on a `width`×`height` screen: a pure function, recomputed on every resize.
    package init(scene: LaunchScene, width: Int, height: Int, context: LaunchContext) {
        let theme = Theme.standard
        var grid = CellGrid(width: width, height: height)
        let recent = context.filteredRecent
        // Try progressively more compact arrangements until one fits.
        var options = Options(recentLimit: min(recent.count, max(0, scene.recent.count)))
        // The rows an action selection takes; the recent list scrolls to keep the selected document in its window.
        let selectedRecent = context.selection - scene.actions.count
        var rows = Self.rows(scene, context, recentCount: recent.count, options)
        func shrink() -> Bool {
            if options.spacing { options.spacing = false; return true }
            if options.footer, scene.footer != nil { options.footer = false; return true }
            if options.recentLimit > 1 { options.recentLimit -= 1; return true }
            if options.status { options.status = false; return true }
            if options.boxed { options.boxed = false; return true }
            if options.recentLimit > 0 { options.recentLimit = 0; return true }
            if options.recentSection { options.recentSection = false; return true }
            if options.subtitle, scene.subtitle != nil { options.subtitle = false; return true }
            return false
        }
        while rows.count > height, shrink() { rows = Self.rows(scene, context, recentCount: recent.count, options) }

        // Width of the block: the widest natural row, clamped to the screen with a margin.
        let keyColumn = scene.actions.contains { $0.key != nil } ? 4 : 0
        let actionNatural = (scene.actions.map { DisplayWidth.width(of: $0.label) }.max() ?? 0) + 4 + keyColumn + (options.boxed ? 4 : 0)
        // Recent titles do not widen the block (a long one is cut with "…"), so the banners beside the title keep their room.
        let natural = max(DisplayWidth.width(of: scene.title), DisplayWidth.width(of: scene.subtitle ?? ""), actionNatural,
                          DisplayWidth.width(of: scene.footer ?? ""), 34)
        let first = Self.firstRecent(scroll: context.recentScroll, selected: selectedRecent, shown: options.recentLimit, count: recent.count)
        let places = RecentList.places(of: context.recent, home: context.home)
        let blockWidth = max(0, min(natural, width - 4, 64))
        let blockX = max(0, (width - blockWidth) / 2)
        // The recent list below the box may be wider (its rows are under the banners, not beside them): room for a
        // title of up to 24 cells, the sharing badge and the detail; a longer title is cut with "…".
        let recentNatural = recent.map {
            min(24, DisplayWidth.width(of: $0.title)) + DisplayWidth.width(of: $0.detail) + 8 + ($0.badge.isEmpty ? 0 : DisplayWidth.width(of: $0.badge) + 2)
        }.max() ?? 0
        let listWidth = max(blockWidth, min(recentNatural + (options.boxed ? 4 : 0), width - 4, 64))
        let listX = max(0, (width - listWidth) / 2)
        let blockY = max(0, (height - rows.count) / 2)

        Self.drawBackground(scene.background, into: &grid, clearing: Rect(x: listX - 2, y: blockY - 1, width: listWidth + 4, height: rows.count + 2))

        var titleFrame = Rect(x: blockX, y: blockY, width: 0, height: 1)
        var contentFrames: [Rect] = []
        var boxTop = blockY
        let recentStart = scene.actions.count
        for (offset, row) in rows.enumerated() {
            let y = blockY + offset
            if y >= height { break }
            switch row {
            case .spacer: break
            case .title:
                let text = DisplayWidth.truncate(scene.title, to: blockWidth)
                let w = DisplayWidth.width(of: text)
                titleFrame = Rect(x: blockX + (blockWidth - w) / 2, y: y, width: w, height: 1)
                grid.put(text, x: titleFrame.x, y: y, style: theme.title)
                contentFrames.append(titleFrame)
            case .subtitle:
                contentFrames.append(Self.centered(scene.subtitle ?? "", in: &grid, x: blockX, width: blockWidth, y: y, style: theme.subtitle))
            case .footer:
                contentFrames.append(Self.centered(scene.footer ?? "", in: &grid, x: blockX, width: blockWidth, y: y, style: theme.footer))
            case .boxTop:
                boxTop = y
                grid.put("╭" + String(repeating: "─", count: max(0, blockWidth - 2)) + "╮", x: blockX, y: y, style: theme.border)
            case .boxBottom:
                grid.put("╰" + String(repeating: "─", count: max(0, blockWidth - 2)) + "╯", x: blockX, y: y, style: theme.border)
                contentFrames.append(Rect(x: blockX, y: boxTop, width: blockWidth, height: y - boxTop + 1))
            case let .action(index):
                let action = scene.actions[index]
                let selected = context.selection == index
                var x = blockX
                var inner = blockWidth
                if options.boxed {
                    grid.put("│", x: blockX, y: y, style: theme.border)
                    grid.put("│", x: blockX + blockWidth - 1, y: y, style: theme.border)
                    x += 2; inner -= 4
                }
                let rowStyle = selected ? theme.selected : theme.action
                grid.put(String(repeating: " ", count: max(0, inner)), x: x, y: y, style: rowStyle)
                let marker = selected ? "▸ " : "  "
                let labelWidth = max(0, inner - 2 - keyColumn)
                grid.put(marker + DisplayWidth.truncate(action.label, to: labelWidth), x: x, y: y, style: rowStyle)
                if let key = action.key, inner >= keyColumn + 3 {
                    var keyStyle = selected ? theme.selected : theme.key
                    keyStyle.bold = true
                    grid.put(String(key), x: x + inner - 1, y: y, style: keyStyle)
                }
                if !options.boxed { contentFrames.append(Rect(x: blockX, y: y, width: blockWidth, height: 1)) }
            case .status:
                let line = Self.templateStatusLine(context.templates, tick: context.tick)
                contentFrames.append(Self.centered(line.text, in: &grid, x: blockX, width: blockWidth, y: y, style: line.failed ? theme.error : theme.subtitle))
            case .recentHeader:
                let x = listX + (options.boxed ? 2 : 0)
                let innerWidth = listWidth - (options.boxed ? 4 : 0)
                let range = options.recentLimit == 1 ? "\(first + 1)" : "\(first + 1)–\(first + options.recentLimit)"
                let position = options.recentLimit < recent.count && options.recentLimit > 0 ? "\(range) of \(recent.count) " : ""
                let heading = "Recent " + position
                grid.put(heading, x: x, y: y, style: theme.heading, maxWidth: innerWidth)
                let headingWidth = DisplayWidth.width(of: heading)
                grid.put(String(repeating: "─", count: max(0, innerWidth - headingWidth)), x: x + headingWidth, y: y, style: theme.border)
                if let field = context.filterField {
                    let box = min(Self.filterFieldWidth(columns: width), max(0, innerWidth - 11))
                    let fieldX = x + innerWidth - box - 1
                    grid.put(" / ", x: fieldX - 3, y: y, style: theme.key)
                    field.draw(into: &grid, x: fieldX, y: y, width: box, style: theme.key, focused: true)
                }
                contentFrames.append(Rect(x: listX, y: y, width: listWidth, height: 1))
            case let .recent(row):
                let index = first + row
                guard recent.indices.contains(index) else { break }
                let document = recent[index]
                let selected = context.selection == recentStart + index
                let x = listX + (options.boxed ? 2 : 0)
                let innerWidth = max(0, listWidth - (options.boxed ? 4 : 0))
                let rowStyle = selected ? theme.selected : theme.action
                grid.put(String(repeating: " ", count: innerWidth), x: x, y: y, style: rowStyle)
                let marker = selected ? "▸ " : (document.missing ? "✗ " : document.pinned ? "★ " : "  ")
                let detail = DisplayWidth.truncate(document.detail, to: max(0, innerWidth / 3))
                let detailWidth = DisplayWidth.width(of: detail)
                let badge = Self.shownBadge(document.badge, innerWidth: innerWidth)
                let badgeWidth = DisplayWidth.width(of: badge)
                let titleWidth = max(0, innerWidth - 2 - detailWidth - (detailWidth > 0 ? 2 : 0) - (badgeWidth > 0 ? badgeWidth + 2 : 0))
                let title = (selected && document.pinned ? "★ " : "") + document.title
                let shownTitle = DisplayWidth.truncate(title, to: titleWidth)
                grid.put(marker + shownTitle, x: x, y: y, style: document.missing && !selected ? theme.subtitle : rowStyle)
                // Documents sharing a name show where they are, cut from the left so the end of the path stays.
                if let place = places[document.path] {
                    let room = titleWidth - DisplayWidth.width(of: shownTitle) - 2
                    if room >= 4 {
                        grid.put(RecentList.truncatingStart(place, to: room), x: x + 2 + DisplayWidth.width(of: shownTitle) + 2, y: y,
                                 style: selected ? theme.selected : theme.subtitle)
                    }
                }
                if detailWidth > 0 {
                    grid.put(detail, x: x + innerWidth - detailWidth, y: y, style: selected ? theme.selected : document.missing ? theme.error : theme.subtitle)
                }
                Self.drawBadge(badge, of: document.badge, into: &grid, x: x + innerWidth - detailWidth - (detailWidth > 0 ? 2 : 0) - badgeWidth, y: y,
                               selected: selected)
                contentFrames.append(Rect(x: listX, y: y, width: listWidth, height: 1))
            case .recentEmpty:
                let x = listX + (options.boxed ? 2 : 0)
                let text = context.filter.map { $0.isEmpty ? "Type to filter recent documents" : "No recent document matches “\($0)”" } ?? "No recent documents yet"
                grid.put("  " + text, x: x, y: y, style: theme.subtitle, maxWidth: max(0, listWidth - (options.boxed ? 4 : 0)))
                contentFrames.append(Rect(x: listX, y: y, width: listWidth, height: 1))
            }
        }

        // Banners: anchored to the title frame or the screen, dropped when off screen or over content or each other.
        var bannerFrames: [Rect] = []
        for banner in scene.banners where !banner.lines.isEmpty {
            let w = banner.lines.map { DisplayWidth.width(of: $0) }.max() ?? 0
            let frame = Rect(x: Self.resolve(banner.anchor.x, title: titleFrame, width: width) + banner.anchor.dx,
                             y: Self.resolve(banner.anchor.y, title: titleFrame, height: height) + banner.anchor.dy,
                             width: w, height: banner.lines.count)
            guard grid.bounds.contains(frame), w > 0,
                  !contentFrames.contains(where: { $0.insetBy(dx: -1, dy: 0).intersects(frame) }),
                  !bannerFrames.contains(where: { $0.intersects(frame) }) else { continue }
            var style = theme.banner
            style.foreground = banner.color
            for (row, line) in banner.lines.enumerated() { grid.put(line, x: frame.x, y: frame.y + row, style: style) }
            bannerFrames.append(frame)
        }

        self.grid = grid
        self.titleFrame = titleFrame
        self.contentFrames = contentFrames
        self.bannerFrames = bannerFrames
        self.visibleRecent = options.recentSection ? min(options.recentLimit, recent.count) : 0
        self.recentFirst = first
    }

    /// The first of `count` documents to show in a window of `shown` rows: `scroll` moved just enough to show
    /// `selected` (when a document is selected), and kept in range.
    static func firstRecent(scroll: Int, selected: Int, shown: Int, count: Int) -> Int {
        guard shown > 0, count > shown else { return 0 }
        var first = max(0, min(scroll, count - shown))
        if (0..<count).contains(selected) {
            if selected < first { first = selected }
            if selected >= first + shown { first = selected - shown + 1 }
        }
        return first
    }

    /// The cells the recent-list filter has (it shows at the right of the "Recent" heading).
    package static func filterFieldWidth(columns: Int) -> Int { max(1, min(20, columns - 24)) }

    struct Options {
        var spacing = true, footer = true, subtitle = true, boxed = true, status = true, recentSection = true
        var recentLimit: Int
    }

    enum Row: Equatable { case title, subtitle, spacer, boxTop, action(Int), boxBottom, status, recentHeader, recent(Int), recentEmpty, footer }

    static func rows(_ scene: LaunchScene, _ context: LaunchContext, recentCount: Int, _ options: Options) -> [Row] {
        var rows: [Row] = [.title]
        if options.subtitle, scene.subtitle?.isEmpty == false { rows.append(.subtitle) }
        rows.append(.spacer)
        if options.boxed { rows.append(.boxTop) }
        rows += scene.actions.indices.map(Row.action)
        if options.boxed { rows.append(.boxBottom) }
        if options.status, !templateStatusLine(context.templates, tick: 0).text.isEmpty { rows.append(.status) }
        if options.recentSection, scene.recent.count > 0 {
            if options.spacing { rows.append(.spacer) }
            rows.append(.recentHeader)
            if recentCount == 0 || options.recentLimit == 0 {
                if options.recentLimit > 0 || recentCount == 0 { rows.append(.recentEmpty) }
            } else {
                rows += (0..<options.recentLimit).map(Row.recent)
            }
        }
        if options.footer, scene.footer?.isEmpty == false {
            if options.spacing { rows.append(.spacer) }
            rows.append(.footer)
        }
        return rows
    }

    static func templateStatusLine(_ sources: [TemplateSourceStatus], tick: Int) -> (text: String, failed: Bool) {
        let loading = sources.filter { $0.state == .loading }.count
        let failed = sources.filter { if case .failed = $0.state { return true } else { return false } }.count
        if loading > 0 { return ("\(Spinner.frame(tick)) Loading templates (\(sources.count - loading) of \(sources.count) sources)", false) }
        if failed > 0 { return ("! \(failed) template source\(failed == 1 ? "" : "s") failed — press t for details", true) }
        return ("", false)
    }

    /// What the loading sources are doing, for the launcher's bottom line (the status line is as narrow as the menu):
    /// "silent: fetching git://host/t.git · team: 12/40 objects, 3 KiB · esc stops"; nil when none is loading.
    package static func templateProgressLine(_ sources: [TemplateSourceStatus]) -> String? {
        let loading = sources.filter { $0.state == .loading }
        guard !loading.isEmpty else { return nil }
        return loading.map { "\($0.name): \($0.progress ?? "loading…")" }.joined(separator: " · ") + " · esc stops"
    }

    static func centered(_ text: String, in grid: inout CellGrid, x: Int, width: Int, y: Int, style: CellStyle) -> Rect {
        let cut = DisplayWidth.truncate(text, to: width)
        let w = DisplayWidth.width(of: cut)
        let frame = Rect(x: x + (width - w) / 2, y: y, width: w, height: 1)
        grid.put(cut, x: frame.x, y: y, style: style)
        return frame
    }

    static func resolve(_ anchor: AnchorX, title: Rect, width: Int) -> Int {
        switch anchor {
        case .titleMinX: title.minX
        case .titleMaxX: title.maxX
        case .titleMidX: title.midX
        case .screenMinX: 0
        case .screenMaxX: width
        case .screenMidX: width / 2
        }
    }

    static func resolve(_ anchor: AnchorY, title: Rect, height: Int) -> Int {
        switch anchor {
        case .titleMinY: title.minY
        case .titleMaxY: title.maxY
        case .titleMidY: title.midY
        case .screenMinY: 0
        case .screenMaxY: height
        case .screenMidY: height / 2
        }
    }

    static func drawBackground(_ background: LaunchBackground, into grid: inout CellGrid, clearing: Rect) {
        switch background {
        case .none: break
        case let .color(color): grid.paintBackground(grid.bounds, color)
        case let .gradient(from, to):
            for y in 0..<grid.height {
                let t = grid.height > 1 ? Double(y) / Double(grid.height - 1) : 0
                grid.paintBackground(Rect(x: 0, y: y, width: grid.width, height: 1), TerminalColor.mix(from, to, t))
            }
        case let .pattern(text, color):
            let tile = DisplayWidth.clusters(text)
            let tileWidth = tile.reduce(0) { $0 + $1.width }
            guard tileWidth > 0 else { return }
            let style = CellStyle(foreground: color, dim: true)
            for y in 0..<grid.height {
                var x = 0
                while x < grid.width {
                    for part in tile where part.width > 0 {
                        if !clearing.contains(Rect(x: x, y: y, width: part.width, height: 1)), !clearing.intersects(Rect(x: x, y: y, width: part.width, height: 1)) {
                            grid.put(part.grapheme, x: x, y: y, style: style)
                        }
                        x += part.width
                    }
                }
            }
        }
    }
}

/// The frames of a braille spinner.
enum Spinner {
    static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    static func frame(_ tick: Int) -> String { frames[((tick % frames.count) + frames.count) % frames.count] }
}

/// Colors and attributes of the screens; named colors so they read on dark and light terminals alike.
struct Theme: Sendable {
    var title = CellStyle(bold: true)
    var subtitle = CellStyle(dim: true)
    var footer = CellStyle(dim: true)
    var border = CellStyle(foreground: .named(.brightBlack))
    var action = CellStyle()
    var selected = CellStyle(bold: true, reverse: true)
    var key = CellStyle(foreground: .named(.cyan))
    var heading = CellStyle(bold: true, underline: false)
    var error = CellStyle(foreground: .named(.red))
    var success = CellStyle(foreground: .named(.green))
    var banner = CellStyle()
    var disabled = CellStyle(dim: true)
    /// A hint, a notice or progress on a message line (not one of the `colors` slots).
    var note = CellStyle(foreground: .named(.yellow))
    static let standard = Theme()

    /// The style `message` is drawn in.
    func style(_ message: StatusLine) -> CellStyle {
        switch message {
        case .failure: error
        case .success: success
        case .note: note
        }
    }

    /// The theme's slots by the name the settings' `colors` give them (the only names `colors` accepts); `accent`,
    /// the name the settings documented first, is the key color.
    static var slots: [(name: String, path: WritableKeyPath<Theme, CellStyle>)] { [
        ("accent", \.key),
        ("title", \.title), ("subtitle", \.subtitle), ("footer", \.footer), ("border", \.border), ("action", \.action),
        ("selected", \.selected), ("key", \.key), ("heading", \.heading), ("error", \.error), ("success", \.success),
        ("banner", \.banner), ("disabled", \.disabled),
    ] }

    /// This theme with the foreground of each slot named in `colors` set (unknown slots and colors are left alone).
    func applying(_ colors: [String: String]) -> Theme {
        var theme = self
        for (name, path) in Self.slots {
            if let text = colors[name], let color = TerminalColor(parsing: text) { theme[keyPath: path].foreground = color }
        }
        return theme
    }
}
