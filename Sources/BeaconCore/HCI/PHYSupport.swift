/// Which PHYs a controller scans and advertises on, decided from its supported commands and its LE
/// features, never from its HCI version: Bluetooth 5 makes the LE Coded PHY optional, and extended
/// commands are what reach it.
public struct PHYSupport: Sendable {
    public let commands: SupportedCommands
    /// nil when the controller does not take HCI_LE_Read_Local_Supported_Features.
    public let features: LEFeatures?

    public init(commands: SupportedCommands, features: LEFeatures?) {
        self.commands = commands
        self.features = features
    }

    private var hasCodedPHY: Bool { features?.hasCodedPHY ?? false }

    /// Every PHY the controller scans: LE 1M, and LE Coded when it has the PHY and extended scanning.
    public var scannable: ScanningPHYs {
        commands.hasExtendedScanning && hasCodedPHY ? [.le1M, .leCoded] : .le1M
    }

    /// The PHYs to scan: `asked` (`--phy`), or every scannable one when nil. Asking for one the
    /// controller cannot scan is refused, naming the remedy.
    public func scanning(asked: ScanningPHYs?) -> Result<ScanningPHYs, PHYRefusal> {
        guard let asked else { return .success(scannable) }
        guard asked.contains(.leCoded), !scannable.contains(.leCoded) else { return .success(asked) }
        let remedy = "scan with --phy 1m, or use a Bluetooth 5 controller with the LE Coded PHY"
        if !commands.hasExtendedScanning {
            return .failure(PHYRefusal("--phy coded: this controller has no extended scanning commands "
                                       + "(HCI_LE_Set_Extended_Scan_Parameters), and legacy scanning is LE 1M only; \(remedy)"))
        }
        return .failure(PHYRefusal("--phy coded: \(noCodedPHY); \(remedy)"))
    }

    /// Why the controller cannot advertise on `phy` as primary PHY, nil when it can. LE Coded needs
    /// extended advertising, since legacy advertising PDUs are LE 1M only.
    public func advertisingRefusal(_ phy: PHY) -> PHYRefusal? {
        guard phy == .leCoded else { return nil }
        let remedy = "advertise without --phy coded, or use a Bluetooth 5 controller with the LE Coded PHY"
        if !commands.hasExtendedAdvertising {
            return PHYRefusal("--phy coded: this controller has no extended advertising commands "
                              + "(HCI_LE_Set_Extended_Advertising_Parameters), and legacy advertising is LE 1M only; \(remedy)")
        }
        return hasCodedPHY ? nil : PHYRefusal("--phy coded: \(noCodedPHY); \(remedy)")
    }

    private var noCodedPHY: String {
        features == nil
            ? "this controller does not report its LE features (HCI_LE_Read_Local_Supported_Features), so it is not known to have the LE Coded PHY"
            : "this controller does not have the LE Coded PHY (bit 11 of its LE features is clear)"
    }
}

/// A PHY asked for that the controller cannot use: one line saying why and what to do instead.
public struct PHYRefusal: Error, Equatable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
