import FolioCore
import FolioPluginWire
import FoundationEssentials
import Glibc

extension PluginValidator {
    /// The most single-call runs spent shrinking one failure.
    static let shrinkRuns = 150

    /// Runs a test; a failed `calls` test is explained by its failing call, shrunk to a minimal one.
    func runPlanned(_ test: PlannedTest) -> PluginValidationTest {
        let (result, _, lines) = runHost(test)
        if test.answers != nil { return checkingArgumentValues(result, test) }
        guard let generated = test.calls, !result.passed else { return result }
        return explain(result, generated, lines: lines, test: test)
    }

    /// The failure of a `calls` test as one line naming the call (command, arguments, selection), where it came from and
    /// the seed; the call shrunk first (not when it timed out: each try would take the deadline).
    private func explain(_ failure: PluginValidationTest, _ generated: GeneratedCalls, lines: [Substring], test: PlannedTest) -> PluginValidationTest {
        guard let number = lines.last(where: { $0.hasPrefix("call ") }).flatMap({ Int($0.dropFirst(5)) }),
              generated.calls.indices.contains(number - 1) else { return failure }
        var result = failure
        let original = generated.calls[number - 1]
        var call = original, steps = 0, note = ""
        if failure.details.hasPrefix("timed out") {
            note = ", not shrunk (each try would take the deadline)"
        } else if let alone = runAlone(original, generated, test) {
            (call, steps, result) = shrink(original, alone, generated, test)
            keepReproducer(call, generated, test)
            note = steps > 0 ? ", shrunk in \(steps) steps" : ""
        } else {
            note = ", which does not fail alone on its input: the seed repeats the whole run"
        }
        let earlier = (number - 1) % HostWire.validateWalkLength  // the host starts again from the sample every walkLength calls
        let start = earlier == 0 ? "on \(generated.sample)" : "after \(earlier) calls on \(generated.sample)"
        result.name = failure.name
        result.command = call.command
        result.details = "\(call.summary): \(result.details) (call \(number) of \(generated.calls.count) \(start); seed \(seed)\(note))"
        return result
    }

    /// The greedy shrink: the first simpler call that still fails replaces the call, until none does or the runs are spent.
    private func shrink(_ start: ValidationCall, _ failure: PluginValidationTest, _ generated: GeneratedCalls, _ test: PlannedTest)
        -> (ValidationCall, Int, PluginValidationTest) {
        var (call, result, steps, runs) = (start, failure, 0, 0)
        search: while runs < Self.shrinkRuns {
            for candidate in call.simpler {
                runs += 1
                if let failed = runAlone(candidate, generated, test) {
                    (call, result, steps) = (candidate, failed, steps + 1)
                    continue search
                }
                if runs >= Self.shrinkRuns { break search }
            }
            break
        }
        return (call, steps, result)
    }

    /// Runs `call` alone on the input the failing call had; its failure, nil when it passes.
    private func runAlone(_ call: ValidationCall, _ generated: GeneratedCalls, _ test: PlannedTest) -> PluginValidationTest? {
        guard let single = alone(call, generated, test) else { return nil }
        let result = runHost(single).0
        return result.passed ? nil : result
    }

    /// The test of `call` alone: its reproducer files are the input document and a one-call calls file.
    private func alone(_ call: ValidationCall, _ generated: GeneratedCalls, _ test: PlannedTest) -> PlannedTest? {
        let base = reproducers.appendingPathComponent(Self.fileName(test.name) + "-minimal")
        let input = base.appendingPathExtension("input"), calls = base.appendingPathExtension("calls")
        guard let state = FileManager.default.contents(atPath: generated.state.path) else { return nil }
        return PlannedTest(name: test.name, kind: "calls", editor: test.editor, command: call.command,
                           inputs: [(input, state), (calls, Data((call.line + "\n").utf8))],
                           options: ["--document", input.path, "--calls", calls.path])
    }

    /// Writes the reproducer files of `call` again (a later candidate that passed removed them).
    private func keepReproducer(_ call: ValidationCall, _ generated: GeneratedCalls, _ test: PlannedTest) {
        for input in alone(call, generated, test)?.inputs ?? [] { try? input.bytes.write(to: input.url) }
    }
}

extension ValidationCall {
    /// Simpler calls, simplest first: trailing optional arguments left out, each argument simpler (an earlier choice,
    /// a number nearer its least value, a shorter text), a simpler selection, a smaller render.
    var simpler: [ValidationCall] {
        var calls: [ValidationCall] = []
        if let last = arguments.indices.last, CommandArgument(usageWord: words[last]).optional {
            calls.append(with { $0.arguments.removeLast() })
        }
        for index in arguments.indices {
            for value in Self.simpler(arguments[index], as: words[index]) { calls.append(with { $0.arguments[index] = value }) }
        }
        for selection in Self.simpler(selection) { calls.append(with { $0.selection = selection }) }
        for width in Self.smaller(width, least: 1) { calls.append(with { $0.width = width }) }
        for height in Self.smaller(height, least: 1) { calls.append(with { $0.height = height }) }
        return calls
    }

    private func with(_ change: (inout ValidationCall) -> Void) -> ValidationCall {
        var call = self
        change(&call)
        return call
    }

    static func simpler(_ value: String, as word: String) -> [String] {
        let argument = CommandArgument(usageWord: word)
        if !argument.choices.isEmpty { return Array(argument.choices.prefix { $0 != value }) }
        if let number = Int(value), argument.kind != .text || EditorCommand.isItemArgument(argument.name) {
            let least = argument.kind == .integer ? 0 : 1
            return smaller(number, least: least).map(String.init)
        }
        let characters = Array(value)
        guard characters.count > 1 else { return [] }
        return [String(characters[0]), String(characters.prefix(characters.count / 2)), String(characters.dropLast())]
    }

    /// Numbers between `least` (or 0 for a negative number) and `number`, nearest the least first.
    static func smaller(_ number: Int, least: Int) -> [Int] {
        let target = number < 0 ? 0 : least
        guard number != target else { return [] }
        let halfway = target + (number - target) / 2
        let step = number > target ? number - 1 : number + 1
        var seen: [Int] = []
        for value in [target, halfway, step] where value != number && !seen.contains(value) { seen.append(value) }
        return seen
    }

    static func simpler(_ selection: Selection) -> [Selection] {
        switch selection {
        case .none: return []
        case .null: return [.none]
        case .whole: return [.none, .cursor(1)]
        case let .cursor(cursor): return [.none] + smaller(cursor, least: 1).map { .cursor($0) }
        case let .range(anchor, cursor):
            return [.none, .cursor(cursor), .cursor(anchor)] + smaller(anchor, least: 1).map { .range(anchor: $0, cursor: cursor) }
                + smaller(cursor, least: 1).map { .range(anchor: anchor, cursor: $0) }
        }
    }
}
