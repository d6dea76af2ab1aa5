import FoundationEssentials
import Glibc
import FolioTerminal

// The Open… form: Tab completes the path (the common part of the names that fit, then a list that Tab cycles
// through), ⏎ opens a document or, on a folder of documents, lists them to choose from with ↑↓ and ⏎.

extension AppState {
    /// Whether `form` is the Open… form, whose submitted path the runtime reads first (`browsed(_:listing:in:)`).
    package static func isOpenForm(_ form: FormState?) -> Bool {
        guard let form, case .open = form.purpose else { return false }
        return true
    }

    /// Keys the Open… form handles itself (true: handled); others are the form's.
    mutating func openFormKey(_ key: Key, form: inout FormState, effects: inout [AppEffect]) -> Bool {
        guard form.fields.count == 1 else { return false }
        let text = form.fields[0].value
        switch key {
        case .tab, .backTab:
            if var browser = form.browser, browser.intent == .complete, !browser.entries.isEmpty,
               text == browser.typed || text == browser.path(browser.selection ?? -1) {
                let count = browser.entries.count
                let step = key == .tab ? 1 : count - 1
                let next = browser.selection.map { ($0 + step) % count } ?? (key == .tab ? 0 : count - 1)
                browser.selection = next
                form.fields[0].value = browser.path(next)
                form.browser = browser
            } else if key == .tab {
                if text == "~" { form.fields[0].value = "~/" }
                effects.append(.browse(BrowseRequest(text: form.fields[0].value, intent: .complete)))
            }
            return true
        case .up, .down:
            guard var browser = form.browser, !browser.entries.isEmpty else { return key == .up || key == .down }
            let last = browser.entries.count - 1
            let current = browser.selection ?? (key == .down ? -1 : 1)
            browser.selection = min(last, max(0, current + (key == .down ? 1 : -1)))
            if browser.intent == .complete, let selection = browser.selection { form.fields[0].value = browser.path(selection) }
            form.browser = browser
            return true
        case .enter:
            // The form submits `.open(path)`; the runtime reads the path first (`browsed(_:listing:in:)`): a folder of
            // documents lists them instead of opening. ⏎ on a listed document puts it in the field first.
            if let browser = form.browser, browser.intent == .open, let selection = browser.selection {
                form.fields[0].value = browser.path(selection)
            }
            return false
        case .escape where form.browser != nil:
            form.browser = nil
            return true
        default:
            let before = text
            guard form.fields[0].input.handle(key) else { return false }
            form.fields[0].input.reveal(width: Screens.formLayout(form, width: columns, height: rows).valueWidth)
            if form.fields[0].value != before { form.fields[0].message = nil; form.browser = nil }
            return true
        }
    }

    /// The runtime's answer to the Open… form's `request`: `listing` is what `request.listed` is; `submitted` is the
    /// form ⏎ submitted (the screen has left it), nil for Tab on the form shown. Returns the effect that leaves the
    /// launcher (a path to open), nil when the form stays (completed, a list shown, a note).
    package mutating func browsed(_ request: BrowseRequest, listing: FolderListing, in submitted: FormState? = nil) -> AppEffect? {
        let shown: FormState? = if case let .form(form) = screen { form } else { nil }
        guard var form = submitted ?? shown, case .open = form.purpose, form.fields.count == 1, form.fields[0].value == request.text else {
            return request.intent == .open ? .open(path: request.text) : nil
        }
        switch request.intent {
        case .complete: Self.complete(&form, request: request, listing: listing)
        case .open:
            switch listing.kind {
            case .folder?:
                let folder = request.text.hasSuffix("/") ? request.text : request.text + "/"
                let documents = listing.entries.filter { $0.kind == .document }
                if documents.isEmpty {
                    form.browser = PathBrowser(intent: .open, folder: folder, entries: [], selection: nil,
                                               note: "\(request.text) holds no Folio document (Tab lists what it holds)")
                } else {
                    form.browser = PathBrowser(intent: .open, folder: folder, entries: documents, selection: 0, note: nil)
                }
            case .document?, .file?, nil:
                // A document opens; anything else is opened too, and the opening says what is wrong with it.
                screen = Self.afterSubmit(form, previous: screen)
                return .open(path: request.text)
            }
        }
        screen = .form(form)
        return nil
    }

    /// Completes the form's path from the names in its folder part.
    static func complete(_ form: inout FormState, request: BrowseRequest, listing: FolderListing) {
        let folder = request.listed
        let prefix = String(request.text.dropFirst(folder.count))
        guard listing.kind == .folder else {
            let shown = folder.isEmpty ? "." : folder
            form.browser = PathBrowser(intent: .complete, folder: folder, entries: [], note: listing.kind == .document
                ? "\(shown) is a document: ⏎ opens it" : "no folder \(shown)")
            return
        }
        let matches = listing.entries.filter { $0.name.hasPrefix(prefix) && (prefix.hasPrefix(".") || !$0.name.hasPrefix(".")) }
        switch matches.count {
        case 0:
            form.browser = PathBrowser(intent: .complete, folder: folder, entries: [], note: "nothing in \(folder.isEmpty ? "." : folder) starts with “\(prefix)”")
        case 1:
            form.fields[0].value = PathBrowser(intent: .complete, folder: folder, entries: matches).path(0)
            form.browser = nil
        default:
            let common = commonPrefix(matches.map(\.name))
            if common.count > prefix.count { form.fields[0].value = folder + common }
            form.browser = PathBrowser(intent: .complete, folder: folder, entries: matches, typed: form.fields[0].value)
        }
    }

    /// The longest start all of `names` share (whole characters).
    static func commonPrefix(_ names: [String]) -> String {
        guard var common = names.first else { return "" }
        for name in names.dropFirst() {
            while !name.hasPrefix(common) { common.removeLast() }
        }
        return common
    }
}
