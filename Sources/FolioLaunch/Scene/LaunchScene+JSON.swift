import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioTerminal

/// A problem in a launch.json: the file, the key path, the line and column, and what is wrong — printed as one line.
package struct LaunchConfigError: Error, CustomStringConvertible, Equatable {
    package let file: String
    package let key: String
    package let line: Int
    package let column: Int
    package let message: String
    package var description: String { "\(file):\(line):\(column): \(key.isEmpty ? "" : "\(key): ")\(message)" }
}

extension LaunchScene {
    /// Parses a launch.json. Banner `file`s are read relative to `baseDirectory`; `file` names the source in errors.
    package static func parse(json data: Data, file: String, baseDirectory: URL?) throws -> LaunchScene {
        let root: JSONNode
        do { root = try JSONNode.parse(data) } catch let error as JSONPositionError {
            throw LaunchConfigError(file: file, key: "", line: error.line, column: error.column, message: error.message)
        }
        var reader = SceneReader(file: file, baseDirectory: baseDirectory)
        return try reader.scene(root)
    }

    /// Loads a launch.json from disk.
    package static func load(from url: URL) throws -> LaunchScene {
        guard let data = try ConfigFile.read(url) else {
            throw FolioError.unreadableFile(path: url.path, reason: "no such file")
        }
        return try parse(json: data, file: url.path, baseDirectory: url.deletingLastPathComponent())
    }
}

/// Reads the positioned JSON tree into a scene, failing with the key path, line and column.
struct SceneReader {
    let file: String
    let baseDirectory: URL?

    typealias Member = (key: String, keyLine: Int, keyColumn: Int, value: JSONNode)

    func fail(_ node: JSONNode, _ path: String, _ message: String) -> LaunchConfigError {
        LaunchConfigError(file: file, key: path, line: node.line, column: node.column, message: message)
    }

    func members(_ node: JSONNode, _ path: String, allowed: Set<String>, required: Set<String> = []) throws -> [String: JSONNode] {
        guard case let .object(list) = node.kind else { throw fail(node, path, "expected an object") }
        var result: [String: JSONNode] = [:]
        for member in list {
            let memberPath = path.isEmpty ? member.key : "\(path).\(member.key)"
            guard allowed.contains(member.key) else {
                throw LaunchConfigError(file: file, key: memberPath, line: member.keyLine, column: member.keyColumn,
                                        message: "unknown key (expected one of: \(allowed.sorted().joined(separator: ", ")))")
            }
            if result[member.key] != nil {
                throw LaunchConfigError(file: file, key: memberPath, line: member.keyLine, column: member.keyColumn, message: "duplicate key")
            }
            result[member.key] = member.value
        }
        for key in required.sorted() where result[key] == nil {
            throw fail(node, path, "missing required key '\(key)'")
        }
        return result
    }

    func string(_ node: JSONNode, _ path: String, allowEmpty: Bool = false) throws -> String {
        guard case let .string(value) = node.kind else { throw fail(node, path, "expected a string") }
        if !allowEmpty, value.trimming(.whitespaces).isEmpty { throw fail(node, path, "must not be empty") }
        return value
    }

    func int(_ node: JSONNode, _ path: String, range: ClosedRange<Int>) throws -> Int {
        guard let whole = node.wholeNumber, range.contains(whole) else {
            throw fail(node, path, "expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return whole
    }

    func strings(_ node: JSONNode, _ path: String) throws -> [String] {
        guard case let .array(items) = node.kind else { throw fail(node, path, "expected an array of strings") }
        return try items.enumerated().map { try string($0.element, "\(path)[\($0.offset)]") }
    }

    func color(_ node: JSONNode, _ path: String) throws -> TerminalColor {
        let text = try string(node, path)
        guard let color = TerminalColor(parsing: text) else {
            throw fail(node, path, "'\(text)' is not a color (use a name such as 'green' or 'bright-blue', or '#rrggbb')")
        }
        return color
    }

    mutating func scene(_ root: JSONNode) throws -> LaunchScene {
        let top = try members(root, "", allowed: ["title", "subtitle", "actions", "banners", "background", "recent", "footer", "documentsFolder", "$schema"],
                              required: ["title", "actions"])
        var scene = LaunchScene(title: try string(top["title"] ?? root, "title"), actions: [])
        if let node = top["subtitle"] { scene.subtitle = try string(node, "subtitle", allowEmpty: true) }
        if let node = top["footer"] { scene.footer = try string(node, "footer", allowEmpty: true) }
        if let node = top["documentsFolder"] { scene.documentsFolder = try string(node, "documentsFolder") }
        guard let actionsNode = top["actions"], case let .array(actionNodes) = actionsNode.kind else {
            throw fail(top["actions"] ?? root, "actions", "expected an array of actions")
        }
        if actionNodes.isEmpty { throw fail(actionsNode, "actions", "at least one action is needed") }
        var keyNodes: [Int: JSONNode] = [:]
        for (index, node) in actionNodes.enumerated() {
            let (action, keyNode) = try self.action(node, "actions[\(index)]")
            scene.actions.append(action)
            keyNodes[index] = keyNode
        }
        if let problem = scene.shortcutProblems().first {
            throw fail(keyNodes[problem.index] ?? actionNodes[problem.index], "actions[\(problem.index)].key", problem.message)
        }
        if let node = top["banners"] {
            guard case let .array(items) = node.kind else { throw fail(node, "banners", "expected an array of banners") }
            scene.banners = try items.enumerated().map { try banner($0.element, "banners[\($0.offset)]") }
        }
        if let node = top["background"] { scene.background = try background(node, "background") }
        if let node = top["recent"] {
            let fields = try members(node, "recent", allowed: ["count", "pinned"])
            if let count = fields["count"] { scene.recent.count = try int(count, "recent.count", range: 0...100) }
            if let pinned = fields["pinned"] { scene.recent.pinned = try strings(pinned, "recent.pinned") }
        }
        return scene
    }

    func action(_ node: JSONNode, _ path: String) throws -> (LaunchAction, JSONNode?) {
        let kinds = ["new-document": ["contentType"], "choose-template": ["group", "contentType"], "open-recent": [],
                     "open": ["path"], "command": ["run"]]
        let common: Set<String> = ["kind", "label", "key"]
        let all = common.union(kinds.values.flatMap { $0 })
        let fields = try members(node, path, allowed: all, required: ["kind", "label"])
        let kindNode = fields["kind"] ?? node
        let kindName = try string(kindNode, "\(path).kind")
        guard let extra = kinds[kindName] else {
            throw fail(kindNode, "\(path).kind", "unknown action kind '\(kindName)' (expected one of: \(kinds.keys.sorted().joined(separator: ", ")))")
        }
        if case let .object(list) = node.kind, let stray = list.first(where: { !common.contains($0.key) && !extra.contains($0.key) }) {
            throw LaunchConfigError(file: file, key: "\(path).\(stray.key)", line: stray.keyLine, column: stray.keyColumn,
                                    message: "not allowed for an action of kind '\(kindName)'")
        }
        let label = try string(fields["label"] ?? node, "\(path).label")
        var key: Character?
        if let keyNode = fields["key"] {
            let text = try string(keyNode, "\(path).key")
            guard text.count == 1, let character = text.first, DisplayWidth.width(of: text) == 1 else {
                throw fail(keyNode, "\(path).key", "a shortcut is a single printable character, not '\(text)'")
            }
            key = character
        }
        let kind: LaunchAction.Kind
        switch kindName {
        case "new-document":
            guard let typeNode = fields["contentType"] else { throw fail(node, path, "missing required key 'contentType'") }
            kind = .newDocument(contentType: ContentType(try string(typeNode, "\(path).contentType")))
        case "choose-template":
            kind = .chooseTemplate(group: try fields["group"].map { try string($0, "\(path).group") },
                                   contentType: try fields["contentType"].map { ContentType(try string($0, "\(path).contentType")) })
        case "open-recent": kind = .openRecent
        case "open": kind = .open(path: try fields["path"].map { try string($0, "\(path).path") })
        default:
            guard let runNode = fields["run"] else { throw fail(node, path, "missing required key 'run'") }
            let run = try strings(runNode, "\(path).run")
            if run.isEmpty { throw fail(runNode, "\(path).run", "name the folio subcommand to run, e.g. [\"templates\", \"update\"]") }
            kind = .command(run)
        }
        return (LaunchAction(kind, label: label, key: key), fields["key"])
    }

    func banner(_ node: JSONNode, _ path: String) throws -> Banner {
        let fields = try members(node, path, allowed: ["text", "file", "color", "anchor"])
        var banner = Banner(lines: [])
        switch (fields["text"], fields["file"]) {
        case let (text?, nil):
            banner.lines = Self.lines(try string(text, "\(path).text"))
        case let (nil, fileNode?):
            let name = try string(fileNode, "\(path).file")
            let url = name.hasPrefix("/") ? URL(fileURLWithPath: name)
                : (baseDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).appendingPathComponent(name)
            let found: Data?
            do { found = try ConfigFile.read(url) } catch { throw fail(fileNode, "\(path).file", "\(error)") }
            guard let data = found else { throw fail(fileNode, "\(path).file", "cannot read '\(url.path)'") }
            banner.lines = Self.lines(String(decoding: data, as: UTF8.self))
        case (.some, .some): throw fail(node, path, "give either 'text' or 'file', not both")
        case (nil, nil): throw fail(node, path, "a banner needs 'text' or 'file'")
        }
        if let colorNode = fields["color"] { banner.color = try color(colorNode, "\(path).color") }
        if let anchorNode = fields["anchor"] {
            let anchor = try members(anchorNode, "\(path).anchor", allowed: ["x", "y", "dx", "dy"])
            if let xNode = anchor["x"] {
                let text = try string(xNode, "\(path).anchor.x")
                guard let value = AnchorX(rawValue: text) else {
                    throw fail(xNode, "\(path).anchor.x", "'\(text)' is not one of \(AnchorX.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                banner.anchor.x = value
            }
            if let yNode = anchor["y"] {
                let text = try string(yNode, "\(path).anchor.y")
                guard let value = AnchorY(rawValue: text) else {
                    throw fail(yNode, "\(path).anchor.y", "'\(text)' is not one of \(AnchorY.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                banner.anchor.y = value
            }
            if let dx = anchor["dx"] { banner.anchor.dx = try int(dx, "\(path).anchor.dx", range: -500...500) }
            if let dy = anchor["dy"] { banner.anchor.dy = try int(dy, "\(path).anchor.dy", range: -500...500) }
        }
        return banner
    }

    /// Text split into lines, tabs expanded, a final newline and trailing spaces dropped.
    static func lines(_ text: String) -> [String] {
        var lines = text.replacing("\r\n", with: "\n").replacing("\t", with: "    ")
            .split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                var line = String(line)
                while line.last == " " { line.removeLast() }
                return line
            }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    func background(_ node: JSONNode, _ path: String) throws -> LaunchBackground {
        let fields = try members(node, path, allowed: ["kind", "color", "from", "to", "text"], required: ["kind"])
        let kindNode = fields["kind"] ?? node
        let kind = try string(kindNode, "\(path).kind")
        let allowedByKind: [String: Set<String>] = ["none": [], "color": ["color"], "gradient": ["from", "to"], "pattern": ["text", "color"]]
        guard let allowed = allowedByKind[kind] else {
            throw fail(kindNode, "\(path).kind", "unknown background kind '\(kind)' (expected one of: color, gradient, none, pattern)")
        }
        if case let .object(list) = node.kind, let stray = list.first(where: { $0.key != "kind" && !allowed.contains($0.key) }) {
            throw LaunchConfigError(file: file, key: "\(path).\(stray.key)", line: stray.keyLine, column: stray.keyColumn,
                                    message: "not allowed for a background of kind '\(kind)'")
        }
        func need(_ key: String) throws -> JSONNode {
            guard let value = fields[key] else { throw fail(node, path, "missing required key '\(key)'") }
            return value
        }
        switch kind {
        case "color": return .color(try color(need("color"), "\(path).color"))
        case "gradient": return .gradient(from: try color(need("from"), "\(path).from"), to: try color(need("to"), "\(path).to"))
        case "pattern":
            let text = try string(need("text"), "\(path).text", allowEmpty: true)
            if DisplayWidth.width(of: text) == 0 { throw fail(fields["text"] ?? node, "\(path).text", "the pattern must show at least one character") }
            return .pattern(text, color: try fields["color"].map { try color($0, "\(path).color") } ?? .default)
        default: return .none
        }
    }
}
