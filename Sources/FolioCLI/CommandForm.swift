/// One way to call a command, declared once as its synopsis (`plugins validate FILE.so [--json] [--document FILE]...`):
/// its positional words (literal verbs such as `list`, placeholders such as `PATH`) and the options and flags it
/// takes. Parsing, `--help`, usage lines, completion and the man page all read these forms; nothing else lists them.
///
/// Synopsis grammar: lower-case words are literal verbs (`a|b` for a choice), upper-case words placeholders; `[…]`
/// makes a part optional and `...` repeatable; `--name VALUE` (or `--name=VALUE`) is an option, `--name` alone a
/// flag, `-m|--message VALUE` an option with two names; a required (unbracketed) option or flag selects its form.
struct CommandForm: Sendable {
    /// A positional word: a literal verb or a placeholder.
    struct Positional: Sendable, Equatable {
        let name: String
        let isLiteral: Bool
        let isOptional: Bool
        let isRepeated: Bool
        /// Whether `word` fits this literal (`a|b` allows either).
        func accepts(_ word: String) -> Bool { !isLiteral || name.split(separator: "|").contains(Substring(word)) }
    }

    /// An option with its value name (`SECONDS`), or a flag (no value).
    struct Option: Sendable, Equatable {
        let name: String
        let value: String?
        let isRequired: Bool
    }

    /// The synopsis as declared (shown by `--help`, usage errors and the man page).
    let text: String
    /// The positional words after the command's name.
    let positionals: [Positional]
    /// The options and flags, in the synopsis's order.
    let options: [Option]

    /// Names of the options that take a value.
    var valueOptions: Set<String> { Set(options.filter { $0.value != nil }.map(\.name)) }
    /// Names of the flags.
    var flags: Set<String> { Set(options.filter { $0.value == nil }.map(\.name)) }
    /// Every option and flag the form takes, with the ones every command takes.
    var accepted: Set<String> { Set(options.map(\.name)).union(CommandForm.universalFlags) }

    /// The flags every command takes: `--help` only (`--json` is declared by each form that answers in JSON, and
    /// refused by the others).
    static let universalFlags: Set<String> = ["--help"]

    /// The forms of a command's usage: one per ` | ` alternative, the command's own name left out of the positionals.
    static func forms(command: String, usage: String) -> [CommandForm] {
        usage.components(separatedBy: " | ").map { CommandForm(command: command, synopsis: $0) }
    }

    /// Reads one synopsis.
    init(command: String, synopsis: String) {
        text = synopsis
        var positionals: [Positional] = []
        var options: [Option] = []
        var words = synopsis.split(separator: " ").map(String.init)[...]
        if words.first == command { words = words.dropFirst() }
        var depth = 0
        while var word = words.popFirst() {
            let opens = word.prefix { $0 == "[" }.count
            word.removeFirst(opens)
            depth += opens
            let optional = depth > 0
            if word.hasPrefix("-") {
                var value: String?
                if let equals = word.firstIndex(of: "=") {
                    value = String(word[word.index(after: equals)...])
                    word = String(word[..<equals])
                } else if !Self.closes(word), let next = words.first, !next.hasPrefix("["), !next.hasPrefix("-") {
                    value = words.removeFirst()
                }
                depth -= Self.closingCount(value ?? word)
                for name in Self.bare(word).split(separator: "|") {
                    options.append(Option(name: String(name), value: value.map(Self.bare), isRequired: !optional))
                }
            } else {
                depth -= Self.closingCount(word)
                let name = Self.bare(word)
                positionals.append(Positional(name: name, isLiteral: name.first?.isLowercase ?? false, isOptional: optional,
                                              isRepeated: word.hasSuffix("...")))
            }
            depth = max(0, depth)
        }
        self.positionals = positionals
        self.options = options
    }

    private static func closes(_ word: String) -> Bool { closingCount(word) > 0 }
    private static func closingCount(_ word: String) -> Int {
        var word = Substring(word)
        if word.hasSuffix("...") { word = word.dropLast(3) }
        return word.reversed().prefix { $0 == "]" }.count
    }
    /// A word without its brackets and repetition mark.
    private static func bare(_ word: String) -> String {
        var word = word
        if word.hasSuffix("...") { word.removeLast(3) }
        word.removeAll { $0 == "[" || $0 == "]" }
        return word
    }
}

extension CommandForm {
    /// How well this form fits the positional words and option names given: nil when a literal verb, a required
    /// option or flag does not fit; otherwise the number of literals and required options that matched.
    /// `verbMayBeMissing`: a literal at an index past the words given still fits (every form of the command has one).
    /// `isVerb`: whether another form has the word given at an index as its verb there; a placeholder does not take
    /// it (`conflicts PATH settle …` is not the REF of `conflicts PATH --keep local|remote REF`).
    func fit(positionals given: [String], names: Set<String>, verbMayBeMissing: (Int) -> Bool,
             isVerb: (Int, String) -> Bool = { _, _ in false }) -> Int? {
        var score = 0
        for (index, positional) in positionals.enumerated() {
            guard positional.isLiteral else {
                if index < given.count, isVerb(index, given[index]) { return nil }
                continue
            }
            if index < given.count {
                guard positional.accepts(given[index]) else { return nil }
                score += 1
            } else if !verbMayBeMissing(index) {
                return nil
            }
        }
        for option in options where option.isRequired {
            guard names.contains(option.name) else { return nil }
            score += 1
        }
        return score
    }

    /// Whether a word at positional `index` is one this form takes (a repeated last placeholder takes every later one).
    func takes(_ index: Int) -> Bool { index < positionals.count || positionals.last?.isRepeated == true }

    /// Whether every literal verb the form requires is among the first `count` positional words (an optional one,
    /// `remote PATH [list]`, may be left out).
    func hasItsVerbs(in count: Int) -> Bool {
        positionals.enumerated().allSatisfy { index, positional in !positional.isLiteral || positional.isOptional || index < count }
    }
}
