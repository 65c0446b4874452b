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

    /// The identity a region can name; nil for an Eddystone-URL, which carries none.
    public var identity: BeaconID? {
        switch self {
        case let .iBeacon(beacon): .iBeacon(beacon.identity)
        case let .altBeacon(beacon): .altBeacon(beacon.identity)
        case let .eddystone(beacon):
            switch beacon.frame {
            case let .uid(uid): .eddystoneUID(uid)
            case .url: nil
            }
        }
    }

    /// The calibrated RSSI at 1 m the advertisement carries: iBeacon's measured power, AltBeacon's
    /// reference RSSI, Eddystone's power at 0 m less 41 dB.
    public var measuredPower: Int8 {
        switch self {
        case let .iBeacon(beacon): beacon.measuredPower
        case let .altBeacon(beacon): beacon.referenceRSSI
        case let .eddystone(beacon): EddystoneFrame.measuredPower(txPower: beacon.txPowerAt0m)
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
