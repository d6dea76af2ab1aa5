import FoundationEssentials
import Glibc

/// A content type identifier, such as `public.plain-text` or `org.folio.checklist`.
public struct ContentType: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The reverse-DNS identifier.
    public let identifier: String

    /// Creates a content type from its identifier.
    public init(_ identifier: String) { self.identifier = identifier }
    public init(stringLiteral value: String) { self.identifier = value }
    public init(from decoder: any Decoder) throws {
        identifier = try decoder.singleValueContainer().decode(String.self)
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }
    public var description: String { identifier }

    public static let data: ContentType = "public.data"
    public static let text: ContentType = "public.text"
    public static let plainText: ContentType = "public.plain-text"
    public static let json: ContentType = "public.json"
    public static let markdown: ContentType = "net.daringfireball.markdown"
}

/// What a content type is, what it conforms to and which file extensions it claims.
public struct ContentTypeDeclaration: Hashable, Sendable, Codable {
    public var identifier: ContentType
    public var conformsTo: [ContentType]
    public var extensions: [String]
    public var description: String
    /// Who declared it: `folio` for built-ins, else a plugin or template id.
    public var declaredBy: String

    public init(_ identifier: ContentType, conformsTo: [ContentType], extensions: [String] = [], description: String = "", declaredBy: String = "folio") {
        self.identifier = identifier
        self.conformsTo = conformsTo
        self.extensions = extensions
        self.description = description
        self.declaredBy = declaredBy
    }
}

/// The content-type conformance graph: answers "does A conform to B" and "which type has extension X".
public struct ContentTypeRegistry: Sendable {
    private var declarations: [ContentType: ContentTypeDeclaration] = [:]

    /// The types Folio knows without any plugin.
    public static let builtIn: ContentTypeRegistry = {
        var registry = ContentTypeRegistry(empty: ())
        for declaration in [
            ContentTypeDeclaration(.data, conformsTo: [], description: "Any data"),
            ContentTypeDeclaration(.text, conformsTo: [.data], description: "Text"),
            ContentTypeDeclaration(.plainText, conformsTo: [.text], extensions: ["txt", "text"], description: "Plain text"),
            ContentTypeDeclaration(.json, conformsTo: [.text], extensions: ["json"], description: "JSON"),
            ContentTypeDeclaration(.markdown, conformsTo: [.plainText], extensions: ["md", "markdown"], description: "Markdown"),
            ContentTypeDeclaration("org.folio.story", conformsTo: [.markdown], description: "A story in acts and scenes"),
            ContentTypeDeclaration("org.folio.checklist", conformsTo: [.json], extensions: ["checklist"], description: "A checklist"),
            ContentTypeDeclaration("org.folio.shapes", conformsTo: [.json], extensions: ["shapes"], description: "A shape drawing"),
            ContentTypeDeclaration("org.folio.project", conformsTo: [.data], description: "A project folder"),
        ] {
            registry.declarations[declaration.identifier] = declaration
        }
        return registry
    }()

    private init(empty: Void) {}

    /// A registry holding the built-in types.
    public init() { self = Self.builtIn }

    /// Every declared type, sorted by identifier.
    public var all: [ContentTypeDeclaration] {
        declarations.values.sorted { $0.identifier.identifier < $1.identifier.identifier }
    }

    /// The declaration of `type`, if known.
    public func declaration(of type: ContentType) -> ContentTypeDeclaration? { declarations[type] }

    /// Adds or extends a declaration; a type declared twice keeps the union of its parents and extensions.
    public mutating func declare(_ declaration: ContentTypeDeclaration) {
        if var existing = declarations[declaration.identifier] {
            for parent in declaration.conformsTo where !existing.conformsTo.contains(parent) { existing.conformsTo.append(parent) }
            for ext in declaration.extensions where !existing.extensions.contains(ext) { existing.extensions.append(ext) }
            if existing.description.isEmpty { existing.description = declaration.description }
            declarations[declaration.identifier] = existing
        } else {
            var declaration = declaration
            if declaration.conformsTo.isEmpty && declaration.identifier != .data { declaration.conformsTo = [.data] }
            declarations[declaration.identifier] = declaration
        }
    }

    /// The number of conformance steps from `type` up to `ancestor` (0 when equal), or nil when it does not conform.
    public func distance(from type: ContentType, to ancestor: ContentType) -> Int? {
        if type == ancestor { return 0 }
        var frontier: [ContentType] = [type]
        var seen: Set<ContentType> = [type]
        var steps = 0
        while !frontier.isEmpty {
            steps += 1
            var next: [ContentType] = []
            for current in frontier {
                for parent in declarations[current]?.conformsTo ?? (current == .data ? [] : [.data]) where seen.insert(parent).inserted {
                    if parent == ancestor { return steps }
                    next.append(parent)
                }
            }
            frontier = next
        }
        return nil
    }

    /// Whether `type` is `ancestor` or conforms to it through any chain of declarations.
    public func conforms(_ type: ContentType, to ancestor: ContentType) -> Bool {
        distance(from: type, to: ancestor) != nil
    }

    /// The most specific type claiming the file extension `ext` (case-insensitive), if any.
    public func type(forExtension ext: String) -> ContentType? {
        let ext = ext.lowercased()
        let candidates = declarations.values.filter { $0.extensions.contains(ext) }
        // Prefer the deepest type: the one furthest from public.data.
        return candidates.max { lhs, rhs in
            let l = distance(from: lhs.identifier, to: .data) ?? 0
            let r = distance(from: rhs.identifier, to: .data) ?? 0
            return l != r ? l < r : lhs.identifier.identifier > rhs.identifier.identifier
        }?.identifier
    }
}
