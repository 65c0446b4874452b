/// Process exit codes (sysexits.h values where one fits), listed in `--help` and docs/troubleshooting.md.
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

    /// Why `command` ends with this code, for its help: only the causes that command has (advertise has
    /// no --mqtt, version reads no file); `meaning` where every command's cause is the same.
    func meaning(in command: String) -> String {
        switch (self, command) {
        case (.success, "advertise"): "stopped (--duration, SIGINT/SIGTERM/SIGHUP/SIGQUIT), advertising turned off"
        case (.success, "locate"): "finished (--duration, --until-offline, SIGINT/SIGTERM/SIGHUP/SIGQUIT, stdout closed)"
        case (.success, "survey"): "surveyed: the lines printed and appended to --out; or stopped by SIGINT/SIGTERM/SIGHUP/SIGQUIT before the survey was complete, nothing written"
        case (.success, "calibrate"): "measured (or fitted) and printed"
        case (.success, "devices"), (.success, "version"): "printed"
        case (.success, "simulate"): "the capture and ground truth written (--list, --print-scene: printed), or stopped by a signal"
        case (.dataError, "range"), (.dataError, "scan"): "the capture file is not valid btsnoop"
        case (.dataError, "calibrate"): "the capture file is not valid btsnoop, or the measurements cannot be trusted"
        case (.dataError, "locate"): "the --site file is not a valid site, or the --survey file not a valid survey"
        case (.dataError, "survey"): "the --site file is not a valid site or the --path file not a valid path, or the survey cannot be trusted (the beacon moved, too few readings, the gateways stopped before its end); nothing written"
        case (.dataError, "simulate"): "the scene file is not a valid scene, or the --site file not a valid site"
        case (.noInput, "locate"): "the --site or --survey file cannot be opened"
        case (.noInput, "survey"): "the --site or --path file cannot be opened"
        case (.noInput, "simulate"): "the scene file or the --site file cannot be opened"
        case (.noInput, _): "the capture file (--hci btsnoop:FILE) cannot be opened"
        case (.unavailable, "range"): "no controller: no Bluetooth in the kernel, no such device, connection refused; --mqtt without libmosquitto; or --advertise-self on a controller that cannot advertise while it scans"
        case (.unavailable, "scan"): "no controller: no Bluetooth in the kernel, no such device, connection refused; or --mqtt without libmosquitto"
        case (.unavailable, "locate"), (.unavailable, "survey"): "--mqtt without libmosquitto"
        case (.unavailable, _): "no controller: no Bluetooth in the kernel, no such device, connection refused"
        case (.cantCreate, "simulate"): "--out or --truth cannot be created (missing directory, no permission, a FIFO with no reader)"
        case (.cantCreate, "survey"): "--out cannot be created or opened to append to (missing directory, no permission, a FIFO with no reader)"
        case (.cantCreate, _): "the --record file cannot be created (missing directory, no permission, a FIFO with no reader)"
        case (.ioError, "version"), (.ioError, "devices"), (.ioError, "locate"): "stdout could not be written"
        case (.ioError, "simulate"): "a file or stdout could not be written"
        case (.ioError, "survey"): "--out or stdout could not be written"
        default: meaning
        }
    }

    /// One line for docs/troubleshooting.md and the man page, every command's causes together.
    public var meaning: String {
        switch self {
        case .success: "finished (--duration, SIGINT/SIGTERM/SIGHUP/SIGQUIT, end of a replayed capture, stdout closed)"
        case .usage: "usage error: bad or missing arguments"
        case .dataError: "the capture file is not valid btsnoop, the scene file is not a valid scene, the site file (locate, simulate --site, survey) is not a valid site, the survey file (locate --survey) not a valid survey, survey's --path file not a valid path, or (calibrate, survey) the measurements cannot be trusted"
        case .noInput: "the capture, scene, site, survey or path file cannot be opened"
        case .unavailable: "no controller: no Bluetooth in the kernel, no such device, connection refused; --mqtt without libmosquitto; or (range --advertise-self) a controller that cannot advertise while it scans"
        case .software: "internal error"
        case .cantCreate: "the --record file, simulate's --out or --truth, or survey's --out cannot be created (missing directory, no permission, a FIFO with no reader)"
        case .ioError: "the connection to the controller failed or closed, or a file or stdout could not be written (a --record FIFO whose reader stopped reading included)"
        case .busy: "the controller is in use by another program"
        case .controllerError: "the controller failed a command, did not answer, or sent an unframeable stream"
        case .noPermission: "not permitted to open the controller: hciN needs CAP_NET_RAW, hci-user:N CAP_NET_ADMIN"
        }
    }
}
