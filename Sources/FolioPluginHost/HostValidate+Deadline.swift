import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension HostValidate {
    /// The deadline of the step running: Folio's own (a call, a render) armed as a real-time timer, whose SIGALRM ends
    /// the test process as Folio would end a plugin host that missed it. The parent reads the last `deadline MS` line.
    enum Deadline {
        enum Kind { case call, render, none }

        /// Milliseconds for a call and a render, and the last deadline announced.
        private static let state = Mutex<(call: Int, render: Int, announced: Int?)>((5000, 1000, nil))

        static func configure(call: Int, render: Int) {
            state.withLock { $0 = (call, render, nil) }
            // The parent may have spawned this process from a thread that blocks signals (a Dispatch worker): the
            // mask is inherited, and a blocked SIGALRM would never end a step.
            signal(SIGALRM, SIG_DFL)
            var alarm = sigset_t()
            sigemptyset(&alarm)
            sigaddset(&alarm, SIGALRM)
            sigprocmask(SIG_UNBLOCK, &alarm, nil)
        }

        /// Runs one plugin call under the deadline of `kind`, disarmed once it returns: as in real use the deadline
        /// covers the plugin's work, not the validator's checks of what it returned (a 1 MiB line measured cell by cell).
        static func timed<R>(_ kind: Kind, _ call: () -> R) -> R {
            arm(kind)
            defer { arm(.none) }
            return call()
        }

        /// Arms the timer for a step of `kind` (`none` disarms it: a step of many calls, checked otherwise).
        static func arm(_ kind: Kind) {
            let milliseconds: Int = state.withLock { state in
                let value = kind == .call ? state.call : kind == .render ? state.render : 0
                if value != 0 && value != state.announced {
                    state.announced = value
                    writeLine("deadline \(value)")
                }
                return value
            }
            var timer = itimerval()
            timer.it_value = timeval(tv_sec: milliseconds / 1000, tv_usec: (milliseconds % 1000) * 1000)
            _ = setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &timer, nil)
        }
    }
}
