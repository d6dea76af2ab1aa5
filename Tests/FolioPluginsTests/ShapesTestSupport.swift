import Foundation

extension String {
    /// A shapes document with every shape's `"id": "…", ` taken out, for comparing drawings whose new shapes got random ids.
    var withoutShapeIDs: String {
        replacingOccurrences(of: #""id": "[A-Za-z0-9_-]+", "#, with: "", options: .regularExpression)
    }

    /// The ids of a shapes document's shapes, in order.
    var shapeIDs: [String] {
        guard let regex = try? NSRegularExpression(pattern: #""id": "([A-Za-z0-9_-]+)""#) else { return [] }
        return regex.matches(in: self, range: NSRange(startIndex..., in: self)).compactMap { match in
            Range(match.range(at: 1), in: self).map { String(self[$0]) }
        }
    }
}
