/// The beacon formats `beacon advertise` sends, by the names `--format` takes.
public enum AdvertisedFormat: String, CaseIterable, Sendable {
    case iBeacon = "ibeacon"
    case altBeacon = "altbeacon"
    case eddystoneUID = "eddystone-uid"
    case eddystoneURL = "eddystone-url"
}

/// One beacon advertisement of any format beacon sends.
public enum AdvertisedBeacon: Hashable, Sendable {
    case iBeacon(IBeacon)
    case altBeacon(AltBeaconPayload)
    case eddystone(EddystonePayload)

    public var format: AdvertisedFormat {
        switch self {
        case .iBeacon: .iBeacon
        case .altBeacon: .altBeacon
        case let .eddystone(payload):
            switch payload.frame {
            case .uid: .eddystoneUID
            case .url: .eddystoneURL
            }
        }
    }

    /// The advertising data, at most 31 bytes so that legacy advertising carries it.
    public var advertisingData: [UInt8] {
        switch self {
        case let .iBeacon(beacon): beacon.advertisingData
        case let .altBeacon(beacon): beacon.advertisingData
        case let .eddystone(beacon): beacon.advertisingData
        }
    }
}
