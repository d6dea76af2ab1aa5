import Foundation
import FolioCore
import FolioPlugins

/// The semantic diff from the document's editor plugin, when it has one.
func semanticDiff(document: Document, from a: String?, to b: String?, io: CommandIO) throws -> String? {
    let settings = try Settings.load(environment: io.environment)
    return try PluginHost(environment: io.environment).semanticDiff(document: document, from: a, to: b, associations: settings.editorAssociations)
}

/// `folio new PATH --template ID …`: instantiation from a template.
func newFromTemplate(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    try instantiateTemplate(args, io)
}

/// The interactive launcher and editor host (wired when templates and plugins are in).
func runInteractive(configPath: String?, scene: String?, open: String?, io: CommandIO) throws -> Int32 {
    throw FolioError.invalidRequest("the interactive launcher is not available yet; use folio launch --render")
}
