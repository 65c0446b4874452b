/// Process exit codes (sysexits.h values where one fits), listed in `--help` and the README.
public enum ExitCode: Int32, CaseIterable, Sendable {
    /// Finished: --duration elapsed, SIGINT/SIGTERM/SIGHUP/SIGQUIT, end of a replayed capture, or stdout closed.
    case success = 0
    /// Bad arguments.
    case usage = 64
    /// A capture file that is not valid btsnoop, a scene file that is not a valid scene, or measurements
    /// `beacon calibrate` cannot trust.
    case dataError = 65
    /// A capture or scene file that cannot be opened.
    case noInput = 66
    /// No controller to talk to: no Bluetooth in the kernel, no such device, connection refused; or
    /// `--mqtt` without libmosquitto installed.
    case unavailable = 69
    /// A failure inside beacon itself.
    case software = 70
    /// An output file (`--record`, simulate's `--out` and `--truth`) cannot be created: a missing directory,
    /// no permission to write it, a FIFO with no reader.
    case cantCreate = 73
    /// The connection to the controller failed or closed mid-run, or a file or stdout could not be written
    /// (any error but EPIPE, the reader going away, or EIO from a terminal that hung up), or a `--record` FIFO whose reader stopped
    /// reading had not taken the whole recording by the end of the run.
    case ioError = 74
    /// The controller is in use by another program.
    case busy = 75
    /// The controller misbehaved: a command failed or timed out, a hardware error, an unframeable stream.
    case controllerError = 76
    /// Not permitted to open the controller.
    case noPermission = 77

    /// One line for the help text and README.
    public var meaning: String {
        switch self {
        case .success: "finished (--duration, SIGINT/SIGTERM/SIGHUP/SIGQUIT, end of a replayed capture, stdout closed)"
        case .usage: "usage error: bad or missing arguments"
        case .dataError: "the capture file is not valid btsnoop, the scene file is not a valid scene, the site file (locate, simulate --site) is not a valid site, or (calibrate) the measurements cannot be trusted"
        case .noInput: "the capture, scene or site file cannot be opened"
        case .unavailable: "no controller: no Bluetooth in the kernel, no such device, connection refused; or --mqtt without libmosquitto"
        case .software: "internal error"
        case .cantCreate: "the --record file, or simulate's --out or --truth, cannot be created (missing directory, no permission, a FIFO with no reader)"
        case .ioError: "the connection to the controller failed or closed, or a file or stdout could not be written (a --record FIFO whose reader stopped reading included)"
        case .busy: "the controller is in use by another program"
        case .controllerError: "the controller failed a command, did not answer, or sent an unframeable stream"
        case .noPermission: "not permitted to open the controller: hciN needs CAP_NET_RAW, hci-user:N CAP_NET_ADMIN"
        }
    }
}
