import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioLaunch
import FolioTemplates
import Synchronization

/// The configured template sources as the launcher's picker sees them: each source resolves on its own (the launcher
/// asks for all of them concurrently), a failing one throws its one-line reason without holding up the others, and
/// each template's variables and files are loaded for the preview and the form. Resolved templates are kept so that
/// instantiating the picked one needs no second fetch.
final class TemplateCatalogAdapter: TemplateCatalog, Sendable {
    let resolver: TemplateResolver
    private let sources: [TemplateSource]
    private let configurationError: (any Error)?
    private let loaded = Mutex<[String: Template]>([:])

    init(environment: [String: String], offline: Bool = false) {
        resolver = TemplateResolver(environment: environment, offline: offline)
        do {
            sources = try TemplateSource.configured(environment: environment)
            configurationError = nil
        } catch {
            sources = []
            configurationError = error
        }
    }

    func sourceNames() -> [String] {
        configurationError == nil ? sources.map(\.name) : ["settings"]
    }

    func templates(in name: String) async throws -> [FolioLaunch.TemplateSummary] {
        try await templates(in: name) { _ in }
    }

    /// Resolves one source, saying which URL it fetches and then how many objects and bytes have arrived.
    func templates(in name: String, progress: @escaping @Sendable (String) -> Void) async throws -> [FolioLaunch.TemplateSummary] {
        if let configurationError { throw configurationError }
        guard let source = sources.first(where: { $0.name == name }) else {
            throw FolioError.unknownTemplateSource(name)
        }
        if source.isRemote { progress("fetching \(source.location)") }
        let resolved = try await resolver.resolve(source) {
            progress("\($0.receivedObjects)/\($0.totalObjects) objects, \($0.receivedBytes / 1024) KiB")
        }
        var summaries: [FolioLaunch.TemplateSummary] = []
        for summary in resolved.templates {
            try Task.checkCancellation()
            let template = try? await resolver.template(summary.id, in: resolved)
            if let template { remember(template) }
            summaries.append(Self.summary(summary, template: template))
        }
        return summaries
    }

    private func remember(_ template: Template) {
        loaded.withLock { loaded in
            if loaded[template.manifest.id] == nil { loaded[template.manifest.id] = template }
        }
    }

    /// The template with `id`: the one the picker showed, else found in the configured sources.
    func template(_ id: String) async throws -> Template {
        let known = loaded.withLock { $0[id] }
        if let known { return known }
        return try await resolver.findTemplate(id, in: sources, progress: nil)
    }

    static func summary(_ summary: FolioTemplates.TemplateSummary, template: Template?) -> FolioLaunch.TemplateSummary {
        FolioLaunch.TemplateSummary(
            id: summary.id, name: summary.name, group: summary.group ?? "",
            contentType: ContentType(summary.contentType ?? template?.manifest.contentType ?? ContentType.plainText.identifier),
            summary: summary.summary ?? template?.manifest.summary ?? "",
            variables: formVariables(template),
            files: template?.files.map { FolioLaunch.TemplateSummary.readablePath($0.path) } ?? [],
            liveCheck: liveCheck(template))
    }

    /// The questions the form asks: those without a condition; for a cookiecutter or copier template, each with the
    /// default its tool would compute (over the other defaults), and without those a copier `when` leaves unasked.
    static func formVariables(_ template: Template?) -> [FolioLaunch.TemplateVariable] {
        guard let template else { return [] }
        let computed = template.computedDefaults(context: foreignContext)
        // A copier template's form checks itself as it is filled in (`liveCheck`): every question is there, shown
        // while its `when` holds.
        let live = template.copier != nil
        return template.manifest.variables.filter { $0.when == nil && (live || !(computed?.hidden.contains($0.name) ?? false)) }.map { declared in
            var shown = variable(declared)
            if let text = computed?.defaults[declared.name] { shown.defaultValue = text; shown.required = false }
            return shown
        }
    }

    /// A copier template's check of its form as it is filled in (`when`, `validator`, defaults over the answers).
    static func liveCheck(_ template: Template?) -> LiveFormCheck? {
        guard let template, template.copier != nil else { return nil }
        return LiveFormCheck { values in template.formCheck(given: values.mapValues(JSONValue.string), context: foreignContext) }
    }

    /// The context computed defaults of a form are shown in (the destination is not chosen yet).
    static let foreignContext: [String: JSONValue] = ["folder_name": .string("project")]

    /// A template variable as the form asks it: yes/no for booleans, the choices for a choice, text otherwise.
    /// A default that is a Mustache expression is left empty (the template computes it).
    static func variable(_ variable: FolioTemplates.TemplateVariable) -> FolioLaunch.TemplateVariable {
        var defaultText = ""
        switch variable.default {
        case let .string(text)?: defaultText = text.contains("{{") ? "" : text
        case let .bool(flag)?: defaultText = flag ? "yes" : "no"
        case let .number(number)?: defaultText = number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        default: break
        }
        var choices: [String] = []
        switch variable.type {
        case .bool: choices = ["no", "yes"]; if defaultText.isEmpty { defaultText = "no" }
        case .choice: choices = variable.choices ?? []
        default: break
        }
        var prompt = variable.question
        if variable.type == .multichoice, let options = variable.choices { prompt += " (\(options.joined(separator: ", ")))" }
        return FolioLaunch.TemplateVariable(name: variable.name, prompt: prompt, defaultValue: defaultText, choices: choices,
                                            required: variable.default == nil && variable.type == .string,
                                            pattern: variable.type == .string ? variable.pattern : nil, declaration: variable)
    }

    /// The form's answers as the template takes them: an emptied field is an empty answer, never the hidden default
    /// (a field left as it opened holds the default itself).
    ///
    /// For a cookiecutter or copier template a field still holding its computed default is left out, so that it is
    /// computed again over the answers given (a slug follows the name typed).
    static func answers(_ form: [String: String], for template: Template) -> [String: JSONValue] {
        var given: [String: JSONValue] = [:]
        let computed = template.computedDefaults(context: foreignContext)?.defaults
        for variable in template.manifest.variables {
            guard let text = form[variable.name] else { continue }
            if let computed, computed[variable.name] == text { continue }
            given[variable.name] = .string(text)
        }
        return given
    }
}

/// A template source checked from the settings screen that is not a template repository.
struct SourceCheckFailure: Error, CustomStringConvertible {
    let url: String
    let why: String
    var description: String { why }
}

extension TemplateCatalogAdapter {
    /// Resolves the source as the picker would (fetching a remote one into the cache) and counts its templates; a
    /// source that resolves to no template is not a template repository.
    func checkSource(name: String, url: String, ref: String?) async throws -> String? {
        var location = url
        if location == "~" || location.hasPrefix("~/"), let home = resolver.environment["HOME"] { location = home + location.dropFirst() }
        let resolved: ResolvedSource
        do { resolved = try await resolver.resolve(TemplateSource(name: name, location: location, ref: ref)) } catch {
            // The screen names the source already: its name is not said twice ("team: could not be read: team: …").
            let text = "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
            let why = text.hasPrefix(name + ": ") ? String(text.dropFirst(name.count + 2)) : text
            throw SourceCheckFailure(url: url, why: "could not be read: " + why)
        }
        let count = resolved.templates.count
        guard count > 0 else { throw SourceCheckFailure(url: url, why: "holds no template (no template.json found)") }
        return count == 1 ? "1 template" : "\(count) templates"
    }
}
