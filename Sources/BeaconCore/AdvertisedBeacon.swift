/// One beacon advertisement of any format beacon sends.
public enum AdvertisedBeacon: Hashable, Sendable {
    case iBeacon(IBeacon)
    case altBeacon(AltBeacon)
    case eddystone(EddystonePayload)

    public var format: BeaconFormat {
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
