import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioPlugins
import FolioTemplates

/// What the shell should offer for the word being completed: words (each with an optional description), and
/// whether file or folder names fit too (the shell completes those itself).
struct CompletionAnswer {
    enum Names: Equatable { case none, files, folders }
    var candidates: [(value: String, description: String)] = []
    var names: Names = .none

    /// The lines `folio __complete` prints: `:files` or `:folders` first when names fit, then `value<TAB>description`.
    var lines: [String] {
        var lines: [String] = []
        switch names {
        case .none: break
        case .files: lines.append(":files")
        case .folders: lines.append(":folders")
        }
        for candidate in candidates {
            let value = Self.oneLine(candidate.value)
            lines.append(candidate.description.isEmpty ? value : value + "\t" + Self.oneLine(candidate.description))
        }
        return lines
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    }
}

/// The kind of value a usage placeholder (`PATH`, `REV_A`, `ID`…) or an option stands for.
enum CompletionValue: Equatable, Sendable {
    case literal(String)
    case document, revision, file, templateID, pluginID, editorID, editorCommand, sourceName, choices([String]), nothing
}

/// Completes `folio` command lines from the commands' declared forms (`CommandForm`, one source of truth with
/// `--help`, parsing and the man page), calling into the template, plugin and document modules for ids and revisions.
struct Completer {
    let commands: [Command]
    let io: CommandIO

    /// The answer for `words` (the words after `folio`; the last one is the word being completed, maybe empty).
    func complete(_ words: [String]) -> CompletionAnswer {
        guard let current = words.last else { return CompletionAnswer() }
        if words.count == 1 {
            if current.hasPrefix("-") { return matching(current, [("--help", "Show the commands"), ("--version", "Show the versions")]) }
            return matching(current, commands.map { ($0.name, $0.summary) })
        }
        guard let command = commands.first(where: { $0.name == words[0] }) else { return CompletionAnswer() }
        let typed = Array(words.dropFirst().dropLast())
        if let previous = typed.last, command.options.contains(previous) {
            return answer(for: Self.optionValue(previous), current: current, positionals: positionals(typed, command))
        }
        let done = positionals(typed, command)
        let everyName = command.options.union(command.flags)
        let lenient = command.forms.filter {
            $0.fit(positionals: done, names: everyName, verbMayBeMissing: { _ in true }, isVerb: command.forms.isVerb) != nil
        }
        // A selecting option typed (`sync --watch`): only the forms it selects.
        let typedNames = Set(typed.filter { $0.hasPrefix("-") }.map { String($0.prefix { $0 != "=" }) })
        let selected = lenient.filter { form in
            form.options.contains(where: \.isRequired)
                && form.fit(positionals: done, names: typedNames, verbMayBeMissing: { _ in true }, isVerb: command.forms.isVerb) != nil
        }
        let fitting = selected.isEmpty ? lenient : selected
        if current.hasPrefix("-") {
            return matching(current, fitting.reduce(into: Set<String>()) { $0.formUnion($1.accepted) }.sorted().map { ($0, "") })
        }
        var answer = CompletionAnswer()
        for value in Self.positionalValues(fitting, command: command.name, typed: done) {
            let part = self.answer(for: value, current: current, positionals: done)
            answer.candidates += part.candidates.filter { new in !answer.candidates.contains { $0.value == new.value } }
            if part.names != .none { answer.names = answer.names == .files ? .files : part.names }
        }
        return answer
    }

    /// The positional words already typed (options and their values left out).
    func positionals(_ typed: [String], _ command: Command) -> [String] {
        var result: [String] = []
        var index = 0
        while index < typed.count {
            let word = typed[index]
            index += 1
            if word.hasPrefix("-") && word.count > 1 {
                if command.options.contains(word) { index += 1 }
                continue
            }
            result.append(word)
        }
        return result
    }

    private func matching(_ current: String, _ all: [(String, String)]) -> CompletionAnswer {
        CompletionAnswer(candidates: all.filter { $0.0.hasPrefix(current) }.map { (value: $0.0, description: $0.1) })
    }

    private func answer(for value: CompletionValue, current: String, positionals: [String]) -> CompletionAnswer {
        switch value {
        case let .literal(word): return matching(current, [(word, "")])
        case let .choices(words): return matching(current, words.map { ($0, "") })
        case .document: return CompletionAnswer(names: .folders)
        case .file: return CompletionAnswer(names: .files)
        case .nothing: return CompletionAnswer()
        case .templateID: return matching(current, templateIDs())
        case .pluginID: return matching(current, pluginHost(io).plugins.map { ($0.manifest.id, $0.manifest.name) })
        case .editorID: return matching(current, pluginHost(io).editors.map { ($0.editor.id, $0.editor.name) })
        case .sourceName:
            return matching(current, ((try? TemplateSource.configured(environment: io.environment)) ?? []).map { ($0.name, $0.location) })
        case .revision:
            guard let path = positionals.first else { return CompletionAnswer() }
            return matching(current, revisions(path))
        case .editorCommand:
            guard let path = positionals.first else { return CompletionAnswer() }
            return matching(current, editorCommands(path))
        }
    }

    /// Template ids of every configured source, from the cache only (completion never fetches).
    private func templateIDs() -> [(String, String)] {
        guard let sources = try? TemplateSource.configured(environment: io.environment),
              let resolver = try? templateResolver(io, offline: true),
              let events = try? waitFor({ await resolver.update(sources) }) else { return [] }
        return events.flatMap { event -> [(String, String)] in
            guard case let .resolved(source) = event else { return [] }
            return source.templates.map { ($0.id, $0.name) }
        }
    }

    /// Tags, HEAD and the newest versions of the document at `path` (as `@N` and short ids with their summaries).
    private func revisions(_ path: String) -> [(String, String)] {
        guard let document = try? openDocument(path, io, readOnly: true), let log = try? document.log(limit: 20) else { return [] }
        var result: [(String, String)] = [("HEAD", log.first?.summary ?? "")]
        for tag in (try? document.tags()) ?? [] { result.append((tag.name, "tag")) }
        for entry in log { result.append((entry.shortID, entry.summary)) }
        return result
    }

    /// The commands of the editor that would open the document at `path`.
    private func editorCommands(_ path: String) -> [(String, String)] {
        guard let document = try? openDocument(path, io, readOnly: true),
              let settings = try? Settings.load(environment: io.environment),
              let editor = try? pluginHost(io).chooseEditor(for: document, associations: settings.editorAssociations) else { return [] }
        return editor.commands.map { ($0.id, $0.title) }
    }

    /// What an option's value is.
    static func optionValue(_ option: String) -> CompletionValue {
        switch option {
        case "--template": return .templateID
        case "--editor": return .editorID
        case "--source": return .sourceName
        case "--since", "--at": return .revision
        case "--data", "--partials", "--config", "--from", "--file": return .file
        case "--replay": return .document
        case "--keep": return .choices(["local", "remote"])
        case "--all": return .choices(["mine", "theirs"])
        case "--conflict": return .choices(["abort", "markers"])
        default: return .nothing
        }
    }

    /// What may come at the next positional, from each form that agrees with the words typed so far (a repeated
    /// placeholder such as `PATH...` stays next).
    static func positionalValues(_ forms: [CommandForm], command: String, typed: [String]) -> [CompletionValue] {
        var values: [CompletionValue] = []
        for form in forms {
            var rest = form.positionals[...]
            var index = 0
            var next: CommandForm.Positional?
            while let positional = rest.first {
                if index == typed.count { next = positional; break }
                guard positional.accepts(typed[index]) else { break }
                index += 1
                if !positional.isRepeated { rest.removeFirst() }
            }
            guard let next else { continue }
            let value = !next.isLiteral ? placeholder(next.name, command: command)
                : next.name.contains("|") ? CompletionValue.choices(next.name.split(separator: "|").map(String.init)) : .literal(next.name)
            if !values.contains(value) { values.append(value) }
        }
        return values
    }

    private static func placeholder(_ name: String, command: String) -> CompletionValue {
        if name == "PATH" || name == "DOC" || name == "DIR" { return .document }
        if name == "PACKAGE" { return .file }
        if name.hasPrefix("REV") { return .revision }
        if name == "ID" { return command == "plugins" ? .pluginID : command == "templates" ? .templateID : .nothing }
        if name == "COMMAND" { return .editorCommand }
        if name.hasPrefix("FILE") || name.hasSuffix("_FILE") { return .file }
        return .nothing
    }
}
