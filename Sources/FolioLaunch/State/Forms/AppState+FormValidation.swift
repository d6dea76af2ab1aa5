import FoundationEssentials
import Glibc
import FolioCore

// Checking each form field and each command argument as it is left, and going back to the form or the prompt with
// every value kept when the final action fails.

extension FormState {
    /// Checks the focused field as it is left: the problem stays on the field, the value is kept. True when acceptable.
    @discardableResult
    mutating func checkFocused() -> Bool {
        guard fields.indices.contains(focus) else { return true }
        fields[focus].message = Self.validate(fields[focus])
        return fields[focus].message == nil
    }

    /// Moves the focus by `step` after checking the field being left: forward stops on a field with a problem,
    /// backward moves on (the problem stays shown on the field).
    mutating func move(by step: Int) {
        let acceptable = checkFocused()
        if step > 0, !acceptable { return }
        focus = min(max(0, fields.count - 1), max(0, focus + step))
    }

    /// The field a failure is about: the variable it names ("variable 'year': …"), else the last field (the
    /// destination, the path or the tag name).
    func fieldIndex(for failure: String) -> Int? {
        if let named = fields.indices.first(where: { failure.contains("variable '\(fields[$0].name)'") }) { return named }
        return fields.indices.last
    }
}

extension AppState {
    /// The form again after its final action failed (creating, instantiating, opening): every value kept, the
    /// one-line failure on the field it is about, that field focused.
    package mutating func returningToForm(_ form: FormState, failure: String) {
        var form = form
        if let index = form.fieldIndex(for: failure) {
            form.fields[index].message = failure
            form.focus = index
        }
        screen = .form(form)
        message = nil
    }

    /// The form `key` submitted from `screen`, if any (the runtime keeps it to come back to on failure).
    static func submittedForm(_ screen: Screen) -> FormState? {
        if case let .form(form) = screen { return form }
        return nil
    }
}
