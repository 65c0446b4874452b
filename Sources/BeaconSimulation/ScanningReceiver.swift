import BeaconCore

/// The receiver of a running simulation: which channel it listens on, the interference it suffers, and
/// what it makes of a packet arriving with a given power.
struct ScanningReceiver {
    let model: ReceiverModel
    let radio: RadioModel
    private var interference: EpisodeProcess?

    init(model: ReceiverModel, radio: RadioModel, seed: UInt64) {
        self.model = model
        self.radio = radio
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
        guard time % interval < model.scanWindow.value else { return nil }
        let channel = Int((time / interval) % 3)
        let interfered = interference?.isActive(at: time) ?? false
        return Listening(channelOffset: radio.channelOffsets[channel], interfered: interfered)
    }

    /// The RSSI reported for a packet of mean `power` (dBm, before fading), nil when it is lost or too weak.
    func rssi(power: Double, _ listening: Listening, _ draws: PacketDraws) -> Int8? {
        let received = power + listening.channelOffset + draws.fading * radio.fastFading
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

    init(_ rng: inout SplitMix64) {
        fading = rng.normal()
        loss = rng.unit()
        burst = rng.unit()
        unavailable = rng.unit()
        format = rng.unit()
    }
}
