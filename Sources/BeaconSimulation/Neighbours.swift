import BeaconCore

/// The devices about a scene's receiver (each gateway of a site scene) that are not beacons. Each advertises its name, `neighbour`,
/// every `interval` (ADV_NONCONN_IND at -70 dBm), their turns spread evenly over the interval from half
/// an interval in. Some device always advertises where people work, and a replay takes a capture that
/// is silent for long for a step of the recording machine's clock; many neighbours are the other
/// devices' advertisements a ranger has to skip.
public struct Neighbours: Hashable, Sendable {
    /// How many there are, 1...10,000 (default 1).
    public var count: Int
    /// How often each advertises, 20 ms...10.24 s (default 1 s).
    public var interval: Micros

    public init(count: Int = 1, interval: Micros = .seconds(1)) {
        self.count = count
        self.interval = interval
    }

    public static let countRange = 1...10_000

    /// The address of neighbour `index` (from 0): static random D0:5E:00:00:00:01 onwards (a site
    /// scene's k-th gateway's neighbours from index k × count).
    public static func address(index: Int) -> DeviceAddress {
        DeviceAddress(value: 0xD0_5E_00_00_00_00 + UInt64(index + 1))
    }

    /// The advertising data every neighbour sends.
    static let advertisingData = AdvertisingData.build([(.flags, [0x06]), (.completeLocalName, Array("neighbour".utf8))])
    /// The RSSI every neighbour is received with.
    static let rssi: Int8 = -70

    /// The `turn`-th neighbour advertisement of a scene (from 0): when it goes out, in µs after the start,
    /// and whose it is. Turns come in time order.
    func advertisement(turn: Int64) -> (time: Int64, index: Int) {
        (interval.value / 2 + turn * interval.value / Int64(count), Int(turn % Int64(count)))
    }
}
