import FolioTemplates

// A template form checked by the template as it is filled in: a copier question whose `when` turns false leaves the
// form (and comes back as it was when it turns true), an answer its `validator` or choices refuse says why under
// its field, and a field still holding the default computed over earlier answers follows them (a slug follows the
// name typed).

extension FormState {
    /// Asks the template's live check about the answers typed so far and applies what it says; nothing without one.
    mutating func applyLiveCheck() {
        guard case let .template(template) = purpose, let check = template.liveCheck else { return }
        let all = fields + parked
        if order.isEmpty { order = all.map(\.name) }
        var given: [String: String] = [:]
        for field in fields where !Self.isDestination(field) && suggested[field.name] != field.value { given[field.name] = field.value }
        guard let result = check.evaluate(given) else { return }
        var byName = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for (name, field) in byName {
            if let now = result.defaults[name], given[name] == nil, field.value != now { byName[name]?.value = now }
            let problem = result.problems[name]
            if let problem { byName[name]?.message = problem } else if liveProblems[name] != nil, field.message == liveProblems[name] { byName[name]?.message = nil }
        }
        let focused = fields.indices.contains(focus) ? fields[focus].name : nil
        fields = order.compactMap { result.hidden.contains($0) ? nil : byName[$0] }
        parked = order.compactMap { result.hidden.contains($0) ? byName[$0] : nil }
        focus = focused.flatMap { name in fields.firstIndex { $0.name == name } } ?? min(focus, max(0, fields.count - 1))
        suggested = result.defaults
        liveProblems = result.problems
    }

    /// The message for field `index` on submitting: its own check, else the template's live refusal.
    func submitMessage(_ index: Int) -> String? {
        Self.validate(fields[index]) ?? liveProblems[fields[index].name]
    }
}
