import FoundationEssentials
import Glibc
import FolioCore

/// The template picker: sources as they resolve, a filter typed by the user, and the selected template.
/// The list has the focus when it opens (j/k move); any other letter goes to the filter, where j and k are letters too;
/// ↑/↓ always move and give the focus back to the list.
package struct PickerState: Equatable, Sendable {
    package var group: String?
    package var contentType: ContentType?
    /// The filter being typed.
    package var filterField = TextField()
    package var selection: Int = 0
    /// Whether keys go to the list (j/k move) rather than the filter.
    package var listFocused = true
    /// The form of the template last chosen, as Esc left it: choosing that template again brings its values back.
    package var draft: FormState?
    /// The filter's text.
    package var filter: String {
        get { filterField.text }
        set { filterField.set(newValue) }
    }
    package init(group: String? = nil, contentType: ContentType? = nil, filter: String = "", selection: Int = 0) {
        self.group = group; self.contentType = contentType; self.filterField = TextField(filter); self.selection = selection
        self.listFocused = filter.isEmpty
    }

    /// The templates shown after the scope and the filter: grouped (group order, then name) without a filter; with one,
    /// the best matches first (see `relevance`), then group and name.
    package func visible(_ sources: [TemplateSourceStatus]) -> [TemplateSummary] {
        let all = sources.flatMap { source -> [TemplateSummary] in if case let .loaded(list) = source.state { return list } else { return [] } }
        let scoped = all.filter { (group == nil || $0.group == group) && (contentType == nil || $0.contentType == contentType) }
        let words = Self.words(filter)
        guard !words.isEmpty else { return scoped.sorted { ($0.group, $0.name) < ($1.group, $1.name) } }
        return scoped.compactMap { template in Self.relevance(of: template, words: words).map { (template, $0) } }
            .sorted { a, b in a.1 != b.1 ? a.1 > b.1 : (a.0.group, a.0.name) < (b.0.group, b.0.name) }
            .map(\.0)
    }

    /// Whether the list is grouped under headings (it is not while a filter orders it by relevance).
    package var grouped: Bool { Self.words(filter).isEmpty }

    static func words(_ filter: String) -> [String] {
        filter.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// How well `template` matches every word of the filter, nil when a word matches nothing. Per word: the start of
    /// the name 40, the start of a word of the name 30, inside the name 20, the group 10, the summary 5 (a word in the
    /// summary 6 when it starts one); the words' scores add up.
    static func relevance(of template: TemplateSummary, words: [String]) -> Int? {
        let name = template.name.lowercased(), group = template.group.lowercased(), summary = template.summary.lowercased()
        var total = 0
        for word in words {
            let score: Int
            if name.hasPrefix(word) { score = 40 }
            else if startsAWord(word, in: name) { score = 30 }
            else if name.contains(word) { score = 20 }
            else if group.contains(word) { score = 10 }
            else if startsAWord(word, in: summary) { score = 6 }
            else if summary.contains(word) { score = 5 }
            else { return nil }
            total += score
        }
        return total
    }

    static func startsAWord(_ word: String, in text: String) -> Bool {
        text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).contains { $0.hasPrefix(word) }
    }
}
