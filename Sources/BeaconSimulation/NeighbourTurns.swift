import BeaconCore

/// The neighbours' advertisements about one receiver of a running simulation, in time order, as the
/// receiver reports them: each one's report kind comes from its own random draw, as a beacon's does.
/// Each receiver (each gateway of a site) has neighbours of its own.
struct NeighbourTurns {
    private let neighbours: Neighbours
    private let receiver: ReceiverModel
    /// Added to a neighbour's index for its address: each receiver's neighbours are other devices.
    private let firstIndex: Int
    private var rng: SplitMix64
    private var turn: Int64 = 0
    /// When the next advertisement goes out, µs after the start of the scene.
    private(set) var time: Int64

    /// The neighbours of the `index`-th receiver of `scene`, drawing from `seed`, the receiver's.
    init(scene: Scene, receiver index: Int, seed: UInt64) {
        neighbours = scene.neighbours
        receiver = scene.receiver
        firstIndex = index * scene.neighbours.count
        // A stream no beacon uses (theirs are 1 + 2i and 2 + 2i, the interference's 0).
        rng = .stream(seed: seed, index: 1 + 2 * UInt64(scene.beacons.count))
        time = neighbours.advertisement(turn: 0).time
    }

    /// The report of the advertisement due at `time`; moves on to the next.
    mutating func next() -> HCIPacket {
        let index = neighbours.advertisement(turn: turn).index
        turn += 1
        time = neighbours.advertisement(turn: turn).time
        return SimulatedAir.report(.nonConnectable, data: Neighbours.advertisingData, address: Neighbours.address(index: firstIndex + index),
                                   addressType: .randomDevice, rssi: Neighbours.rssi, extended: receiver.sendsExtended(draw: rng.unit()))
    }
}
