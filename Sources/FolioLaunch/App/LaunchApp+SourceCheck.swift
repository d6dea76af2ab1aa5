import FoundationEssentials
import Glibc

extension LaunchApp {
    /// Checks a template source being added in Settings off the UI thread; the result comes back through the mailbox
    /// (a catalog that cannot check sources leaves it unchecked).
    static func checkSource(_ check: SourceCheck, catalog: any TemplateCatalog, mailbox: Mailbox) {
        Task {
            var result = check
            do {
                result.state = try await catalog.checkSource(name: check.name, url: check.url, ref: check.ref).map(SourceCheck.State.found) ?? .unchecked
            } catch {
                result.state = .failed(oneLine(error))
            }
            mailbox.post(.sourceChecked(result))
        }
    }
}
