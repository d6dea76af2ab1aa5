import FolioLaunch
import FolioPlugins

extension DocumentSessionAdapter {
    /// The editor's current values for a command's form (`folio.argument-values/1`), at the version the form acts on.
    /// A plugin failure or a malformed answer is `.ignored` with its reason (the form keeps what the host filled in).
    func argumentValues(command: String, base: String?, selection: ViewSelection?) -> ArgumentValuesAnswer {
        guard let editorManifest else { return .none }
        do {
            let values = try locked {
                try host.argumentValues(document: document, command: command, base: base, selection: selection ?? ViewSelection(),
                                        associations: associations, editor: editorManifest.id)
            }
            return values.map(ArgumentValuesAnswer.values) ?? .none
        } catch {
            return .ignored(FolioCommandLine.oneLine(error))
        }
    }
}
