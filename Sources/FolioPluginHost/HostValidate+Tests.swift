import FolioPluginABI
#if canImport(Glibc)
import Glibc
#endif

/// The conformance tests, each run in its own `folio-plugin-host --validate` process.
extension HostValidate {
    // MARK: descriptor

    /// The library opened again with every symbol bound (RTLD_NOW), before the process is confined (opening it needs
    /// the file); its entry function, for `descriptor`.
    static func bindNow(_ library: HostLibrary) throws -> folio_plugin_entry_fn {
        step("dlopen with RTLD_NOW")
        guard dlopen(library.path, RTLD_NOW | RTLD_LOCAL) != nil else {
            throw ValidationFailure("not every symbol resolves: \(dlerror().map { String(cString: $0) } ?? "dlopen failed")")
        }
        guard let handle = dlopen(library.path, RTLD_NOW | RTLD_LOCAL), let symbol = dlsym(handle, FOLIO_PLUGIN_ENTRY_SYMBOL) else {
            throw ValidationFailure("the entry function cannot be found the second time")
        }
        return unsafeBitCast(symbol, to: folio_plugin_entry_fn.self)
    }

    /// The library loads with every symbol bound (RTLD_NOW), its descriptor and tables have the sizes the ABI needs
    /// (checked by `HostLibrary.load`), and its strings are non-empty, unique where they must be, and valid UTF-8.
    /// Returns the editors and their commands for the parent's plan.
    static func descriptor(_ library: HostLibrary, entry: folio_plugin_entry_fn) throws -> [(String, [String])] {
        step("call the entry function again")
        guard let raw = entry() else { throw ValidationFailure("the entry function returned no descriptor the second time") }
        let d = raw.pointee
        try cString(d.id, "the plugin id")
        try cString(d.name, "the plugin name")
        try cString(d.version, "the plugin version")
        var editorIDs: Set<String> = []
        var extra: [(String, [String])] = [("editors", library.editors.map(\.id))]
        for editor in library.editors {
            let e = editor.table.pointee
            try cString(e.id, "an editor id")
            try cString(e.name, "editor '\(editor.id)''s name")
            guard editorIDs.insert(editor.id).inserted else { throw ValidationFailure("editor id '\(editor.id)' appears twice") }
            guard !editor.contentTypes.isEmpty else { throw ValidationFailure("editor '\(editor.id)' edits no content type") }
            guard e.priority == FOLIO_PRIORITY_DEFAULT || e.priority == FOLIO_PRIORITY_OPTION else {
                throw ValidationFailure("editor '\(editor.id)' has priority \(e.priority) (not FOLIO_PRIORITY_DEFAULT or _OPTION)")
            }
            for index in 0..<e.content_type_count { try cString(e.content_types?[index], "editor '\(editor.id)''s content type \(index + 1)") }
            var commandIDs: Set<String> = []
            for index in 0..<e.command_count {
                guard let info = e.commands?[index]?.pointee else { continue }
                let what = "editor '\(editor.id)''s command \(index + 1)"
                try cString(info.id, "\(what) id")
                try cString(info.title, "\(what) title")
                try cString(info.usage, "\(what) usage")
                if let shortcut = info.shortcut { try cString(shortcut, "\(what) shortcut", allowEmpty: true) }
            }
            for command in editor.commands {
                guard commandIDs.insert(command.id).inserted else { throw ValidationFailure("editor '\(editor.id)': command '\(command.id)' appears twice") }
                guard command.usage.split(separator: " ").first.map(String.init) == command.id else {
                    throw ValidationFailure("editor '\(editor.id)': command '\(command.id)' has usage '\(command.usage)' (it must start with the command id)")
                }
            }
            extra.append(("commands/\(editor.id)", editor.commands.map { "\($0.id)\t\($0.usage)" }))
        }
        return extra
    }

    /// Fails unless `pointer` is a non-empty (unless allowed) NUL-terminated valid UTF-8 string.
    private static func cString(_ pointer: UnsafePointer<CChar>?, _ what: String, allowEmpty: Bool = false) throws {
        guard let pointer else { throw ValidationFailure("\(what) is NULL") }
        let length = strnlen(pointer, 4096)
        guard length < 4096 else { throw ValidationFailure("\(what) is longer than 4095 bytes") }
        let bytes = pointer.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
        if bytes.isEmpty && !allowEmpty { throw ValidationFailure("\(what) is empty") }
        if let offset = invalidUTF8Offset(bytes) { throw ValidationFailure("\(what) is not valid UTF-8 (byte \(offset))") }
    }

    // MARK: documents, round trips, render

    /// Any bytes: the plugin opens them or refuses them with INVALID_DOCUMENT and a message, never crashes; what it opens
    /// serializes, reopens to the same bytes, and renders.
    static func document(_ editor: RawEditor, _ bytes: [UInt8]) throws {
        step("open (\(bytes.count) bytes)")
        let opened = editor.open(bytes)
        try expectStatus(opened.status, [FOLIO_STATUS_OK, FOLIO_STATUS_INVALID_DOCUMENT], "open", error: opened.error)
        guard opened.status == FOLIO_STATUS_OK else {
            if let handle = opened.handle { editor.release(handle); throw ValidationFailure("open refused the bytes but returned a document") }
            if opened.error.isEmpty { throw ValidationFailure("open returned INVALID_DOCUMENT without a message saying why") }
            return
        }
        guard let handle = opened.handle else { throw ValidationFailure("open returned OK but no document") }
        defer { editor.release(handle) }
        try checkOpened(editor, handle, what: "the opened document")
    }

    /// A document the plugin accepted: it serializes to bytes that reopen and serialize the same, and it renders.
    static func checkOpened(_ editor: RawEditor, _ handle: OpaquePointer, what: String, width: UInt32 = 80, height: UInt32 = 24,
                            selection: folio_selection? = RawEditor.selection) throws {
        step("serialize \(what)")
        let first = try editor.serialized(handle, what: what)
        step("open the serialized bytes")
        let reopened = try editor.openAccepted(first, what: "serialize(\(what))")
        defer { editor.release(reopened) }
        step("serialize again")
        let second = try editor.serialized(reopened, what: "open(serialize(\(what)))")
        try expectSame(first, second)
        try checkRender(editor, handle, width: width, height: height, selection: selection)
    }

    private static func expectSame(_ first: [UInt8], _ second: [UInt8]) throws {
        guard first != second else { return }
        let offset = zip(first, second).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(first.count, second.count)
        throw ValidationFailure("no round trip: serialize(open(serialize(x))) differs from serialize(x) at byte \(offset) (\(second.count) vs \(first.count) bytes)")
    }

    /// open → serialize → open → serialize gives the same bytes for every sample.
    static func roundTrip(_ editor: RawEditor, _ samples: [[UInt8]]) throws {
        for (index, sample) in samples.enumerated() {
            step("open sample \(index + 1)")
            let handle = try editor.openAccepted(sample, what: "sample \(index + 1)")
            defer { editor.release(handle) }
            try checkOpened(editor, handle, what: "sample \(index + 1)")
        }
    }

    /// Render at `width`×`height` (with a selection and without): OK, valid UTF-8, at most `height` lines of at most
    /// `width` cells, no control characters.
    static func render(_ editor: RawEditor, _ sample: [UInt8], width: UInt32, height: UInt32) throws {
        step("open the sample")
        let handle = try editor.openAccepted(sample, what: "the sample")
        defer { editor.release(handle) }
        try checkRender(editor, handle, width: width, height: height)
    }

    static func checkRender(_ editor: RawEditor, _ handle: OpaquePointer, width: UInt32, height: UInt32,
                            selection: folio_selection? = RawEditor.selection) throws {
        step("render \(width)x\(height)", deadline: .render)
        let rendered = editor.render(handle, width: width, height: height, selection: selection)
        let what = "render(\(width)x\(height))"
        try expectStatus(rendered.status, [FOLIO_STATUS_OK], what, error: rendered.error)
        try expectText(rendered.text, "\(what)'s text", oneLine: false)
        let lines = String(decoding: rendered.text.bytes ?? [], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        if lines.count > Int(height) { throw ValidationFailure("\(what) returned \(lines.count) lines") }
        for (number, line) in lines.enumerated() {
            if let scalar = line.unicodeScalars.first(where: isControl) {
                throw ValidationFailure("\(what): line \(number + 1) holds control character U+\(hex(scalar.value))")
            }
            let cells = cells(line)
            if cells > Int(width) { throw ValidationFailure("\(what): line \(number + 1) is \(cells) cells wide") }
        }
    }

    // MARK: commands

    /// One command with bad arguments: refused with INVALID_ARGUMENT and a message (missing arguments must be), or
    /// applied to a new document that serializes, round-trips and renders; never a crash. An unknown command is
    /// refused with UNKNOWN_COMMAND.
    static func command(_ editor: RawEditor, _ host: HostEditor, _ command: String, arguments: [UInt8], sample: [UInt8]) throws {
        step("open the sample")
        let handle = try editor.openAccepted(sample, what: "the sample")
        defer { editor.release(handle) }
        let known = host.commands.first { $0.id == command }
        let required = known.map { $0.usage.split(separator: " ").dropFirst().filter { !$0.hasPrefix("[") }.count } ?? 0
        let missing = arguments == Array("[]".utf8) && required > 0
        let allowed: [folio_status] = known == nil ? [FOLIO_STATUS_UNKNOWN_COMMAND]
            : missing ? [FOLIO_STATUS_INVALID_ARGUMENT]
            : [FOLIO_STATUS_OK, FOLIO_STATUS_INVALID_ARGUMENT, FOLIO_STATUS_OUT_OF_MEMORY]
        step("apply '\(command)'")
        let applied = editor.apply(handle, command, arguments)
        let what = "apply('\(command)')"
        if applied.status != FOLIO_STATUS_OK, let stray = applied.handle {
            editor.release(stray)
            throw ValidationFailure("\(what) returned \(statusName(applied.status)) and a document too")
        }
        try expectStatus(applied.status, allowed, what, error: applied.error)
        try expectText(applied.description, "\(what)'s description", oneLine: true)
        guard applied.status == FOLIO_STATUS_OK else {
            if applied.error.isEmpty { throw ValidationFailure("\(what) returned \(statusName(applied.status)) without a message saying why") }
            return
        }
        guard let result = applied.handle else { throw ValidationFailure("\(what) returned OK but no document") }
        defer { editor.release(result) }
        try checkOpened(editor, result, what: "the result of '\(command)'")
    }

    // MARK: extensions

    private static let unknownExtensionIDs = ["folio.no-such-extension/1", "", "folio.semantic-diff/999", String(repeating: "x", count: 4096)]

    /// Each extension id answers a table of at least its size with its function, unknown ids answer NULL, and the
    /// semantic diff and merge work on the sample.
    static func extensions(_ editor: RawEditor, _ host: HostEditor, _ sample: [UInt8], declared: [String]) throws {
        guard let lookup = editor.table.pointee.extension else {
            if let id = declared.first { throw ValidationFailure("the manifest declares extension '\(id)' but the editor has no extension function") }
            return
        }
        for id in declared {
            step("extension('\(id)') (declared)")
            if lookup(editor.table, id) == nil { throw ValidationFailure("the manifest declares extension '\(id)' but extension('\(id)') answers NULL") }
        }
        for id in unknownExtensionIDs {
            step("extension('\(id.prefix(40))')")
            if lookup(editor.table, id) != nil { throw ValidationFailure("extension('\(id.prefix(40))') answered a table for an id it cannot know") }
        }
        step("extension('\(FOLIO_EXTENSION_SEMANTIC_DIFF)')")
        if let table = lookup(editor.table, FOLIO_EXTENSION_SEMANTIC_DIFF)?.assumingMemoryBound(to: folio_semantic_diff_v1.self) {
            guard Int(table.pointee.struct_size) >= MemoryLayout<folio_semantic_diff_v1>.size, let diff = table.pointee.diff else {
                throw ValidationFailure("extension('\(FOLIO_EXTENSION_SEMANTIC_DIFF)') answered a table of \(table.pointee.struct_size) bytes or without its function")
            }
            step("semantic diff of the sample with itself")
            var out = folio_buffer(), error = folio_buffer()
            let status = sample.withUnsafeBufferPointer { s in diff(editor.table, s.baseAddress, s.count, s.baseAddress, s.count, &out, &error) }
            try expectStatus(status, [FOLIO_STATUS_OK], "semantic diff", error: RawEditor.take(&error))
            try expectText(RawEditor.take(&out), "the semantic diff's text", oneLine: false)
        }
        step("extension('\(FOLIO_EXTENSION_SEMANTIC_MERGE)')")
        if let table = lookup(editor.table, FOLIO_EXTENSION_SEMANTIC_MERGE)?.assumingMemoryBound(to: folio_semantic_merge_v1.self) {
            guard Int(table.pointee.struct_size) >= MemoryLayout<folio_semantic_merge_v1>.size, let merge = table.pointee.merge else {
                throw ValidationFailure("extension('\(FOLIO_EXTENSION_SEMANTIC_MERGE)') answered a table of \(table.pointee.struct_size) bytes or without its function")
            }
            step("semantic merge of the sample with itself")
            var merged = folio_buffer(), conflicts = folio_buffer(), error = folio_buffer()
            let status = sample.withUnsafeBufferPointer { s in
                merge(editor.table, s.baseAddress, s.count, s.baseAddress, s.count, s.baseAddress, s.count, &merged, &conflicts, &error)
            }
            try expectStatus(status, [FOLIO_STATUS_OK], "semantic merge of three equal versions", error: RawEditor.take(&error))
            _ = RawEditor.take(&conflicts)
            let bytes = RawEditor.take(&merged)
            try expectOwned(bytes, "the merged bytes")
            step("open the merged bytes")
            editor.release(try editor.openAccepted(bytes.bytes ?? [], what: "the merge of three equal versions"))
        }
    }

    // MARK: buffers

    /// Every buffer is released by the function that came with it and every document by `release`: repeating each call
    /// many times must not grow the heap (a release that frees nothing or the wrong pointer fails here; one that frees
    /// twice aborts in the C library and the parent names the step).
    static func buffers(_ editor: RawEditor, _ host: HostEditor, _ sample: [UInt8]) throws {
        step("open the sample")
        let handle = try editor.openAccepted(sample, what: "the sample")
        defer { editor.release(handle) }
        step("serialize the sample")
        let serializedSize = try editor.serialized(handle, what: "the sample").count
        step("render 80x24", deadline: .render)
        let render = editor.render(handle, width: 80, height: 24)
        try expectText(render.text, "render(80x24)'s text", oneLine: false)
        let renderSize = render.text.bytes?.count ?? 0
        step("apply an unknown command")
        let unknown = editor.apply(handle, "folio-validate-no-such-command", Array("[]".utf8))
        try expectText(unknown.error, "apply(unknown command)'s error message", oneLine: false)
        if let stray = unknown.handle { editor.release(stray) }
        try repeatCall("open and release the sample", size: sample.count) {
            if let opened = editor.open(sample).handle { editor.release(opened) }
        }
        try repeatCall("serialize", size: serializedSize) { _ = editor.serialize(handle) }
        try repeatCall("render 80x24", size: renderSize) { _ = editor.render(handle, width: 80, height: 24) }
        try repeatCall("apply an unknown command (its error message)", size: unknown.error.bytes?.count ?? 0) {
            if let stray = editor.apply(handle, "folio-validate-no-such-command", Array("[]".utf8)).handle { editor.release(stray) }
        }
    }

    /// Repeats `call` enough times to leak at least 1 MiB if it kept what it allocates, and fails when the data
    /// segment grew by half that.
    private static func repeatCall(_ what: String, size: Int, _ call: () -> Void) throws {
        step("repeat: \(what)", deadline: .none)
        let count = min(40_000, max(500, (1 << 20) / (size + 32)))
        for _ in 0..<min(200, count) { call() }  // warm up: lazy initialization, caches
        let before = dataBytes()
        for _ in 0..<count { call() }
        let grown = dataBytes() - before
        if grown > 512 << 10 {
            throw ValidationFailure("\(what): the heap grew by \(grown >> 10) KiB over \(count) calls (≈ \(grown / count) bytes per call not freed: "
                                    + "each buffer must be freed by its own release function, each document by release)")
        }
    }
}
