import BeaconCore
import BeaconMQTT
import BeaconTransport

/// Maps a runtime failure to its one stderr line and exit code.
enum Failure {
    /// `origin` says where the controller was named when not on the command line ("BEACON_HCI=hci1").
    static func report(_ error: any Error, console: Console, origin: String? = nil) -> ExitCode {
        console.diagnose("Error: \(error)" + (origin.map { " (controller from \($0))" } ?? ""))
        return exitCode(for: error)
    }

    /// Whether the controller can still be told to stop scanning or advertising after `error`.
    static func controllerReachable(after error: any Error) -> Bool {
        switch error {
        case let error as HostError: error.controllerReachable
        case let error as TransportError: error.category != .io && error.category != .unavailable
        default: true
        }
    }

    static func exitCode(for error: any Error) -> ExitCode {
        switch error {
        case let error as HostError:
            switch error {
            case .command, .missingReturnParameters, .hardwareError: return .controllerError
            case .connectionClosed, .recording: return .ioError
            case .interrupted: return .success
            case .transport(let transportError): return exitCode(for: transportError)
            }
        case let error as TransportError:
            switch error.category {
            case .unavailable: return .unavailable
            case .permission: return .noPermission
            case .busy: return .busy
            case .cannotCreate: return .cantCreate
            case .io: return .ioError
            case .badCapture: return .dataError
            case .badStream: return .controllerError
            }
        case is MQTTLibraryError:
            return .unavailable
        case let error as ManagementCommandError:
            switch error.status {
            case .permissionDenied: return .noPermission
            case .unknownCommand, .notSupported, .notPowered, .rejected, .invalidIndex: return .unavailable
            case .busy: return .busy
            default: return .controllerError
            }
        default:
            return .software
        }
    }
}
