import CGit2
import FoundationEssentials
import Glibc

/// The plain socket stream libgit2 uses for every connection once registered (git://, http://, the socket under
/// https:// and ssh://): libgit2's own, but connecting without blocking (so a cancel or a timeout ends a connect
/// that gets no answer) and with its socket under the watch of the transfer that opened it (`TransferWatch`).
/// A stream opened outside a watched transfer behaves like libgit2's own (no timeout).
enum WatchedSocketStream {
    /// Registers the stream with libgit2 once, before the first transfer (libgit2 must be started); a transfer
    /// never runs without it (it would have no timeout).
    static func register() throws { try check(registration, "register Folio's socket stream") }

    /// libgit2's answer to the registration, made once.
    private static let registration: Int32 = {
        var registration = git_stream_registration()
        registration.version = GIT_STREAM_VERSION
        registration.`init` = { out, host, port in
            guard let out, let host, let port else { return -1 }
            guard let raw = calloc(1, MemoryLayout<folio_socket_stream>.size) else { return -1 }
            let stream = raw.assumingMemoryBound(to: folio_socket_stream.self)
            stream.pointee.parent.version = GIT_STREAM_VERSION
            stream.pointee.parent.connect = { WatchedSocketStream.connect($0) }
            stream.pointee.parent.read = { WatchedSocketStream.read($0, $1, $2) }
            stream.pointee.parent.write = { WatchedSocketStream.write($0, $1, $2, $3) }
            stream.pointee.parent.close = { WatchedSocketStream.close($0) }
            stream.pointee.parent.free = { WatchedSocketStream.free($0) }
            let watch = TransferWatch.current
            if let proxy = watch?.forwardingProxy, proxy.targetHost == String(cString: host).lowercased(), proxy.targetPort == String(cString: port) {
                stream.pointee.host = strdup(proxy.proxyHost)  // a plain-http transfer through a proxy (see ForwardingProxy)
                stream.pointee.port = strdup(proxy.proxyPort)
            } else {
                stream.pointee.host = strdup(host)
                stream.pointee.port = strdup(port)
            }
            stream.pointee.s = -1
            // Retained until the stream is freed: libgit2 may close it after the transfer's call returned.
            stream.pointee.watch = watch.map { Unmanaged.passRetained($0).toOpaque() }
            out.pointee = raw.assumingMemoryBound(to: git_stream.self)
            return 0
        }
        return git_stream_register(GIT_STREAM_STANDARD, &registration)
    }()

    private static func parts(_ stream: UnsafeMutablePointer<git_stream>?) -> (UnsafeMutablePointer<folio_socket_stream>, TransferWatch?)? {
        guard let stream else { return nil }
        let own = UnsafeMutableRawPointer(stream).assumingMemoryBound(to: folio_socket_stream.self)
        return (own, own.pointee.watch.map { Unmanaged<TransferWatch>.fromOpaque($0).takeUnretainedValue() })
    }

    private static func fail(_ message: String) -> Int32 {
        git_error_set_str(Int32(GIT_ERROR_NET.rawValue), message)
        return -1
    }

    // MARK: Connect

    private static func connect(_ stream: UnsafeMutablePointer<git_stream>?) -> Int32 {
        guard let (own, watch) = parts(stream), let host = own.pointee.host, let port = own.pointee.port else { return -1 }
        let hostName = String(cString: host)
        watch?.connecting()
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var info: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, port, &hints, &info)
        guard resolved == 0 else { return fail("failed to resolve address for \(hostName): \(String(cString: gai_strerror(resolved)))") }
        defer { freeaddrinfo(info) }
        var address = info
        while let candidate = address?.pointee, watch?.stop == nil {
            address = candidate.ai_next
            let fd = socket(candidate.ai_family, candidate.ai_socktype | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), candidate.ai_protocol)
            guard fd >= 0 else { continue }
            guard connectWaiting(fd, candidate.ai_addr, candidate.ai_addrlen, watch) else { _ = Glibc.close(fd); continue }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            if let watch, !watch.adopt(fd) { _ = Glibc.close(fd); break }
            own.pointee.s = fd
            return 0
        }
        return fail("failed to connect to \(hostName)")
    }

    /// Connects a non-blocking socket, polling in short slices so that the watch can stop it; true when connected.
    private static func connectWaiting(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t, _ watch: TransferWatch?) -> Bool {
        if Glibc.connect(fd, address, length) == 0 { return true }
        guard errno == EINPROGRESS || errno == EINTR else { return false }
        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        while true {
            let ready = poll(&poller, 1, watch == nil ? -1 : 50)
            if ready > 0 {
                var error: Int32 = 0
                var size = socklen_t(MemoryLayout<Int32>.size)
                return getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) == 0 && error == 0
            }
            if ready < 0 && errno != EINTR { return false }
            if watch?.stop != nil { return false }
        }
    }

    // MARK: Read, write, close

    private static func read(_ stream: UnsafeMutablePointer<git_stream>?, _ data: UnsafeMutableRawPointer?, _ length: Int) -> Int {
        guard let (own, watch) = parts(stream) else { return -1 }
        while true {
            let count = recv(own.pointee.s, data, length, 0)
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return Int(fail("error receiving socket data: \(String(cString: strerror(errno)))")) }
            if count > 0 { watch?.progressed() }
            return count
        }
    }

    private static func write(_ stream: UnsafeMutablePointer<git_stream>?, _ data: UnsafePointer<CChar>?, _ length: Int, _ flags: Int32) -> Int {
        guard let (own, watch) = parts(stream) else { return -1 }
        while true {
            // MSG_NOSIGNAL: a peer that went away is an error here, never a SIGPIPE.
            let count = send(own.pointee.s, data, length, flags | Int32(MSG_NOSIGNAL))
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return Int(fail("error sending data: \(String(cString: strerror(errno)))")) }
            if count > 0 { watch?.progressed() }
            return count
        }
    }

    private static func close(_ stream: UnsafeMutablePointer<git_stream>?) -> Int32 {
        guard let (own, watch) = parts(stream) else { return -1 }
        let fd = own.pointee.s
        own.pointee.s = -1
        guard fd >= 0 else { return 0 }
        if let watch { watch.close(fd) } else { _ = Glibc.close(fd) }
        return 0
    }

    private static func free(_ stream: UnsafeMutablePointer<git_stream>?) {
        guard let (own, _) = parts(stream) else { return }
        if own.pointee.s >= 0 { _ = close(stream) }
        if let watch = own.pointee.watch { Unmanaged<TransferWatch>.fromOpaque(watch).release() }
        Glibc.free(own.pointee.host)
        Glibc.free(own.pointee.port)
        Glibc.free(own)
    }
}
