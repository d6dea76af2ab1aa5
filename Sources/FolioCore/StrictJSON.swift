import FoundationEssentials
import Glibc

/// The one loader for the strict JSON files Folio reads (settings, manifests, lock files, scene state, fixtures).
///
/// The bytes are parsed once by `JSONNode.parse` (duplicate keys, lone surrogates, invalid UTF-8 and nesting deeper
/// than `JSONNode.maximumDepth` refused at their line and column) and the value is decoded from that tree. At each
/// object path in `strictAt` (keys, with `*` for every element of an array) a key the decoded type's `CodingKeys`
/// does not list is refused as `unknown key 'k'` at the key's position, so no file keeps a copy of its keys. Every
/// problem is a `JSONPositionError` (`line L, column C: problem`); other errors a type's own `init(from:)` throws pass
/// through unchanged. Numbers are the parser's doubles: a whole number is decoded as an integer only when exact
/// (within ±2^53), so a file holding larger integers (a 64-bit inode) is not for this loader.
public enum StrictJSON {
    /// How dates are written in a file (as `JSONDecoder.DateDecodingStrategy`).
    public enum Dates: Sendable { case deferredToDate, secondsSince1970, iso8601 }

    /// Parses `data` once and decodes `T` from it, refusing unknown keys at the object paths `strictAt`.
    /// A type decoded at a strict path must have `CaseIterable` coding keys (they are the allowed keys).
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, strictAt paths: Set<[String]> = [[]],
                                            dates: Dates = .deferredToDate) throws -> T {
        try decode(type, from: try JSONNode.parse(data), strictAt: paths, dates: dates)
    }

    /// Decodes `T` from an already parsed tree (see `decode(_:from:strictAt:)`).
    public static func decode<T: Decodable>(_ type: T.Type, from node: JSONNode, strictAt paths: Set<[String]> = [[]],
                                            dates: Dates = .deferredToDate) throws -> T {
        do {
            return try NodeDecoder(node: node, codingPath: [], pattern: [], strict: paths, dates: dates).decode(type)
        } catch let error as DecodingError {
            throw positioned(error, in: node)
        }
    }

    /// Reads `url` (nil when there is no file) and decodes it with `decode(_:from:strictAt:)`; a file that cannot be
    /// read is `FolioError.unreadableFile`, one that is not what `T` reads is `FolioError.invalidFile` with the line
    /// and column of the problem.
    public static func load<T: Decodable>(_ type: T.Type, from url: URL, strictAt paths: Set<[String]> = [[]]) throws -> T? {
        guard let data = try ConfigFile.read(url) else { return nil }
        do { return try decode(type, from: data, strictAt: paths) } catch let error as JSONPositionError {
            throw FolioError.invalidFile(path: url.path, problem: error.description)
        }
    }

    /// A decoding error placed at the node its coding path leads to (the object for a missing key).
    static func positioned(_ error: DecodingError, in root: JSONNode) -> JSONPositionError {
        let path: [any CodingKey]
        switch error {
        case let .keyNotFound(_, context), let .typeMismatch(_, context), let .valueNotFound(_, context), let .dataCorrupted(context):
            path = context.codingPath
        @unknown default: path = []
        }
        var node = root
        for key in path {
            switch node.kind {
            case let .array(items):
                guard let index = key.intValue, items.indices.contains(index) else { break }
                node = items[index]
            case .object:
                guard let member = node[key.stringValue] else { break }
                node = member
            default: break
            }
        }
        return JSONPositionError(line: node.line, column: node.column, message: JSONKeys.describe(error))
    }
}
