import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension HostValidate {
    /// The files a test reads and writes, opened before the process is confined (`HostConfinement`, as a real plugin
    /// host is): the inputs read whole, the outputs and `/proc/self/statm` held open. After that the plugin — and the
    /// test — can open nothing: an attempt fails with EPERM and is logged on standard error, which the parent shows.
    enum Files {
        private static let state = Mutex<(inputs: [String: [UInt8]], outputs: [String: Int32], statm: Int32)>(([:], [:], -1))

        /// Reads `inputs` and opens `outputs` (created empty) and the memory statistics.
        static func prepare(inputs: [String], outputs: [String]) throws {
            var read: [String: [UInt8]] = [:]
            for path in inputs where read[path] == nil { read[path] = try readDirectly(path) }
            var opened: [String: Int32] = [:]
            for path in outputs where opened[path] == nil {
                let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                guard fd >= 0 else { throw ValidationFailure("cannot write \(path): \(String(cString: strerror(errno)))") }
                opened[path] = fd
            }
            let statm = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
            state.withLock { $0 = (read, opened, statm) }
        }

        /// An input's bytes, as read before confinement (else read now, which a confined process cannot).
        static func read(_ path: String) throws -> [UInt8] {
            if let bytes = state.withLock({ $0.inputs[path] }) { return bytes }
            return try readDirectly(path)
        }

        /// Replaces an output's contents through the descriptor opened before confinement.
        static func write(_ path: String, _ bytes: [UInt8]) throws {
            guard let fd = state.withLock({ $0.outputs[path] }) else {
                throw ValidationFailure("cannot write \(path): it was not opened before the test began")
            }
            guard ftruncate(fd, 0) == 0 else { throw ValidationFailure("cannot write \(path): \(String(cString: strerror(errno)))") }
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(offset)) }
                if n < 0 { if errno == EINTR { continue }; throw ValidationFailure("cannot write \(path)") }
                offset += n
            }
        }

        /// `/proc/self/statm` read again from its start; nil when it could not be opened.
        static func statm() -> [UInt8]? {
            let fd = state.withLock { $0.statm }
            guard fd >= 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
            return count > 0 ? Array(buffer[0..<count]) : nil
        }

        private static func readDirectly(_ path: String) throws -> [UInt8] {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw ValidationFailure("cannot read \(path): \(String(cString: strerror(errno)))") }
            defer { close(fd) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if count < 0 { if errno == EINTR { continue }; throw ValidationFailure("cannot read \(path)") }
                if count == 0 { return bytes }
                bytes += chunk[0..<count]
            }
        }
    }

    /// The most bytes a plugin's buffer may hold (`--buffer`, Folio's own limit by default: 64 MiB), and the step
    /// running, for the failure that names a buffer over it.
    enum AnswerLimit {
        static let state = Mutex<(cap: Int, step: String)>((64 << 20, "starting"))

        /// Ends the test on a buffer over the cap, as Folio refuses it in real use: named as over the limit (never
        /// read, so never a timeout).
        static func refuse(size: Int) -> Never {
            let (cap, step) = state.withLock { ($0.cap, $0.step) }
            Deadline.arm(.none)
            HostValidate.reportFailure("the plugin returned \(size) bytes while \(step), over the limit of \(cap) bytes a plugin may return "
                                       + "(Folio refuses such an answer)")
            exit(1)
        }
    }
}
