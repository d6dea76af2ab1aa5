extension Command {
    /// The forms the positional words and option names of `arguments` fit, best fit first (literal verbs and required
    /// options matched); none when a verb is unknown or a required option is missing (the command itself then says so).
    func fittingForms(positionals: [String], names: Set<String>) -> [CommandForm] {
        forms.fitting(positionals: positionals, names: names).map { forms[$0] }
    }

    /// One line refusing an option or flag the form being called does not take (`plugins list --timeout 5`), nil
    /// when the best-fitting form takes all of them or no form fits.
    func refusal(_ arguments: Arguments) -> String? {
        let fitting = fittingForms(positionals: arguments.positionals, names: Set(arguments.names))
        guard let best = fitting.first else { return nil }
        if fitting.contains(where: { form in arguments.names.allSatisfy(form.accepted.contains) }) { return nil }
        guard let refused = arguments.names.first(where: { !best.accepted.contains($0) }) else { return nil }
        return "\(refused) does not apply to 'folio \(best.text)'"
    }

    /// The forms `--help` shows: those whose verb or selecting option was given (`plugins list --help`,
    /// `conflicts PATH --keep local --help`), else every form.
    func helpForms(_ arguments: Arguments) -> [CommandForm] {
        let given = Set(arguments.names)
        let named = forms.filter { form in
            let required = Set(form.options.filter(\.isRequired).map(\.name))
            let selected = form.positionals.enumerated().contains { $1.isLiteral && $0 < arguments.positionals.count }
                || !required.isDisjoint(with: given)
            return selected && form.fit(positionals: arguments.positionals, names: given.union(required), verbMayBeMissing: { _ in true }) != nil
        }
        return named.isEmpty ? forms : named
    }

    /// What `--help` prints: the usage of `forms`, the summary, and each option they take with its help.
    func helpText(_ forms: [CommandForm]) -> String {
        let options = optionLines(forms)
        return "usage: folio \(forms.map(\.text).joined(separator: " | "))\n\(summary)\n"
            + (options.isEmpty ? "" : "options:\n" + options.joined(separator: "\n") + "\n")
    }
}

extension [CommandForm] {
    /// The indices of the forms the positional words and option names fit, best fit first (most literal verbs and
    /// required options matched; the first declared among equals).
    func fitting(positionals: [String], names: Set<String>) -> [Int] {
        let fits = indices.compactMap { index in
            self[index].fit(positionals: positionals, names: names, verbMayBeMissing: verbMayBeMissing, isVerb: isVerb).map { (index, $0) }
        }
        return fits.sorted { ($0.1, -$0.0) > ($1.1, -$1.0) }.map(\.0)
    }

    /// Whether every form has a literal verb at positional `index` (a missing verb then leaves the command to say so).
    func verbMayBeMissing(_ index: Int) -> Bool {
        allSatisfy { index < $0.positionals.count && $0.positionals[index].isLiteral }
    }

    /// Whether some form has `word` as its literal verb at positional `index` (`show`, `settle` after conflicts' PATH).
    func isVerb(_ index: Int, _ word: String) -> Bool {
        contains { index < $0.positionals.count && $0.positionals[index].isLiteral && $0.positionals[index].accepts(word) }
    }
}
