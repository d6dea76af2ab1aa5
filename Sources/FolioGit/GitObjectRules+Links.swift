/// Why a symbolic link's target is refused: it names a place outside the tree that holds it.
public enum LinkTargetProblem: Sendable, Equatable, CustomStringConvertible {
    /// The target starts with `/`: it names a place outside any work tree.
    case absolute
    /// More leading `..` than the link has folders above it: it leads out of the tree.
    case leavesTree
    /// A `..` after a name (`a/../b`): through another link it could lead anywhere.
    case parentAfterName
    /// Empty, holding a NUL byte, not UTF-8, or longer than `GitObjectRules.longestLinkTarget`.
    case malformed

    public var description: String {
        switch self {
        case .absolute: return "which is absolute"
        case .leavesTree: return "which leads out of the document"
        case .parentAfterName: return "which climbs with '..' after a folder name (through another link it could lead out of the document)"
        case .malformed: return "which is empty, too long, or not text"
        }
    }
}

extension GitObjectRules {
    /// The longest link target accepted, in bytes (Linux's `PATH_MAX` less its NUL).
    public static let longestLinkTarget = 4095

    /// Whether a link `depth` folders below the root of its tree (0: in the root) with `target` stays inside the tree
    /// whatever the other links in it say: relative, `..` only leading and at most `depth` of them, no empty target.
    /// A target of names only, from a real folder inside the tree, can leave it only through another link, which the
    /// same rule holds; so every link passing it resolves inside. Nil when it passes.
    public static func linkProblem(target: some Collection<UInt8>, depth: Int) -> LinkTargetProblem? {
        guard !target.isEmpty, target.count <= longestLinkTarget, !target.contains(0),
              String(validating: Array(target), as: UTF8.self) != nil else { return .malformed }
        if target.first == UInt8(ascii: "/") { return .absolute }
        var climbs = 0
        var sawName = false
        for component in target.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            if component.elementsEqual("..".utf8) {
                if sawName { return .parentAfterName }
                climbs += 1
                if climbs > depth { return .leavesTree }
            } else if !component.elementsEqual(".".utf8) {
                sawName = true
            }
        }
        return nil
    }
}
