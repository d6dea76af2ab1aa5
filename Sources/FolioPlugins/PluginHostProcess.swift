import FolioCore
import Foundation

/// The plugin host process: the child side of the plugin boundary. `folio __plugin-host` runs `main`, which loads
/// plugin libraries on request and runs their code one call at a time, answering over the inherited socket.
/// Folio keeps the document's bytes and history; this process only proposes results (new bytes, descriptions,
/// views). Whatever a plugin does here — crash, loop, allocate, scribble — ends at this process.
public enum PluginHostProcess {
    /// The hidden first argument that selects host mode.
    public static let modeArgument = "__plugin-host"
    /// The descriptor the socket is inherited on.
    static let socketFD: Int32 = 3

    /// Runs the host loop (`folio __plugin-host --memory BYTES --buffer BYTES`); returns the exit code.
    public static func main(_ arguments: [String]) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)  // a plugin flooding stderr past the log's size limit gets EFBIG, not a signal
        let memory = option("--memory", in: arguments)
        let bufferCap = Int(clamping: option("--buffer", in: arguments) ?? 64 << 20)
        pluginBufferCap.store(bufferCap, ordering: .relaxed)
        if let memory { limit(RLIMIT_AS, memory) }
        limit(RLIMIT_FSIZE, 1 << 20)
        limit(RLIMIT_CORE, 0)
        watchParent()
        let channel = WireChannel(fd: socketFD, cap: PluginLimits.messageCap(bufferCap: bufferCap))
        var server = HostServer(bufferCap: bufferCap)
        do {
            try channel.send(.ready, sequence: 0, fields: [PluginWire.integerField(Int64(PluginWire.version))])
            while true {
                let request = try channel.receive()
                guard let reply = try server.handle(request) else { continue }
                try channel.send(reply.kind, sequence: request.sequence, fields: reply.fields)
            }
        } catch PluginWire.WireError.closed {
            return 0
        } catch {
            return 3
        }
    }

    private static func option(_ name: String, in arguments: [String]) -> UInt64? {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
        return UInt64(arguments[index + 1])
    }

    private static func limit(_ resource: __rlimit_resource, _ value: UInt64) {
        let resource = __rlimit_resource_t(resource.rawValue)
        var limit = rlimit(rlim_cur: rlim_t(value), rlim_max: rlim_t(value))
        _ = setrlimit(resource, &limit)
    }

    /// Ends this process as soon as Folio's end of the socket closes, even while a plugin call is spinning:
    /// a thread polls for the peer's hang-up (POLLRDHUP) and exits.
    private static func watchParent() {
        let thread = Thread {
            let rdhup: Int16 = 0x2000  // POLLRDHUP (Linux)
            while true {
                var poller = pollfd(fd: socketFD, events: rdhup, revents: 0)
                let ready = poll(&poller, 1, -1)
                if ready < 0 && errno == EINTR { continue }
                if ready < 0 || poller.revents & (rdhup | Int16(POLLHUP) | Int16(POLLERR) | Int16(POLLNVAL)) != 0 { _exit(0) }
            }
        }
        thread.stackSize = 64 << 10
        thread.start()
    }
}

/// A reply: kind and fields.
struct HostReply {
    var kind: PluginWire.Kind
    var fields: [Data]
}

/// The host's state: the loaded plugin and the documents Folio has open in it, by Folio's ids.
struct HostServer {
    let bufferCap: Int
    private var plugin: LoadedPlugin?
    private var documents: [Int64: EditorDocument] = [:]

    init(bufferCap: Int) { self.bufferCap = bufferCap }

    /// Runs one request; nil for requests without a reply (release).
    mutating func handle(_ request: PluginWire.Message) throws -> HostReply? {
        do {
            return try dispatch(request)
        } catch let error as PluginWire.WireError {
            throw error
        } catch let refusal as PluginRefusal {
            return HostReply(kind: .failure, fields: [PluginWire.integerField(-1), Data(refusal.reason.utf8), Data(refusal.file.utf8)])
        } catch let failure as EditorOperationError {
            return HostReply(kind: .failure, fields: [PluginWire.integerField(failure.kind.status), Data(failure.message.utf8)])
        } catch {
            return HostReply(kind: .failure, fields: [PluginWire.integerField(7), Data("\(error)".utf8)])
        }
    }

    private func editor(_ request: PluginWire.Message) throws -> PluginEditor {
        let id = try request.string(0)
        guard let plugin else { throw PluginWire.WireError.violation("a call before load") }
        guard let editor = plugin.editor(id) else { throw EditorOperationError(editor: id, operation: "load", kind: .internal, message: "the library does not provide editor '\(id)'") }
        return editor
    }

    private func document(_ request: PluginWire.Message, _ index: Int) throws -> EditorDocument {
        let id = try request.integer(index)
        guard let document = documents[id] else { throw PluginWire.WireError.violation("no document \(id)") }
        return document
    }

    private func selection(_ request: PluginWire.Message, from index: Int) throws -> ViewSelection {
        func int(_ i: Int) throws -> Int { Int(truncatingIfNeeded: try request.integer(i)) }
        return ViewSelection(cursor: try int(index), anchor: try int(index + 1), scroll: try int(index + 2))
    }

    /// A plugin buffer checked against the cap before it crosses the boundary.
    private func capped(_ data: Data, _ editor: String, _ what: String) throws -> Data {
        guard data.count <= bufferCap else {
            throw EditorOperationError(editor: editor, operation: what, kind: .internal,
                                       message: "the plugin returned \(data.count) bytes, over the limit of \(bufferCap)")
        }
        return data
    }

    private mutating func dispatch(_ request: PluginWire.Message) throws -> HostReply? {
        let ok = { (fields: [Data]) in HostReply(kind: .ok, fields: fields) }
        switch request.kind {
        case .load:
            guard plugin == nil else { throw PluginWire.WireError.violation("a second load") }
            let library = URL(fileURLWithPath: try request.string(0))
            let loaded = try LoadedPlugin.load(library)
            let manifestPath = try request.string(1)
            if !manifestPath.isEmpty {
                let manifestURL = URL(fileURLWithPath: manifestPath)
                let manifest: PluginManifest
                do { manifest = try PluginManifest.load(from: manifestURL) } catch {
                    throw PluginRefusal(file: library.path, reason: "bad manifest: \(error)")
                }
                try loaded.check(against: manifest, manifestURL: manifestURL)
            }
            plugin = loaded
            return ok([Data(loaded.editors.map(\.id).joined(separator: "\n").utf8)])
        case .open:
            let editor = try editor(request)
            let id = try request.integer(1)
            documents[id] = try editor.open(try request.field(2))
            return ok([])
        case .apply:
            let editor = try editor(request)
            let document = try document(request, 1)
            let newID = try request.integer(2)
            let arguments = try JSONDecoder().decode([String].self, from: try request.field(4))
            let (changed, description) = try document.applying(try request.string(3), arguments: arguments, selection: try selection(request, from: 5))
            documents[newID] = changed
            return ok([try capped(Data(description.utf8), editor.id, try request.string(3))])
        case .serialize:
            let editor = try editor(request)
            return ok([try capped(try document(request, 1).serialized(), editor.id, "serialize")])
        case .render:
            let editor = try editor(request)
            let width = Int(clamping: try request.integer(2)), height = Int(clamping: try request.integer(3))
            let lines = try document(request, 1).render(width: width, height: height, selection: try selection(request, from: 4))
            return ok([try capped(Data(lines.joined(separator: "\n").utf8), editor.id, "render")])
        case .release:
            documents[try request.integer(1)] = nil
            return nil
        case .diff:
            let editor = try editor(request)
            guard let text = try editor.semanticDiff(from: try request.field(1), to: try request.field(2)) else { return ok([]) }
            return ok([try capped(Data(text.utf8), editor.id, "semantic diff")])
        case .merge:
            let editor = try editor(request)
            switch try editor.semanticMerge(base: try request.field(1), ours: try request.field(2), theirs: try request.field(3)) {
            case nil: return ok([])
            case let .merged(data)?: return ok([try capped(data, editor.id, "semantic merge")])
            case let .conflicts(lines)?: return HostReply(kind: .conflicts, fields: [try capped(Data(lines.joined(separator: "\n").utf8), editor.id, "semantic merge")])
            }
        case .ready, .ok, .failure, .conflicts:
            throw PluginWire.WireError.violation("a reply sent as a request")
        }
    }
}

extension EditorOperationError.Kind {
    /// The ABI status code of the kind.
    var status: Int64 {
        switch self {
        case .invalidArgument: return 1
        case .unknownCommand: return 2
        case .invalidDocument: return 3
        case .conflict: return 4
        case .unsupported: return 5
        case .outOfMemory: return 6
        case .internal: return 7
        }
    }

    /// The kind of an ABI status code (anything unknown is internal).
    init(status: Int64) {
        switch status {
        case 1: self = .invalidArgument
        case 2: self = .unknownCommand
        case 3: self = .invalidDocument
        case 4: self = .conflict
        case 5: self = .unsupported
        case 6: self = .outOfMemory
        default: self = .internal
        }
    }
}
