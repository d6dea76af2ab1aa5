import FolioPluginABI
import FolioPluginWire
#if canImport(Glibc)
import Glibc
#endif

/// The host's state: the loaded library and the documents Folio has open in it, by Folio's ids.
final class HostServer {
    private let bufferCap: Int
    private let confined: Bool
    /// The folder of the plugins' own logs (`HostLog`), nil to keep the shared log.
    private let logFolder: String?
    private let afterLoad: () -> Void
    private var library: HostLibrary?
    private var documents: [Int64: (editor: HostEditor, handle: OpaquePointer)] = [:]

    /// A server; `confined` confines this process once the plugin is loaded (HostConfinement), before its first call;
    /// `afterLoad` runs then (the parent's watch), whether the load succeeded or not.
    init(bufferCap: Int, confined: Bool = true, logFolder: String? = nil, afterLoad: @escaping () -> Void = {}) {
        self.bufferCap = bufferCap
        self.confined = confined
        self.logFolder = logFolder
        self.afterLoad = afterLoad
    }

    deinit {
        for (editor, handle) in documents.values { HostCalls(editor: editor, bufferCap: bufferCap).release(handle) }
    }

    /// Runs one request; nil for requests without a reply (release). Throws only for protocol violations.
    func handle(_ request: HostMessage) throws(HostWireError) -> (HostWire.Kind, [[UInt8]])? {
        do {
            return try dispatch(request)
        } catch let refusal as HostRefusal {
            return (.failure, [HostWire.integer(-1), Array(refusal.reason.utf8), Array(refusal.file.utf8)])
        } catch let failure as HostCallFailure {
            return (.failure, [HostWire.integer(failure.status), Array(failure.message.utf8)])
        } catch let error as HostWireError {
            throw error
        } catch {
            return (.failure, [HostWire.integer(7), Array("\(error)".utf8)])
        }
    }

    private func calls(_ request: HostMessage) throws -> HostCalls {
        let id = try request.string(0)
        guard let library else { throw HostWireError.violation("a call before load") }
        guard let editor = library.editors.first(where: { $0.id == id }) else {
            throw HostCallFailure(status: 7, message: "the library does not provide editor '\(id)'")
        }
        return HostCalls(editor: editor, bufferCap: bufferCap)
    }

    private func document(_ request: HostMessage, _ index: Int) throws -> OpaquePointer {
        let id = try request.integer(index)
        guard let document = documents[id] else { throw HostWireError.violation("no document \(id)") }
        return document.handle
    }

    private func selection(_ request: HostMessage, from index: Int) throws -> folio_selection {
        folio_selection(struct_size: UInt32(MemoryLayout<folio_selection>.size), reserved: 0,
                        cursor: try request.integer(index), anchor: try request.integer(index + 1), scroll: try request.integer(index + 2),
                        pan_x: try request.integer(index + 3), pan_y: try request.integer(index + 4))
    }

    private func dispatch(_ request: HostMessage) throws -> (HostWire.Kind, [[UInt8]])? {
        switch request.kind {
        case .load:
            guard library == nil else { throw HostWireError.violation("a second load") }
            defer { afterLoad() }
            // fields: library path, and (from Folio 0.x on) the grant (`PluginGrant`, empty for none)
            let path = try request.string(0)
            guard let grant = request.fields.count > 1 ? PluginGrant(decoding: try request.field(1)) : PluginGrant() else {
                throw HostWireError.violation("a load with a malformed grant")
            }
            let loaded = try HostLibrary.load(path)
            if let logFolder { HostLog.moveStandardError(to: logFolder, plugin: loaded.id, version: loaded.version) }
            let confinement = confined ? try HostConfinement.confine(library: path, grant: grant) : "none (started unconfined)"
            library = loaded
            return (.ok, [Array(loaded.editors.map(\.id).joined(separator: "\n").utf8), Array(loaded.id.utf8), Array(loaded.name.utf8),
                          Array(loaded.version.utf8), HostWire.integer(Int64(loaded.abiMajor)), HostWire.integer(Int64(loaded.abiMinor)),
                          loaded.editorsJSON, Array(confinement.utf8)])
        case .open:
            let calls = try calls(request)
            let id = try request.integer(1)
            let handle = try calls.open(try request.field(2))
            if let old = documents.updateValue((calls.editor, handle), forKey: id) { HostCalls(editor: old.editor, bufferCap: bufferCap).release(old.handle) }
            return (.ok, [])
        case .apply:
            let calls = try calls(request)
            let handle = try document(request, 1)
            let newID = try request.integer(2)
            let command = try request.string(3)
            let (changed, description) = try calls.apply(handle, command, arguments: try request.string(4), try selection(request, from: 5))
            if let old = documents.updateValue((calls.editor, changed), forKey: newID) { HostCalls(editor: old.editor, bufferCap: bufferCap).release(old.handle) }
            return (.ok, [try capped(Array(description.utf8))])
        case .serialize:
            let calls = try calls(request)
            return (.ok, [try calls.serialize(try document(request, 1))])
        case .render:
            let calls = try calls(request)
            let width = Int(clamping: try request.integer(2)), height = Int(clamping: try request.integer(3))
            return (.ok, [try calls.render(try document(request, 1), width: width, height: height, try selection(request, from: 4))])
        case .release:
            if let old = documents.removeValue(forKey: try request.integer(1)) { HostCalls(editor: old.editor, bufferCap: bufferCap).release(old.handle) }
            return nil
        case .diff:
            let calls = try calls(request)
            guard let text = try calls.diff(try request.field(1), try request.field(2)) else { return (.ok, []) }
            return (.ok, [text])
        case .merge:
            let calls = try calls(request)
            switch try calls.merge(try request.field(1), try request.field(2), try request.field(3)) {
            case nil: return (.ok, [])
            case let .merged(bytes)?: return (.ok, [bytes])
            case let .conflicts(lines)?: return (.conflicts, [lines])
            }
        case .items:
            // fields: editor, whether a previous version is given (integer 0/1), previous bytes, bytes
            let calls = try calls(request)
            let previous = try request.integer(1) != 0 ? try request.field(2) : nil
            guard let text = try calls.items(try request.field(3), previous: previous) else { return (.ok, []) }
            return (.ok, [text])
        case .take:
            // fields: editor, from bytes, into bytes, the number of items, from keys and into keys (one per line each)
            let calls = try calls(request)
            let count = try request.integer(3)
            let fromKeys = try Self.lines(request.string(4), count: count), intoKeys = try Self.lines(request.string(5), count: count)
            guard let (bytes, description) = try calls.takeItems(from: try request.field(1), into: try request.field(2), fromKeys: fromKeys, intoKeys: intoKeys) else {
                return (.ok, [])
            }
            return (.ok, [bytes, try capped(Array(description.utf8))])
        case .values:
            // fields: editor, document, command, selection (cursor, anchor, scroll, pan x, pan y)
            let calls = try calls(request)
            guard let json = try calls.argumentValues(try document(request, 1), try request.string(2), try selection(request, from: 3)) else { return (.ok, []) }
            return (.ok, [json])
        case .ready, .ok, .failure, .conflicts:
            throw HostWireError.violation("a reply sent as a request")
        }
    }

    /// The `count` lines of a key list (one empty line is one empty key; no keys at all is count 0).
    private static func lines(_ text: String, count: Int64) throws(HostWireError) -> [String] {
        let lines = count == 0 ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count == count else { throw .violation("a take of \(count) items with \(lines.count) keys") }
        return lines
    }

    private func capped(_ bytes: [UInt8]) throws -> [UInt8] {
        guard bytes.count <= bufferCap else { throw HostCallFailure(status: 7, message: "the plugin returned \(bytes.count) bytes, over the limit of \(bufferCap)") }
        return bytes
    }
}
