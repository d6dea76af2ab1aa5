import FoundationEssentials
import Glibc
import FolioCore
import FolioPlugins

/// The semantic diff from the document's editor plugin, when it has one.
func semanticDiff(document: Document, from a: String?, to b: String?, io: CommandIO) throws -> String? {
    let settings = try Settings.load(environment: io.environment)
    return try EditorRegistry(environment: io.environment).semanticDiff(document: document, from: a, to: b, associations: settings.editorAssociations)
}

/// The semantic diff for `folio diff --semantic`, or nil — with a note on standard error saying why — when the text
/// diff must be shown instead: the editor has no semantic diff, no editor opens the document, or it is quarantined.
func semanticDiffOrFallback(document: Document, from a: String?, to b: String?, io: CommandIO) throws -> String? {
    let why: String
    do {
        if let diff = try semanticDiff(document: document, from: a, to: b, io: io) { return diff }
        why = "this document's editor has no semantic diff"
    } catch let error as PluginQuarantinedError {
        why = "\(error)"
    } catch let error as PluginError {
        guard case .noEditor = error else { throw error }
        why = "\(error)"
    }
    io.error("folio diff: \(why); showing the text diff")
    return nil
}

/// `folio new PATH --template ID …`: instantiation from a template.
func newFromTemplate(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    try instantiateTemplate(args, io)
}
