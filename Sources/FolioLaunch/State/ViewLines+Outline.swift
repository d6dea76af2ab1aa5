import FoundationEssentials
import Glibc

extension ViewLines {
    /// The outline position a view line shows after its cursor marker: "3" → [3], "1.2" → [1, 2]; nil for other
    /// lines (headers, blank lines, drawings). Items are the lines with one, in order.
    package static func itemPath(_ line: String) -> [Int]? {
        var scalars = Substring(line).unicodeScalars.drop { $0 == ">" || $0 == " " || $0 == "›" }
        var path: [Int] = []
        var digits = ""
        while let first = scalars.first {
            if ("0"..."9").contains(first), digits.count < 9 {
                digits.unicodeScalars.append(first)
            } else if first == ".", !digits.isEmpty, let number = Int(digits) {
                path.append(number); digits = ""
            } else {
                break
            }
            scalars = scalars.dropFirst()
        }
        guard !digits.isEmpty, let number = Int(digits), scalars.first == " " else { return nil }
        return path + [number]
    }

    /// The item layout of a whole view whose items are numbered ("1", "2", …) or outlined ("1", "1.1", "1.2", "2"):
    /// the lines after the header that show a position, up to the first that does not, with each one's position.
    package static func outlineLayout(_ lines: [String]) -> ItemLayout? {
        var header: Int?
        var paths: [[Int]] = []
        var titles: [String?] = []
        for (index, line) in lines.enumerated() {
            guard let path = itemPath(line) else { if header != nil { break } else { continue } }
            if header == nil { guard path == [1] else { continue }; header = index }
            paths.append(path)
            titles.append(itemTitle(line))
        }
        guard let header else { return nil }
        var layout = ItemLayout(count: paths.count, headerLines: header, paths: paths)
        layout.titles = titles
        return layout
    }

    /// The item (0-based) a view line shows, found by its position among `items`; nil for other lines.
    package static func itemIndex(_ line: String, in items: ItemLayout?) -> Int? {
        guard let path = itemPath(line) else { return nil }
        if let items, !items.paths.isEmpty { return items.paths.firstIndex(of: path) }
        return path.count == 1 ? path[0] - 1 : nil
    }
}
