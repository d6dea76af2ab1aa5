import FolioCore
import FolioTerminal

/// Collects the buttons of a `LaunchScene` declared in Swift.
@resultBuilder
package enum LaunchActionsBuilder {
    package static func buildExpression(_ action: LaunchAction) -> [LaunchAction] { [action] }
    package static func buildExpression(_ actions: [LaunchAction]) -> [LaunchAction] { actions }
    package static func buildBlock(_ parts: [LaunchAction]...) -> [LaunchAction] { parts.flatMap { $0 } }
    package static func buildOptional(_ part: [LaunchAction]?) -> [LaunchAction] { part ?? [] }
    package static func buildEither(first: [LaunchAction]) -> [LaunchAction] { first }
    package static func buildEither(second: [LaunchAction]) -> [LaunchAction] { second }
    package static func buildArray(_ parts: [[LaunchAction]]) -> [LaunchAction] { parts.flatMap { $0 } }
}

/// Collects the banners of an overlay accessory.
@resultBuilder
package enum BannersBuilder {
    package static func buildExpression(_ banner: Banner) -> [Banner] { [banner] }
    package static func buildBlock(_ parts: [Banner]...) -> [Banner] { parts.flatMap { $0 } }
    package static func buildOptional(_ part: [Banner]?) -> [Banner] { part ?? [] }
    package static func buildEither(first: [Banner]) -> [Banner] { first }
    package static func buildEither(second: [Banner]) -> [Banner] { second }
    package static func buildArray(_ parts: [[Banner]]) -> [Banner] { parts.flatMap { $0 } }
}

extension LaunchScene {
    /// Declares a launch scene like SwiftUI's `DocumentGroupLaunchScene`: a title and its buttons.
    package init(_ title: String, @LaunchActionsBuilder actions: () -> [LaunchAction]) {
        self.init(title: title, actions: actions())
    }

    /// This scene with a subtitle under the title.
    package func subtitle(_ text: String) -> LaunchScene { var copy = self; copy.subtitle = text; return copy }
    /// This scene with a footer line.
    package func footer(_ text: String) -> LaunchScene { var copy = self; copy.footer = text; return copy }
    /// This scene drawn over `background`.
    package func background(_ background: LaunchBackground) -> LaunchScene { var copy = self; copy.background = background; return copy }
    /// This scene listing up to `count` recent documents after the `pinned` ones.
    package func recentDocuments(count: Int, pinned: [String] = []) -> LaunchScene {
        var copy = self; copy.recent = RecentOptions(count: count, pinned: pinned); return copy
    }
    /// This scene creating documents in `folder`.
    package func documentsFolder(_ folder: String) -> LaunchScene { var copy = self; copy.documentsFolder = folder; return copy }
    /// This scene with banners placed relative to the title frame, like SwiftUI's `overlayAccessoryView`.
    package func overlayAccessory(@BannersBuilder _ content: (LaunchGeometry) -> [Banner]) -> LaunchScene {
        var copy = self; copy.banners += content(LaunchGeometry()); return copy
    }
}

/// A button creating a blank document, or opening the template picker (`forTemplateGroup:`).
package func NewDocumentButton(_ label: String, contentType: ContentType, key: Character? = nil) -> LaunchAction {
    LaunchAction(.newDocument(contentType: contentType), label: label, key: key)
}

/// A button opening the template picker limited to a group and/or a content type.
package func NewDocumentButton(_ label: String, forTemplateGroup group: String?, contentType: ContentType? = nil, key: Character? = nil) -> LaunchAction {
    LaunchAction(.chooseTemplate(group: group, contentType: contentType), label: label, key: key)
}

/// A button moving to the recent-documents list.
package func OpenRecentButton(_ label: String, key: Character? = nil) -> LaunchAction { LaunchAction(.openRecent, label: label, key: key) }

/// A button asking for a path to open.
package func OpenButton(_ label: String, path: String? = nil, key: Character? = nil) -> LaunchAction { LaunchAction(.open(path: path), label: label, key: key) }

/// A button running a `folio` subcommand.
package func CommandButton(_ label: String, run arguments: [String], key: Character? = nil) -> LaunchAction {
    LaunchAction(.command(arguments), label: label, key: key)
}

extension Banner {
    /// A banner from multi-line text art.
    package init(_ text: String, color: TerminalColor = .default) {
        self.init(lines: SceneReader.lines(text), color: color)
    }

    /// This banner with its top-left corner at `x`, `y` (expressions on the title or screen frame).
    package func position(x: AnchorCoordinate<AnchorX>, y: AnchorCoordinate<AnchorY>) -> Banner {
        var copy = self
        copy.anchor = BannerAnchor(x: x.reference, y: y.reference, dx: x.offset, dy: y.offset)
        return copy
    }
}

/// A coordinate that is resolved at layout time: a reference line plus an offset in cells.
package struct AnchorCoordinate<Reference: Sendable & Equatable>: Equatable, Sendable {
    package var reference: Reference
    package var offset: Int
    package static func + (lhs: AnchorCoordinate, rhs: Int) -> AnchorCoordinate { AnchorCoordinate(reference: lhs.reference, offset: lhs.offset + rhs) }
    package static func - (lhs: AnchorCoordinate, rhs: Int) -> AnchorCoordinate { AnchorCoordinate(reference: lhs.reference, offset: lhs.offset - rhs) }
}

/// A frame whose edges are resolved at layout time (the title's, or the screen's).
package struct SymbolicFrame: Sendable {
    let x: (min: AnchorX, max: AnchorX, mid: AnchorX)
    let y: (min: AnchorY, max: AnchorY, mid: AnchorY)
    package var minX: AnchorCoordinate<AnchorX> { AnchorCoordinate(reference: x.min, offset: 0) }
    package var maxX: AnchorCoordinate<AnchorX> { AnchorCoordinate(reference: x.max, offset: 0) }
    package var midX: AnchorCoordinate<AnchorX> { AnchorCoordinate(reference: x.mid, offset: 0) }
    package var minY: AnchorCoordinate<AnchorY> { AnchorCoordinate(reference: y.min, offset: 0) }
    package var maxY: AnchorCoordinate<AnchorY> { AnchorCoordinate(reference: y.max, offset: 0) }
    package var midY: AnchorCoordinate<AnchorY> { AnchorCoordinate(reference: y.mid, offset: 0) }
}

/// The geometry an overlay accessory is placed with, like SwiftUI's `DocumentLaunchGeometryProxy`.
package struct LaunchGeometry: Sendable {
    /// The frame of the title.
    package var titleViewFrame: SymbolicFrame {
        SymbolicFrame(x: (.titleMinX, .titleMaxX, .titleMidX), y: (.titleMinY, .titleMaxY, .titleMidY))
    }
    /// The whole screen.
    package var frame: SymbolicFrame {
        SymbolicFrame(x: (.screenMinX, .screenMaxX, .screenMidX), y: (.screenMinY, .screenMaxY, .screenMidY))
    }
}
