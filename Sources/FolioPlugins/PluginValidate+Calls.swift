import FolioCore
import FoundationEssentials
import Glibc

/// One generated call of an editor command: valid arguments for its usage, a selection, and the size of the render
/// made of its result.
struct ValidationCall: Equatable, Sendable {
    enum Selection: Equatable, Sendable {
        /// A NULL selection pointer (the ABI allows it).
        case null
        /// No item: cursor and anchor 0.
        case none
        case cursor(Int)
        /// From `anchor` to the cursor; reversed when the anchor is after the cursor (`5-2`).
        case range(anchor: Int, cursor: Int)
        /// From 1 to the last line of the view.
        case whole

        var text: String {
            switch self {
            case .null: return "null"
            case .none: return "none"
            case let .cursor(cursor): return "\(cursor)"
            case let .range(anchor, cursor): return "\(anchor)-\(cursor)"
            case .whole: return "whole"
            }
        }
    }

    var command: String
    /// The usage words of the arguments (`X:int`, `[COLOR]`…), for shrinking.
    var words: [String]
    var arguments: [String]
    var selection: Selection
    var width: Int, height: Int

    var argumentsJSON: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return (try? encoder.encode(arguments)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }

    /// The line of the calls file the plugin host reads (`HostValidate.GeneratedCall`).
    var line: String { "\(command)\t\(selection.text)\t\(width)x\(height)\t\(argumentsJSON)" }

    /// `apply 'add' ["rect","0"] selection 5-2, render 80x24`.
    var summary: String { "apply '\(command)' \(argumentsJSON) selection \(selection.text), render \(width)x\(height)" }
}

/// The calls a `calls` test makes, from which sample, with which seed.
struct GeneratedCalls: Sendable {
    var calls: [ValidationCall]
    /// The sample's name in reports (`the empty document`, `sample-1-list.json`).
    var sample: String
    /// Where the host writes each call's input document before the call.
    var state: URL
}

/// Valid calls from commands' declared usages (`CommandArgument`, the one reading of usage words), drawn from a seeded
/// generator: choices, whole numbers (`:int`, `:int+`), item numbers, text with non-ASCII and wide characters, optional
/// arguments left out, and selections (NULL, none, a cursor, ranges forward and reversed, the whole document).
struct CallGenerator {
    var random: SeededRandom
    let commands: [(id: String, usage: String)]

    /// Text pieces: ASCII, accents, combining marks, CJK (two cells each), emoji and a ZWJ sequence, Hangul, full-width.
    static let pieces = ["a", "Milk", "x y", "Ünïcödé", "e\u{301}", "日本語", "テキスト", "🥚", "👩‍👩‍👧", "한국어", "ｆｕｌｌ", "Ωμέγα", "€5"]

    mutating func call() -> ValidationCall {
        let command = random.pick(commands)
        let words = EditorCommand(id: command.id, title: command.id, usage: command.usage).argumentNames
        var arguments: [String] = []
        for word in words {
            guard let value = value(for: word) else { break }  // an optional argument left out ends the call
            arguments.append(value)
        }
        return ValidationCall(command: command.id, words: words, arguments: arguments, selection: selection(),
                              width: random.pick([1, 2, 3, 5, 8, 13, 20, 40, 80, 120, 300]), height: random.pick([1, 2, 3, 5, 10, 24, 60]))
    }

    /// A valid value for one usage word; nil to leave an optional one out.
    mutating func value(for word: String) -> String? {
        let argument = CommandArgument(usageWord: word)
        if argument.optional && random.next() % 3 == 0 { return nil }
        // A range word gets a range now and then, either way round ("5-2"), as the editor host sends a selection.
        if argument.acceptsRange, random.next() % 3 == 0 { let (a, b) = (item(), item()); return "\(a)-\(b)" }
        if EditorCommand.isItemArgument(argument.name) { return String(item()) }
        if !argument.choices.isEmpty { return random.pick(argument.choices) }
        switch argument.kind {
        case .integer: return String(integer() - (random.next() % 4 == 0 ? 1000 : 0))
        case .positiveInteger: return String(max(1, integer()))
        case .text: return text()
        }
    }

    /// Mostly small, sometimes hundreds.
    mutating func integer() -> Int {
        random.next() % 4 == 0 ? Int(random.next() % 1000) : Int(random.next() % 12)
    }

    mutating func item() -> Int { 1 + Int(random.next() % 8) }

    mutating func text() -> String {
        let count = random.next() % 8 == 0 ? 40 : 1 + Int(random.next() % 4)
        return (0..<count).map { _ in random.pick(Self.pieces) }.joined(separator: random.next() % 2 == 0 ? " " : "")
    }

    mutating func selection() -> ValidationCall.Selection {
        switch random.next() % 8 {
        case 0: return .null
        case 1: return .none
        case 2: return .whole
        case 3: let (a, b) = (item(), item()); return .range(anchor: min(a, b), cursor: max(a, b))
        case 4: let (a, b) = (item(), item()); return .range(anchor: max(a, b) + 1, cursor: min(a, b))  // reversed
        default: return .cursor(item())
        }
    }
}

extension PluginValidator {
    /// Where a `calls` test starts: a sample file, its name in reports, whether the editor may refuse it (the empty
    /// document added to the user's samples) and whether it is the empty document (whose calls leave a generated sample).
    private struct CallsStart {
        var file: URL, name: String, refusable: Bool, empty: Bool
    }

    /// The `calls` tests of one editor: `callCount` calls from each sample, and from the empty document (which the
    /// editor may refuse) when the samples are the user's.
    func callsTests(_ editor: String, _ commands: [(id: String, usage: String)], samples: [URL], userSamples: Bool) -> [PlannedTest] {
        guard !commands.isEmpty else { return [] }
        guard userSamples else {
            return [callsTest(editor, commands, CallsStart(file: samples[0], name: "the empty document", refusable: false, empty: true))]
        }
        let empty = reproducers.appendingPathComponent(Self.fileName("calls/\(editor)/empty-document"))
        return samples.map { callsTest(editor, commands, CallsStart(file: $0, name: $0.lastPathComponent, refusable: false, empty: false)) }
            + [callsTest(editor, commands, CallsStart(file: empty, name: "the empty document", refusable: true, empty: true))]
    }

    private func callsTest(_ editor: String, _ commands: [(id: String, usage: String)], _ start: CallsStart) -> PlannedTest {
        let name = "calls/\(editor)/\(start.empty ? "empty" : start.name)"
        var generator = CallGenerator(random: SeededRandom(seed: seed ^ Self.stableHash(name)), commands: commands)
        let calls = (0..<callCount).map { _ in generator.call() }
        let file = reproducers.appendingPathComponent(Self.fileName(name) + ".calls")
        let state = reproducers.appendingPathComponent(Self.fileName(name) + ".input")
        var inputs = [(url: file, bytes: Data(calls.map { $0.line + "\n" }.joined().utf8))]
        var options = ["--document", start.file.path, "--calls", file.path, "--state", state.path]
        if start.refusable {
            inputs.append((start.file, Data()))
            options += ["--refusable", "yes"]
        }
        if start.empty { options += ["--output", generatedSample(editor).path] }
        return PlannedTest(name: name, kind: "calls", editor: editor, inputs: inputs, options: options,
                           calls: GeneratedCalls(calls: calls, sample: start.name, state: state))
    }

    /// FNV-1a of `text`: the same on every run (Swift's `Hasher` is seeded per process).
    static func stableHash(_ text: String) -> UInt64 {
        text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }
}
