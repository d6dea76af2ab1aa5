import FolioCore
import Foundation

/// Checklists: one list of items, each with a title and a checked mark.
package struct ChecklistReplicaFormat: ReplicaFormat {
    package init() {}
    package var name: String { "checklist" }
    package var contentType: ContentType { "org.folio.checklist" }
    package var oldDocument: String {
        #"{"title": "Groceries", "items": [{"title": "Milk", "checked": false}, {"title": "Eggs", "checked": false}, {"title": "Bread", "checked": true}, {"title": "Milk", "checked": false}]}"# + "\n"
    }

    package func model(_ bytes: [UInt8]) -> ModelDocument? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { return nil }
        var items: [ModelList.Item] = []
        for case let entry as [String: Any] in object["items"] as? [Any] ?? [] {
            guard let id = entry["id"] as? String, let title = entry["title"] as? String else { return nil }
            let checked = (entry["checked"] as? Bool) ?? false
            items.append(.init(id: id, fields: ["title": title, "checked": checked ? "true" : "false"]))
        }
        return ModelDocument(lists: ["items": ModelList(items: items)])
    }

    package func command(on document: ModelDocument, name: String, random: inout SeededRandom) -> [String] {
        let count = document["items"].items.count
        let pick = { (random: inout SeededRandom) in String(random.int(below: count) + 1) }
        switch count == 0 ? 0 : random.int(below: 10) {
        case 0, 1, 2: return ["add", name]
        case 3, 4: return ["rename", pick(&random), name]
        case 5, 6: return ["toggle", pick(&random)]
        case 7: return ["delete", pick(&random)]
        default: return ["move", pick(&random), pick(&random)]
        }
    }
}
