import BeaconCore

/// The neighbours' advertisements of a running simulation, in time order, as the scene's receiver
/// reports them: each one's report kind comes from its own random draw, as a beacon's does.
struct NeighbourTurns {
    private let neighbours: Neighbours
    private let receiver: ReceiverModel
    private var rng: SplitMix64
    private var turn: Int64 = 0
    /// When the next advertisement goes out, µs after the start of the scene.
    private(set) var time: Int64

    init(scene: Scene, seed: UInt64) {
        neighbours = scene.neighbours
        receiver = scene.receiver
        // A stream no beacon uses (theirs are 1 + 2i and 2 + 2i, the interference's 0).
        rng = .stream(seed: seed, index: 1 + 2 * UInt64(scene.beacons.count))
        time = neighbours.advertisement(turn: 0).time
    }

    /// The report of the advertisement due at `time`; moves on to the next.
    mutating func next() -> HCIPacket {
        let index = neighbours.advertisement(turn: turn).index
        turn += 1
        time = neighbours.advertisement(turn: turn).time
        return SimulatedAir.report(.nonConnectable, data: Neighbours.advertisingData, address: Neighbours.address(index: index),
                                   addressType: .randomDevice, rssi: Neighbours.rssi, extended: receiver.sendsExtended(draw: rng.unit()))
    }
}
