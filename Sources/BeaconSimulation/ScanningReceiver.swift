import BeaconCore

/// A receiver of a running simulation (a plain scene's one receiver, or one gateway of a site): where it
/// is, which channel it listens on, the interference it suffers, and what it makes of a packet arriving
/// with a given power.
struct ScanningReceiver {
    let model: ReceiverModel
    let radio: RadioModel
    /// The seed of the receiver's random streams: the scene's for a plain scene's receiver, one of its own
    /// for each gateway of a site.
    let seed: UInt64
    /// Where a site's gateway is; nil for a plain scene's receiver, from which each beacon's path is a distance.
    let gateway: GatewayPosition?
    /// µs by which the receiver's scan intervals are shifted: 0 for a plain scene's receiver; each gateway
    /// of a site has its own, so they do not all listen on one channel at once.
    private let phase: Int64
    private var interference: EpisodeProcess?

    /// The stream a gateway's scan phase comes from, one no beacon or neighbour uses.
    private static let phaseStream = UInt64.max

    init(model: ReceiverModel, radio: RadioModel, seed: UInt64, gateway: GatewayPosition? = nil) {
        self.model = model
        self.radio = radio
        self.seed = seed
        self.gateway = gateway
        var phases = SplitMix64.stream(seed: seed, index: Self.phaseStream)
        phase = gateway == nil ? 0 : phases.micros(upTo: model.scanInterval.value - 1)
        interference = radio.interference.map { EpisodeProcess($0.episodes, rng: .stream(seed: seed, index: 0)) }
    }

    /// How the receiver listens at one instant.
    struct Listening {
        /// dB added on the channel listened to.
        var channelOffset: Double
        var interfered: Bool
    }

    /// The channel listened to at `time` (µs after the start): 37, 38, 39 in turn, one per scan
    /// interval; nil outside the scan window. Instants must not go backwards.
    mutating func listening(at time: Int64) -> Listening? {
        let interval = model.scanInterval.value
        let shifted = time + phase
        guard shifted % interval < model.scanWindow.value else { return nil }
        let channel = Int((shifted / interval) % 3)
        let interfered = interference?.isActive(at: time) ?? false
        return Listening(channelOffset: radio.channelOffsets[channel], interfered: interfered)
    }

    /// dB lost in walls (and slabs) between a beacon at `place` and the receiver (none for a plain scene's).
    func wallLoss(from place: BeaconPlace) -> Double {
        gateway?.wallLoss(from: place) ?? 0
    }

    /// A beacon's distance from the receiver (metres) and the mean power the receiver hears from it (dBm),
    /// with nothing random in it: the path loss at that distance, less `wallLoss` (`wallLoss(from:)`),
    /// plus a gateway's offset, at the gateway's own path-loss exponent when it has one.
    func mean(measuredPower: Int8, at place: BeaconPlace, wallLoss: Double) -> (distance: Double, power: Double) {
        guard let gateway else {
            return (place.point.x, radio.meanRSSI(measuredPower: measuredPower, distance: place.point.x))
        }
        let distance = gateway.distance(to: place)
        var model = radio
        if let exponent = gateway.pathLossExponent { model.pathLossExponent = exponent }
        return (distance, model.meanRSSI(measuredPower: measuredPower, distance: distance) - wallLoss + gateway.rssiOffset)
    }

    /// The random numbers of one packet. A gateway draws a dip and its noise for every packet; a plain
    /// scene's receiver draws a dip only when the radio has dips, so scenes without keep their bytes.
    func draws(_ rng: inout SplitMix64) -> PacketDraws {
        PacketDraws(&rng, dip: gateway != nil || radio.dips != nil, noise: gateway != nil)
    }

    /// The RSSI reported for a packet of mean `power` (dBm, before fading), nil when it is lost or too weak.
    func rssi(power: Double, _ listening: Listening, _ draws: PacketDraws) -> Int8? {
        var received = power + listening.channelOffset + draws.fading * radio.fastFading
        if let gateway { received += gateway.noise * draws.noise }
        if let dips = radio.dips, draws.dip < dips.share { received -= dips.depth }
        guard draws.loss >= radio.loss else { return nil }
        if listening.interfered, let interference = radio.interference, draws.burst < interference.loss { return nil }
        guard received >= model.sensitivity else { return nil }
        if draws.unavailable < model.rssiUnavailable { return AdvertisingReport.notAvailable }
        return Int8(min(max(received.rounded(), -127), 20))
    }

    /// Whether a report goes out as an LE Extended Advertising Report.
    func isExtended(_ draws: PacketDraws) -> Bool {
        model.sendsExtended(draw: draws.format)
    }
}

/// The random numbers one packet uses, drawn all at once in a fixed order: a run with more loss or
/// another sensitivity keeps the same advertising times and fading draws as the run without.
struct PacketDraws {
    /// Standard normal, scaled by the fast-fading sigma.
    var fading: Double
    /// Uniform [0, 1) draws for loss, loss in a burst, RSSI not available, and the report format.
    var loss: Double
    var burst: Double
    var unavailable: Double
    var format: Double
    /// Uniform [0, 1) for a dip (1, never a dip, when not drawn).
    var dip: Double
    /// Standard normal, scaled by a gateway's noise (0 when not drawn).
    var noise: Double

    init(_ rng: inout SplitMix64, dip drawsDip: Bool, noise drawsNoise: Bool) {
        fading = rng.normal()
        loss = rng.unit()
        burst = rng.unit()
        unavailable = rng.unit()
        format = rng.unit()
        dip = drawsDip ? rng.unit() : 1
        noise = drawsNoise ? rng.normal() : 0
    }
}
