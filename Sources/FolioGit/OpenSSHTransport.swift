import CGit2
import FoundationEssentials
import Glibc

/// libgit2's ssh transport for `ssh://`, `ssh+git://`, `git+ssh://` and scp-like `[user@]host:path`, registered once
/// before the first transfer: libgit2's smart protocol (fetch and push stay libgit2's) over a stream that is the
/// standard input and output of the system's `ssh` (`SSHChild`, `SSHLaunch`), as git runs it.
///
/// Which `ssh` the transfer runs is its watch's (`TransferWatch.ssh`, from the transfer's environment). A transfer
/// with none — no `ssh` installed, or a stream opened outside a watched transfer — gets libgit2's own libssh2
/// subtransport, as before this transport existed.
enum OpenSSHTransport {
    /// Registers the transport with libgit2 once (libgit2 must be started).
    static func register() throws { try check(registration, "register Folio's ssh transport") }

    private static let registration: Int32 = {
        for scheme in ["ssh", "ssh+git", "git+ssh"] {
            let code = git_transport_register(scheme, { out, owner, _ in OpenSSHTransport.transport(out, owner) }, nil)
            if code < 0 { return code }
        }
        return 0
    }()

    /// The subtransport definition (libgit2 reads it while making each transport). Safe unsynchronized: written once,
    /// inside this lazy initializer (which Swift runs once), and only read afterwards, by libgit2.
    nonisolated(unsafe) private static let definition: UnsafeMutablePointer<git_smart_subtransport_definition> = {
        let definition = UnsafeMutablePointer<git_smart_subtransport_definition>.allocate(capacity: 1)
        definition.initialize(to: git_smart_subtransport_definition(
            callback: { out, owner, _ in OpenSSHTransport.subtransport(out, owner) }, rpc: 0, param: nil))
        return definition
    }()

    private static func transport(_ out: UnsafeMutablePointer<UnsafeMutablePointer<git_transport>?>?, _ owner: OpaquePointer?) -> Int32 {
        git_transport_smart(out, owner, definition)
    }

    /// Ours when the transfer runs `ssh`, else libssh2's. Never fails once memory is there: libgit2 1.5 frees the
    /// subtransport it did not get when this fails.
    private static func subtransport(_ out: UnsafeMutablePointer<UnsafeMutablePointer<git_smart_subtransport>?>?,
                                     _ owner: UnsafeMutablePointer<git_transport>?) -> Int32 {
        guard let out else { return -1 }
        guard TransferWatch.current?.ssh != nil else {
            PhaseTrace.mark("ssh through libssh2 (no ssh program)")
            return git_smart_subtransport_ssh(out, owner, nil)
        }
        guard let raw = calloc(1, MemoryLayout<folio_ssh_subtransport>.size) else { return -1 }
        let sub = raw.assumingMemoryBound(to: folio_ssh_subtransport.self)
        sub.pointee.owner = owner
        sub.pointee.parent.action = { out, sub, url, service in OpenSSHTransport.action(out, sub, url, service) }
        sub.pointee.parent.close = { _ in 0 }  // the stream ends its ssh when libgit2 frees it, before this
        sub.pointee.parent.free = { sub in
            guard let sub else { return }
            let own = UnsafeMutableRawPointer(sub).assumingMemoryBound(to: folio_ssh_subtransport.self)
            if let current = own.pointee.current { current.pointee.free(current) }
            Glibc.free(own)
        }
        out.pointee = raw.assumingMemoryBound(to: git_smart_subtransport.self)
        return 0
    }

    /// Starts `ssh` for a listing (`*_LS`), or hands back the stream the listing opened (git's stateful protocol).
    private static func action(_ out: UnsafeMutablePointer<UnsafeMutablePointer<git_smart_subtransport_stream>?>?,
                               _ sub: UnsafeMutablePointer<git_smart_subtransport>?, _ url: UnsafePointer<CChar>?,
                               _ service: git_smart_service_t) -> Int32 {
        guard let out, let sub, let url else { return -1 }
        let own = UnsafeMutableRawPointer(sub).assumingMemoryBound(to: folio_ssh_subtransport.self)
        switch service {
        case GIT_SERVICE_UPLOADPACK, GIT_SERVICE_RECEIVEPACK:
            guard let current = own.pointee.current else { return fail("the listing of refs must come first") }
            out.pointee = current
            return 0
        default:
            // A stream of an earlier listing was freed by libgit2 before this one (its reset comes first).
            let name = service == GIT_SERVICE_UPLOADPACK_LS ? "git-upload-pack" : "git-receive-pack"
            guard let stream = start(name, url: String(cString: url), sub: sub) else { return -1 }
            own.pointee.current = stream
            out.pointee = stream
            return 0
        }
    }

    /// A stream over a new `ssh` running `service`; nil with `git_error` set when it cannot start.
    private static func start(_ service: String, url: String, sub: UnsafeMutablePointer<git_smart_subtransport>)
        -> UnsafeMutablePointer<git_smart_subtransport_stream>? {
        let watch = TransferWatch.current
        guard let launch = watch?.ssh else { _ = fail("no ssh program for this transfer"); return nil }
        let child: SSHChild
        do {
            child = try SSHChild(launch, address: SSHAddress(url), service: service, watch: watch)
        } catch let problem as SSHAddress.Problem {
            _ = fail("not an ssh address Folio can use (\(problem)): \(RemoteURL.redacted(url))")
            return nil
        } catch {
            _ = fail("\(error)")
            return nil
        }
        guard let raw = calloc(1, MemoryLayout<folio_ssh_stream>.size) else { return nil }
        let stream = raw.assumingMemoryBound(to: folio_ssh_stream.self)
        stream.pointee.parent.subtransport = sub
        stream.pointee.child = Unmanaged.passRetained(child).toOpaque()
        stream.pointee.parent.read = { stream, buffer, size, read in OpenSSHTransport.read(stream, buffer, size, read) }
        stream.pointee.parent.write = { stream, buffer, length in OpenSSHTransport.write(stream, buffer, length) }
        stream.pointee.parent.free = { stream in OpenSSHTransport.free(stream) }
        return raw.assumingMemoryBound(to: git_smart_subtransport_stream.self)
    }

    private static func child(_ stream: UnsafeMutablePointer<git_smart_subtransport_stream>?) -> SSHChild? {
        guard let stream else { return nil }
        let own = UnsafeMutableRawPointer(stream).assumingMemoryBound(to: folio_ssh_stream.self)
        return own.pointee.child.map { Unmanaged<SSHChild>.fromOpaque($0).takeUnretainedValue() }
    }

    private static func read(_ stream: UnsafeMutablePointer<git_smart_subtransport_stream>?, _ buffer: UnsafeMutablePointer<CChar>?,
                             _ size: Int, _ read: UnsafeMutablePointer<Int>?) -> Int32 {
        guard let child = child(stream), let buffer, let read else { return -1 }
        guard let count = child.read(into: buffer, count: size) else { return -1 }
        read.pointee = count
        return 0
    }

    private static func write(_ stream: UnsafeMutablePointer<git_smart_subtransport_stream>?, _ buffer: UnsafePointer<CChar>?, _ length: Int) -> Int32 {
        guard let child = child(stream), let buffer else { return -1 }
        return child.write(UnsafeRawBufferPointer(start: buffer, count: length)) ? 0 : -1
    }

    /// Ends the stream's `ssh` (`SSHChild.finish`) and frees it; the subtransport forgets it.
    private static func free(_ stream: UnsafeMutablePointer<git_smart_subtransport_stream>?) {
        guard let stream else { return }
        let own = UnsafeMutableRawPointer(stream).assumingMemoryBound(to: folio_ssh_stream.self)
        if let child = own.pointee.child {
            let running = Unmanaged<SSHChild>.fromOpaque(child)
            running.takeUnretainedValue().finish()
            running.release()
        }
        if let sub = stream.pointee.subtransport {
            let owner = UnsafeMutableRawPointer(sub).assumingMemoryBound(to: folio_ssh_subtransport.self)
            if owner.pointee.current == stream { owner.pointee.current = nil }
        }
        Glibc.free(own)
    }

    private static func fail(_ message: String) -> Int32 {
        git_error_set_str(Int32(GIT_ERROR_SSH.rawValue), message)
        return -1
    }
}
