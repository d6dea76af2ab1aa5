#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a signal's action calls.
enum SignalHandler {
    /// `handler(signal)`, or `SIG_DFL` / `SIG_IGN` (nil is `SIG_DFL`).
    case plain((@convention(c) (Int32) -> Void)?)
    /// `handler(signal, info, context)`; `SA_SIGINFO` is added to the flags.
    case withInfo(@convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void)
}

/// Sets the action of `signalNumber` in one `sigaction` call: `handler`, with the signals of `blocking` (other than
/// `signalNumber`) held off while it runs, and `flags`. The one place that knows the platforms' `sigaction` layout.
/// Async-signal-safe (no allocation; an empty `blocking` is the empty array's shared storage).
func setSignalAction(_ signalNumber: Int32, _ handler: SignalHandler, blocking: [Int32] = [], flags: Int32 = 0) {
    var action = sigaction()
    #if canImport(Glibc)
    switch handler {
    case let .plain(function): action.__sigaction_handler.sa_handler = function
    case let .withInfo(function): action.__sigaction_handler.sa_sigaction = function
    }
    #else
    switch handler {
    case let .plain(function): action.__sigaction_u.__sa_handler = function
    case let .withInfo(function): action.__sigaction_u.__sa_sigaction = function
    }
    #endif
    action.sa_flags = flags
    if case .withInfo = handler { action.sa_flags |= SA_SIGINFO }
    sigemptyset(&action.sa_mask)
    for other in blocking where other != signalNumber { sigaddset(&action.sa_mask, other) }
    _ = sigaction(signalNumber, &action, nil)
}
