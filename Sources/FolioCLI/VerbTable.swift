/// The verbs of a command and what each does, in the declared order: chooses the one the words call from the forms
/// they fit, wherever the verb stands (`plugins list`, `remote PATH add NAME URL`) and whether a form has none
/// (`conflicts PATH`, `conflicts PATH --keep local REF`).
struct VerbTable: Sendable {
    let command: String
    let forms: [CommandForm]
    let runs: [Verb.Run]
    let hidden: [String: Verb.Run]

    /// Where the verb stands: the first positional at which some form has a literal.
    var verbIndex: Int { forms.compactMap { $0.positionals.firstIndex(where: \.isLiteral) }.min() ?? 0 }

    /// The verbs as errors name them: `add, list or remove`.
    var named: String {
        let index = verbIndex
        var seen: Set<String> = []
        let verbs = forms.compactMap { form in
            index < form.positionals.count && form.positionals[index].isLiteral ? form.positionals[index].name : nil
        }.filter { seen.insert($0).inserted }
        return verbs.dropLast().joined(separator: ", ") + (verbs.count > 1 ? " or " : "") + (verbs.last ?? "")
    }

    /// What the words call: a hidden verb by its word, else the best form they fit with every verb it requires given
    /// and a place for the word where the verb stands; a usage error naming the verbs when none does.
    func verb(for args: Arguments) throws -> Verb.Run {
        let given = args.positionals
        let index = verbIndex
        if index < given.count, let run = hidden[given[index]] { return run }
        let complete = forms.fitting(positionals: given, names: Set(args.names)).filter { forms[$0].hasItsVerbs(in: given.count) }
        if let best = complete.first, given.count <= index || forms[best].takes(index) { return runs[best] }
        let verb = try args.positional(index, named)
        throw UsageError("unknown \(command) command '\(verb)' (\(named))")
    }
}
