import BeaconCore

/// The scanning controller: what it can hear and how it reports it to the host.
public struct ReceiverModel: Hashable, Sendable {
    /// Packets weaker than this (dBm) are not received (default −100).
    public var sensitivity: Double
    /// Which report events the controller sends (default extended).
    public var reports: ReportFormat
    /// With `reports` mixed, the fraction of reports sent as LE Extended Advertising Reports (default 0.5).
    public var extendedShare: Double
    /// Active scanning: the receiver sends scan requests, so scannable beacons answer with scan responses.
    public var activeScanning: Bool
    /// Fraction of reports whose RSSI is 127, "not available" (default 0).
    public var rssiUnavailable: Double
    /// The receiver listens on one advertising channel per scan interval, 37, 38, 39 in turn (default 100 ms).
    public var scanInterval: Micros
    /// Listening time at the start of each scan interval, at most the interval (default 100 ms: always).
    public var scanWindow: Micros

    public init(sensitivity: Double = -100, reports: ReportFormat = .extended, extendedShare: Double = 0.5,
                activeScanning: Bool = false, rssiUnavailable: Double = 0, scanInterval: Micros = .milliseconds(100),
                scanWindow: Micros = .milliseconds(100)) {
        self.sensitivity = sensitivity
        self.reports = reports
        self.extendedShare = extendedShare
        self.activeScanning = activeScanning
        self.rssiUnavailable = rssiUnavailable
        self.scanInterval = scanInterval
        self.scanWindow = scanWindow
    }

    /// The report events a controller uses for what it hears.
    public enum ReportFormat: String, Hashable, Sendable, CaseIterable {
        /// LE Advertising Report, with legacy scanning commands (a Bluetooth 4.x controller).
        case legacy
        /// LE Extended Advertising Report, with extended scanning commands (a Bluetooth 5 controller).
        case extended
        /// Extended scanning commands, and each report picked at random as extended (`extendedShare` of
        /// them) or legacy: not what one controller does within a session, but a decoder must take both
        /// (one host can see both kinds across controllers and sessions).
        case mixed
    }

    /// Whether a report whose uniform random draw (0 ..< 1) is `draw` goes out as an LE Extended
    /// Advertising Report: always, never, or with `mixed` for `extendedShare` of the draws.
    func sendsExtended(draw: Double) -> Bool {
        switch reports {
        case .legacy: false
        case .extended: true
        case .mixed: draw >= 1 - extendedShare
        }
    }

    /// The commands that turn scanning on and off in the capture.
    var commandSet: LECommandSet { reports == .legacy ? .legacy : .extended }
}
