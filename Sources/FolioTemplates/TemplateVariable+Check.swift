import FoundationEssentials
import Glibc
import FolioCore

extension TemplateVariable {
    /// The problem with `text` typed as this variable's answer (in a form or a prompt), nil when it is acceptable.
    /// The same check as `accept(_:template:)` (one validation for `--set`, prompts and the launcher's form); an empty
    /// answer is acceptable when the variable has a default, which then applies.
    public func problem(withAnswer text: String) -> String? {
        if text.isEmpty, self.default != nil || type == .bool { return nil }
        do {
            _ = try accept(.string(text), template: "")
            return nil
        } catch let error as TemplateError {
            let prefix = "variable '\(name)': "
            return error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
        } catch {
            return "\(error)"
        }
    }
}
