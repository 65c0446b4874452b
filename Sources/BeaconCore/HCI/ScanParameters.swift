/// How the controller scans.
public struct ScanParameters: Equatable, Sendable {
    /// Active scanning sends scan requests; passive only listens.
    public var active: Bool
    /// Scan interval in 0.625 ms units (Core Vol 4 Part E 7.8.10: 0x0004...0x4000).
    public var interval: UInt16
    /// Scan window in 0.625 ms units, at most the interval.
    public var window: UInt16
    /// The PHYs extended scanning listens on, each with this interval and window; legacy scanning is LE 1M only.
    public var phys: ScanningPHYs

    /// 100 ms interval and window: continuous scanning, so no advertisement (and no RSSI sample) is missed.
    public static let defaultSlots: UInt16 = 0x00A0

    public init(active: Bool = false, interval: UInt16 = defaultSlots, window: UInt16 = defaultSlots, phys: ScanningPHYs = .le1M) {
        self.active = active
        self.interval = interval
        self.window = window
        self.phys = phys
    }
}

/// Which generation of LE commands a controller is driven with.
public enum LECommandSet: String, Sendable {
    case extended
    case legacy

    /// Chosen from the supported-commands bitmap, never from the HCI version: some Bluetooth 5
    /// controllers reject extended commands, and others reject legacy ones once extended were used.
    public static func forScanning(_ supported: SupportedCommands) -> LECommandSet {
        supported.hasExtendedScanning ? .extended : .legacy
    }
}
