import BeaconCore

/// One beacon of a running simulation: when it advertises next, its random draws, its shadowing and
/// its body blocking, and the scan response it still owes.
struct BeaconTransmitter {
    let spec: SceneBeacon
    /// Microseconds after the start of the scene at which it falls silent (its stop, or the scene's end).
    let end: Int64
    let advertisement: AdvertisingPDU
    let advertisingData: [UInt8]
    let scanResponseData: [UInt8]?
    private var rng: SplitMix64
    private var shadowing: ShadowingProcess
    private var blocking: EpisodeProcess?
    private var nextEvent: Int64
    private var pendingResponse: Reception?

    /// A report the receiver got.
    struct Reception {
        var time: Int64
        var pdu: AdvertisingPDU
        var rssi: Int8
        var extended: Bool
    }

    /// Scan request and scan response follow the advertisement after the interframe space (150 µs
    /// each) and their own air time: about half a millisecond in all.
    static let scanResponseDelay: Int64 = 500

    init(_ spec: SceneBeacon, index: Int, scene: Scene, seed: UInt64) {
        self.spec = spec
        end = min(spec.stop ?? scene.duration, scene.duration).value
        advertisingData = spec.beacon.advertisingData
        scanResponseData = spec.scanResponseData
        advertisement = scanResponseData == nil ? .nonConnectable : .scannable
        rng = .stream(seed: seed, index: 1 + 2 * UInt64(index))
        shadowing = ShadowingProcess(scene.radio.shadowing)
        blocking = scene.radio.bodyBlocking.map { EpisodeProcess($0.episodes, rng: .stream(seed: seed, index: 2 + 2 * UInt64(index))) }
        // Beacons switched on at the same moment do not advertise in step.
        nextEvent = spec.start.value + rng.micros(upTo: spec.interval.value)
    }

    /// When this beacon next puts a packet on the air, nil once it is silent for good.
    var nextEmission: Int64? {
        if let pendingResponse { return pendingResponse.time }
        return nextEvent < end ? nextEvent : nil
    }

    /// Sends the packet due at `nextEmission`; returns what the receiver reported of it, if anything.
    mutating func emit(to receiver: inout ScanningReceiver) -> Reception? {
        if let response = pendingResponse {
            pendingResponse = nil
            return response
        }
        let time = nextEvent
        nextEvent = time + spec.interval.value + rng.micros(upTo: spec.jitter.value)
        let draws = PacketDraws(&rng)
        let responseDraws = scanResponseData == nil ? nil : PacketDraws(&rng)
        let distance = spec.path.distance(at: Micros(time))
        let shadow = shadowing.next(distance: distance, time: time, rng: &rng)
        var power = receiver.radio.meanRSSI(measuredPower: spec.beacon.measuredPower, distance: distance) + shadow
        if let attenuation = receiver.radio.bodyBlocking?.attenuation, blocking?.isActive(at: time) == true {
            power -= attenuation
        }
        guard let listening = receiver.listening(at: time),
              let rssi = receiver.rssi(power: power, listening, draws) else { return nil }
        let extended = receiver.isExtended(draws)
        // The scanner asks only after hearing the advertisement; the answer travels the same way, and
        // the controller reports it the way it reported the advertisement.
        if let responseDraws, receiver.model.activeScanning,
           let responseRSSI = receiver.rssi(power: power, listening, responseDraws) {
            pendingResponse = Reception(time: time + Self.scanResponseDelay, pdu: .scanResponse, rssi: responseRSSI,
                                        extended: extended)
        }
        return Reception(time: time, pdu: advertisement, rssi: rssi, extended: extended)
    }

    /// The HCI event reporting `reception`.
    func report(_ reception: Reception) -> HCIPacket {
        let data = reception.pdu == .scanResponse ? scanResponseData ?? [] : advertisingData
        return SimulatedAir.report(reception.pdu, data: data, address: spec.address, addressType: spec.addressType,
                                   rssi: reception.rssi, extended: reception.extended)
    }
}
