import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore

/// The shape `template.json` must have: each key's JSON type, and which keys are required.
private enum ManifestSchema {
    enum Kind: String { case string, array, stringArray = "array of strings", object, bool, wholeNumber = "whole number", any }

    static let root: [(String, Kind, Bool)] = [
        ("id", .string, true), ("name", .string, true), ("summary", .string, false), ("version", .string, false),
        ("minFolioVersion", .string, false), ("contentType", .string, false), ("primaryFile", .string, false),
        ("variables", .array, false), ("exclude", .stringArray, false), ("copyOnly", .stringArray, false),
        ("tags", .stringArray, false),
        ("language", .string, false),
    ]
    static let variable: [(String, Kind, Bool)] = [
        ("name", .string, true), ("type", .string, true), ("prompt", .string, false), ("help", .string, false), ("default", .any, false),
        ("choices", .stringArray, false), ("pattern", .string, false), ("min", .wholeNumber, false), ("max", .wholeNumber, false),
        ("when", .string, false), ("secret", .bool, false), ("renamedFrom", .stringArray, false),
    ]

    static func matches(_ node: JSONNode, _ kind: Kind) -> Bool {
        switch (kind, node.kind) {
        case (.any, _), (.string, .string), (.array, .array), (.object, .object), (.bool, .bool): return true
        case let (.stringArray, .array(items)): return items.allSatisfy { if case .string = $0.kind { return true } else { return false } }
        case (.wholeNumber, .number): return node.wholeNumber != nil
        default: return false
        }
    }
}

extension TemplateLinter {
    static let manifestFile = "template.json"

    /// Checks the manifest's JSON, shape and values; returns it parsed when its shape allows (even with other errors).
    static func lintManifest(_ data: Data?, into findings: inout [TemplateLintFinding]) -> TemplateManifest? {
        func add(_ code: TemplateLintCode, _ node: JSONNode?, _ message: String) {
            findings.append(TemplateLintFinding(code, file: manifestFile, line: node?.line ?? 0, column: node?.column ?? 0, message))
        }
        func addAt(_ code: TemplateLintCode, _ line: Int, _ column: Int, _ message: String) {
            findings.append(TemplateLintFinding(code, file: manifestFile, line: line, column: column, message))
        }
        guard let data else {
            add(.manifestMissing, nil, "missing: a template is a folder holding template.json and files/")
            return nil
        }
        let root: JSONNode
        do { root = try JSONNode.parse(data) } catch let error as JSONPositionError {
            findings.append(TemplateLintFinding(.manifestInvalidJSON, file: manifestFile, line: error.line, column: error.column, error.message))
            return nil
        } catch {
            add(.manifestInvalidJSON, nil, TemplateError.oneLine(error))
            return nil
        }
        let before = findings.count
        checkShape(root, schema: ManifestSchema.root, what: "the manifest", add: add, addAt: addAt)
        if case let .array(variables)? = root["variables"]?.kind {
            for variable in variables { checkShape(variable, schema: ManifestSchema.variable, what: "a variable", add: add, addAt: addAt) }
        }
        guard findings.count == before else { return nil }
        let manifest: TemplateManifest
        do { manifest = try StrictJSON.decode(TemplateManifest.self, from: root, strictAt: []) } catch {
            add(.manifestRefused, nil, JSONKeys.describe(error))
            return nil
        }
        checkValues(manifest, root: root, add: add)
        checkDefaults(manifest, root: root, add: add)
        // Anything Folio itself would still refuse, said its own way (lint must never pass what instantiation refuses).
        if !findings.contains(where: { $0.severity == .error }) {
            do { _ = try TemplateManifest.parse(data, file: manifestFile) } catch let error as TemplateError {
                add(.manifestRefused, nil, error.message)
            } catch {
                add(.manifestRefused, nil, TemplateError.oneLine(error))
            }
        }
        return manifest
    }

    private static func checkShape(_ node: JSONNode, schema: [(String, ManifestSchema.Kind, Bool)], what: String,
                                   add: (TemplateLintCode, JSONNode?, String) -> Void, addAt: (TemplateLintCode, Int, Int, String) -> Void) {
        guard case let .object(members) = node.kind else {
            add(.wrongType, node, "\(what) must be a JSON object")
            return
        }
        let known = Dictionary(schema.map { ($0.0, $0.1) }, uniquingKeysWith: { a, _ in a })
        for member in members {
            guard let kind = known[member.key] else {
                let keys = schema.map(\.0).joined(separator: ", ")
                addAt(.unknownKey, member.keyLine, member.keyColumn, "unknown key '\(member.key)' in \(what) (known: \(keys))")
                continue
            }
            if !ManifestSchema.matches(member.value, kind) {
                add(.wrongType, member.value, "'\(member.key)' must be \(kind == .wholeNumber ? "a" : "a JSON") \(kind.rawValue)")
            }
        }
        for (key, _, required) in schema where required && node[key] == nil {
            add(.missingKey, node, "\(what) needs '\(key)'")
        }
        if what == "a variable", case let .string(type)? = node["type"]?.kind, TemplateVariableType(rawValue: type) == nil {
            add(.wrongType, node["type"], "type '\(type)' is not one of string, bool, int, choice, multichoice")
        }
    }

    private static func checkValues(_ manifest: TemplateManifest, root: JSONNode, add: (TemplateLintCode, JSONNode?, String) -> Void) {
        let idOK = !manifest.id.isEmpty && manifest.id.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { part in
            !part.isEmpty && part != "." && part != ".." && part.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) }
        }
        if !idOK { add(.invalidID, root["id"], "id '\(manifest.id)' must be words of letters, digits, '-', '_' or '.' separated by '/'") }
        if let version = manifest.version {
            if SemanticVersion(version) == nil { add(.invalidVersion, root["version"], "version '\(version)' is not a semantic version like 1.2.0") }
        } else {
            add(.noVersion, root, "no 'version': documents record it, and updates say which version they come from and go to")
        }
        if let minimum = manifest.minFolioVersion {
            if let needed = SemanticVersion(minimum) {
                if let running = SemanticVersion(FolioRelease.version), running < needed {
                    add(.newerFolio, root["minFolioVersion"], "needs Folio \(minimum); this Folio (\(FolioRelease.version)) cannot use it")
                }
            } else {
                add(.invalidVersion, root["minFolioVersion"], "minFolioVersion '\(minimum)' is not a semantic version like 0.1.0")
            }
        }
        var seen: Set<String> = []
        for (index, variable) in manifest.variables.enumerated() {
            let node = variableNode(root, index)
            if variable.name.isEmpty || !variable.name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) || variable.name.first?.isNumber == true {
                add(.invalidVariableName, node?["name"], "variable name '\(variable.name)' must be letters, digits and '_', not starting with a digit")
            }
            if !seen.insert(variable.name).inserted { add(.duplicateVariable, node?["name"], "variable '\(variable.name)' is declared twice") }
            let isChoice = variable.type == .choice || variable.type == .multichoice
            if isChoice, (variable.choices ?? []).isEmpty {
                add(.choicesMismatch, node, "variable '\(variable.name)' of type \(variable.type.rawValue) needs choices")
            } else if !isChoice, variable.choices != nil {
                add(.choicesMismatch, node?["choices"], "variable '\(variable.name)' of type \(variable.type.rawValue) has choices, which are never used")
            }
            if let pattern = variable.pattern {
                if (try? Regex("^(?:" + pattern + ")$")) == nil {
                    add(.invalidPattern, node?["pattern"], "variable '\(variable.name)': pattern '\(pattern)' is not a valid regular expression")
                } else if variable.type != .string {
                    add(.invalidPattern, node?["pattern"], "variable '\(variable.name)': a pattern applies to string variables only")
                }
            }
            if let min = variable.min, let max = variable.max, min > max {
                add(.minAboveMax, node?["min"], "variable '\(variable.name)': min \(min) is greater than max \(max): no answer fits")
            }
            if let when = variable.when {
                let earlier = manifest.variables.prefix(index).contains { $0.name == when }
                if !earlier {
                    let later = manifest.variables.contains { $0.name == when }
                    add(.whenNotEarlier, node?["when"], "variable '\(variable.name)': when '\(when)' " + (later ? "is declared later (or is itself); move it before" : "names no variable"))
                }
            }
        }
    }

    /// Each default must pass its own variable's check (a string default is first rendered over the earlier defaults).
    private static func checkDefaults(_ manifest: TemplateManifest, root: JSONNode, add: (TemplateLintCode, JSONNode?, String) -> Void) {
        let template = Template(manifest: manifest, path: "", source: TemplateSource(name: "lint", location: "lint"), commit: "", ref: nil, files: [])
        var answers = sampleContext
        for (index, variable) in manifest.variables.enumerated() {
            let node = variableNode(root, index)?["default"]
            guard variable.default != nil else { continue }
            let value: JSONValue?
            do { value = try template.defaultAnswer(for: variable, answers: answers) } catch {
                // A default that is not valid Mustache is reported with the tags (T201).
                continue
            }
            guard let value else { continue }
            let problem: String?
            if case let .string(text) = value, !text.isEmpty {
                problem = variable.problem(withAnswer: text)
            } else {
                do { _ = try variable.accept(value, template: ""); problem = nil } catch let error as TemplateError {
                    problem = error.message.dropping(prefix: "variable '\(variable.name)': ") ?? error.message
                } catch { problem = TemplateError.oneLine(error) }
            }
            if let problem {
                add(.badDefault, node, "variable '\(variable.name)': its default \(describe(value)) fails its own check: \(problem)")
            } else if let accepted = try? variable.accept(value, template: "") {
                answers[variable.name] = accepted
            }
        }
    }

    static func variableNode(_ root: JSONNode, _ index: Int) -> JSONNode? {
        guard case let .array(items)? = root["variables"]?.kind, index < items.count else { return nil }
        return items[index]
    }

    private static func describe(_ value: JSONValue) -> String {
        if case let .string(s) = value { return "'\(s)'" }
        return TemplateVariable.display(value)
    }
}
