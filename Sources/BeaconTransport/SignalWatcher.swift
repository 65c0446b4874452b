import CSystem
import Glibc

/// Turns every signal whose default action ends the process and that a user or the system sends to
/// stop a program (`stopping`) into a readable descriptor for the poll loop (signalfd), so shutdown
/// happens in the loop (advertising or scanning turned off, recording flushed) rather than in a handler
/// or not at all. SIGPIPE is ignored so a write to a closed peer fails with EPIPE instead of killing the
/// process, and SIGXFSZ so a file-size limit fails the write with EFBIG, which is reported after cleanup.
///
/// Create it at the start of `main`, before any thread starts: the signals are blocked in the
/// creating thread and inherited by threads created afterwards.
public final class SignalWatcher {
    /// Readable when a watched signal is pending.
    public private(set) var descriptor: Int32
    public let signals: [Int32]
    /// The first watched signal read so far: once set, the run is stopping.
    public private(set) var received: Int32?
    private var previousMask = sigset_t()

    /// SIGINT and SIGTERM; SIGHUP (the terminal or ssh session went away); SIGQUIT (Ctrl-\\), which would
    /// otherwise have the Swift runtime print a backtrace and leave the controller on; and SIGUSR1, SIGUSR2, SIGALRM,
    /// SIGVTALRM and SIGPROF, which nothing in beacon uses and which would otherwise kill it with the
    /// controller left on.
    public static let stopping: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF]

    public init(signals: [Int32] = SignalWatcher.stopping) throws(SystemError) {
        self.signals = signals
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        var previous = sigset_t()
        try syscall("pthread_sigmask") { () -> Int32 in
            let code = pthread_sigmask(SIG_BLOCK, &mask, &previous)
            if code != 0 { Glibc.errno = code; return -1 }
            return 0
        }
        previousMask = previous
        do throws(SystemError) {
            descriptor = try syscall("signalfd") { csystem_signalfd(-1, &mask, csystem_sfd_nonblock | csystem_sfd_cloexec) }
        } catch {
            _ = pthread_sigmask(SIG_SETMASK, &previous, nil)
            throw error
        }
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
        _ = Glibc.signal(SIGXFSZ, SIG_IGN)
    }

    deinit { close() }

    /// The next pending watched signal, nil when none is pending. A read error other than "nothing
    /// pending" can only follow `close()`, and also reads as nil.
    public func pendingSignal() -> Int32? {
        guard descriptor >= 0 else { return nil }
        let fd = descriptor
        var info = [UInt8](repeating: 0, count: Int(csystem_signalfd_siginfo_size))
        let count: Int
        do throws(SystemError) {
            count = try syscall("read(signalfd)") { info.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } }
        } catch {
            return nil
        }
        guard count == info.count else { return nil }
        // ssi_signo is the first field, a native-endian uint32.
        let number = Int32(bitPattern: info.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 0, as: UInt32.self) })
        received = received ?? number
        return number
    }

    /// Closes the descriptor and restores the signal mask that was in effect before.
    public func close() {
        guard descriptor >= 0 else { return }
        closeDescriptor(descriptor)
        descriptor = -1
        _ = pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }
}
