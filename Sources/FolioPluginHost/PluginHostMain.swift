import FolioPluginWire
#if canImport(Glibc)
import Glibc
#endif

/// The plugin host process (`folio-plugin-host --memory BYTES --buffer BYTES`, started by Folio with its end of a
/// socketpair as fd 3): loads one plugin library on request and runs its code one call at a time. Folio keeps the
/// document's bytes and history; this process only proposes results. Whatever a plugin does here — crash, loop,
/// allocate, scribble — ends at this process. It links only the Swift core library and Glibc, so that starting it
/// costs little more than loading the plugin itself.
public enum PluginHostMain {
    /// The descriptor the socket is inherited on.
    public static let socketFD = HostWire.socketFD

    /// Runs the host loop; returns the exit code (0 when Folio closed the connection).
    public static func run(_ arguments: [String]) -> Int32 {
        if arguments.count > 1, arguments[1] == "--validate" { return HostValidate.run(Array(arguments.dropFirst(2))) }
        if arguments.count > 1, arguments[1] == "--check" { return HostCheck.run(Array(arguments.dropFirst(2))) }
        if arguments.count > 1, arguments[1] == "--run-confined" { return HostRunConfined.run(Array(arguments.dropFirst(2))) }
        if arguments.count > 1, arguments[1] == "--confinement" { return HostConfinement.printReport(grant: arguments.count > 2 ? arguments[2] : "") }
        var info = stat()
        guard fstat(socketFD, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else {
            // Started by hand: write nothing to whatever fd 3 is.
            let line = "folio-plugin-host: runs plugins for folio, which starts it with a socket as descriptor 3; not for direct use\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
            return 2
        }
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)  // a plugin flooding stderr past the log's size limit gets EFBIG, not a signal
        let bufferCap = Int(clamping: option("--buffer", in: arguments) ?? 64 << 20)
        if let memory = option("--memory", in: arguments) { limit(RLIMIT_AS, memory) }
        limit(RLIMIT_FSIZE, 1 << 20)
        limit(RLIMIT_CORE, 0)
        // The parent's watch starts once the plugin is loaded and this process confined (HostServer), so that the
        // thread it runs on is confined too (Landlock binds the confining thread and the threads it starts later).
        let channel = HostChannel(fd: socketFD, cap: HostWire.messageCap(bufferCap: bufferCap))
        let logFolder = arguments.firstIndex(of: HostWire.logFolderOption).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
        let server = HostServer(bufferCap: bufferCap, confined: !arguments.contains(HostWire.unconfinedOption), logFolder: logFolder,
                                afterLoad: watchParent)
        do {
            try channel.send(.ready, sequence: 0, fields: [HostWire.integer(Int64(HostWire.version))])
            while true {
                let request = try channel.receive()
                guard let (kind, fields) = try server.handle(request) else { continue }
                try channel.send(kind, sequence: request.sequence, fields: fields)
            }
        } catch .closed {
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
        var limit = rlimit(rlim_cur: rlim_t(value), rlim_max: rlim_t(value))
        _ = setrlimit(__rlimit_resource_t(resource.rawValue), &limit)
    }

    /// Ends this process as soon as Folio's end of the socket closes, even while a plugin call is spinning:
    /// a thread polls for the peer's hang-up (POLLRDHUP) and exits.
    static func watchParent() {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, 64 << 10)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        _ = pthread_create(&thread, &attributes, { _ in
            let rdhup: Int16 = 0x2000  // POLLRDHUP (Linux)
            while true {
                var poller = pollfd(fd: PluginHostMain.socketFD, events: rdhup, revents: 0)
                let ready = poll(&poller, 1, -1)
                if ready < 0 && errno == EINTR { continue }
                if ready < 0 || poller.revents & (rdhup | Int16(POLLHUP) | Int16(POLLERR) | Int16(POLLNVAL)) != 0 { _exit(0) }
            }
        }, nil)
        pthread_attr_destroy(&attributes)
    }
}
