import FolioCore
import Foundation

/// Drawings: one list of shapes in stacking order, each with the fields the shapes editor merges one by one: kind,
/// position (x and y, one move), size (w and h, one resize) and colour.
package struct ShapesReplicaFormat: ReplicaFormat {
    package init() {}
    package var name: String { "shapes" }
    package var contentType: ContentType { "org.folio.shapes" }
    package var oldDocument: String {
        """
        {"shapes": [
          {"kind": "rect", "x": 0, "y": 0, "w": 6, "h": 3, "color": "red"},
          {"kind": "ellipse", "x": 8, "y": 0, "w": 7, "h": 5, "color": "blue"},
          {"kind": "rect", "x": 2, "y": 6, "w": 4, "h": 4, "color": "green"}
        ]}

        """
    }

    private static let colours = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]

    package func model(_ bytes: [UInt8]) -> ModelDocument? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { return nil }
        var items: [ModelList.Item] = []
        for case let shape as [String: Any] in object["shapes"] as? [Any] ?? [] {
            guard let id = shape["id"] as? String else { return nil }
            func text(_ key: String) -> String { shape[key].map { "\($0)" } ?? "-" }
            items.append(.init(id: id, fields: [
                "kind": text("kind"), "position": text("x") + "," + text("y"), "size": text("w") + "x" + text("h"), "colour": text("color"),
            ]))
        }
        return ModelDocument(lists: ["shapes": ModelList(items: items)])
    }

    package func command(on document: ModelDocument, name: String, random: inout SeededRandom) -> [String] {
        let count = document["shapes"].items.count
        let n = String(random.int(below: count) + 1)
        func number(_ range: ClosedRange<Int>, _ random: inout SeededRandom) -> String { String(range.lowerBound + random.int(below: range.count)) }
        switch count == 0 ? 0 : random.int(below: 10) {
        case 0, 1, 2:
            return ["add", random.pick(["rect", "ellipse"]), number(-20...60, &random), number(-10...30, &random),
                    number(1...12, &random), number(1...8, &random), random.pick(Self.colours)]
        case 3, 4, 5: return ["move", n, number(-20...60, &random), number(-10...30, &random)]
        case 6: return ["resize", n, number(1...12, &random), number(1...8, &random)]
        case 7, 8: return ["color", n, random.pick(Self.colours)]
        default: return ["delete", n]
        }
    }
}
