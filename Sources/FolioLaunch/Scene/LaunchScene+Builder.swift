import FolioCore
import FolioTerminal

/// Collects the buttons of a `LaunchScene` declared in Swift.
@resultBuilder
public enum LaunchActionsBuilder {
    public static func buildExpression(_ action: LaunchAction) -> [LaunchAction] { [action] }
    public static func buildExpression(_ actions: [LaunchAction]) -> [LaunchAction] { actions }
    public static func buildBlock(_ parts: [LaunchAction]...) -> [LaunchAction] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [LaunchAction]?) -> [LaunchAction] { part ?? [] }
    public static func buildEither(first: [LaunchAction]) -> [LaunchAction] { first }
    public static func buildEither(second: [LaunchAction]) -> [LaunchAction] { second }
    public static func buildArray(_ parts: [[LaunchAction]]) -> [LaunchAction] { parts.flatMap { $0 } }
}

/// Collects the banners of an overlay accessory.
@resultBuilder
public enum BannersBuilder {
    public static func buildExpression(_ banner: Banner) -> [Banner] { [banner] }
    public static func buildBlock(_ parts: [Banner]...) -> [Banner] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [Banner]?) -> [Banner] { part ?? [] }
    public static func buildEither(first: [Banner]) -> [Banner] { first }
    public static func buildEither(second: [Banner]) -> [Banner] { second }
    public static func buildArray(_ parts: [[Banner]]) -> [Banner] { parts.flatMap { $0 } }
}

extension LaunchScene {
    /// Declares a launch scene like SwiftUI's `DocumentGroupLaunchScene`: a title and its buttons.
    public init(_ title: String, @LaunchActionsBuilder actions: () -> [LaunchAction]) {
        self.init(title: title, actions: actions())
    }

    /// This scene with a subtitle under the title.
    public func subtitle(_ text: String) -> LaunchScene { var copy = self; copy.subtitle = text; return copy }
    /// This scene with a footer line.
    public func footer(_ text: String) -> LaunchScene { var copy = self; copy.footer = text; return copy }
    /// This scene drawn over `background`.
    public func background(_ background: LaunchBackground) -> LaunchScene { var copy = self; copy.background = background; return copy }
    /// This scene listing up to `count` recent documents after the `pinned` ones.
    public func recentDocuments(count: Int, pinned: [String] = []) -> LaunchScene {
        var copy = self; copy.recent = RecentOptions(count: count, pinned: pinned); return copy
    }
    /// This scene creating documents in `folder`.
    public func documentsFolder(_ folder: String) -> LaunchScene { var copy = self; copy.documentsFolder = folder; return copy }
    /// This scene with banners placed relative to the title frame, like SwiftUI's `overlayAccessoryView`.
    public func overlayAccessory(@BannersBuilder _ content: (LaunchGeometry) -> [Banner]) -> LaunchScene {
        var copy = self; copy.banners += content(LaunchGeometry()); return copy
    }
}

/// A button creating a blank document, or opening the template picker (`forTemplateGroup:`).
public func NewDocumentButton(_ label: String, contentType: ContentType, key: Character? = nil) -> LaunchAction {
    LaunchAction(.newDocument(contentType: contentType), label: label, key: key)
}

/// A button opening the template picker limited to a group and/or a content type.
public func NewDocumentButton(_ label: String, forTemplateGroup group: String?, contentType: ContentType? = nil, key: Character? = nil) -> LaunchAction {
    LaunchAction(.chooseTemplate(group: group, contentType: contentType), label: label, key: key)
}

/// A button moving to the recent-documents list.
public func OpenRecentButton(_ label: String, key: Character? = nil) -> LaunchAction { LaunchAction(.openRecent, label: label, key: key) }

/// A button asking for a path to open.
public func OpenButton(_ label: String, path: String? = nil, key: Character? = nil) -> LaunchAction { LaunchAction(.open(path: path), label: label, key: key) }

/// A button running a `folio` subcommand.
public func CommandButton(_ label: String, run arguments: [String], key: Character? = nil) -> LaunchAction {
    LaunchAction(.command(arguments), label: label, key: key)
}

extension Banner {
    /// A banner from multi-line text art.
    public init(_ text: String, color: TerminalColor = .default) {
        self.init(lines: SceneReader.lines(text), color: color)
    }

    /// This banner with its top-left corner at `x`, `y` (expressions on the title or screen frame).
    public func position(x: AnchorCoordinate<AnchorX>, y: AnchorCoordinate<AnchorY>) -> Banner {
        var copy = self
        copy.anchor = BannerAnchor(x: x.reference, y: y.reference, dx: x.offset, dy: y.offset)
        return copy
    }
}

/// A coordinate that is resolved at layout time: a reference line plus an offset in cells.
public struct AnchorCoordinate<Reference: Sendable & Equatable>: Equatable, Sendable {
    public var reference: Reference
    public var offset: Int
    public static func + (lhs: AnchorCoordinate, rhs: Int) -> AnchorCoordinate { AnchorCoordinate(reference: lhs.reference, offset: lhs.offset + rhs) }
    public static func - (lhs: AnchorCoordinate, rhs: Int) -> AnchorCoordinate { AnchorCoordinate(reference: lhs.reference, offset: lhs.offset - rhs) }
}

/// A frame whose edges are resolved at layout time (the title's, or the screen's).
public struct SymbolicFrame: Sendable {
    let x: (min: AnchorX, max: AnchorX, mid: AnchorX)
    let y: (min: AnchorY, max: AnchorY, mid: AnchorY)
    public var minX: AnchorCoordinate<AnchorX> { AnchorCoordinate(reference: x.min, offset: 0) }
    public var maxX: AnchorCoordinate<AnchorX> { AnchorCoordinate(reference: x.max, offset: 0) }
    public var midX: AnchorCoordinate<AnchorX> { AnchorCoordinate(reference: x.mid, offset: 0) }
    public var minY: AnchorCoordinate<AnchorY> { AnchorCoordinate(reference: y.min, offset: 0) }
    public var maxY: AnchorCoordinate<AnchorY> { AnchorCoordinate(reference: y.max, offset: 0) }
    public var midY: AnchorCoordinate<AnchorY> { AnchorCoordinate(reference: y.mid, offset: 0) }
}

/// The geometry an overlay accessory is placed with, like SwiftUI's `DocumentLaunchGeometryProxy`.
public struct LaunchGeometry: Sendable {
    /// The frame of the title.
    public var titleViewFrame: SymbolicFrame {
        SymbolicFrame(x: (.titleMinX, .titleMaxX, .titleMidX), y: (.titleMinY, .titleMaxY, .titleMidY))
    }
    /// The whole screen.
    public var frame: SymbolicFrame {
        SymbolicFrame(x: (.screenMinX, .screenMaxX, .screenMidX), y: (.screenMinY, .screenMaxY, .screenMidY))
    }
}
