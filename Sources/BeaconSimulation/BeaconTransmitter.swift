import BeaconCore

/// One beacon of a running simulation: when it advertises next, and its link to each receiver. A beacon
/// has one air: its advertising events are the same for every receiver, and each receiver hears each
/// event through its own link.
struct BeaconTransmitter {
    let spec: SceneBeacon
    /// The scene's site, for the floors a route climbs; nil in a plain scene.
    let site: Site?
    /// Microseconds after the start of the scene at which it falls silent (its stop, or the scene's end).
    let end: Int64
    let advertisement: AdvertisingPDU
    let advertisingData: [UInt8]
    let scanResponseData: [UInt8]?
    /// Random streams: the beacon's own first (its advertising times), then one per gateway of a site
    /// for what that gateway makes of its packets. A plain scene's one receiver draws from the beacon's
    /// own stream, as it always has, so its captures keep their bytes.
    private var streams: [SplitMix64]
    /// One per receiver, in the receivers' order.
    private var links: [RadioLink]
    private var nextEvent: Int64
    /// When the scan responses the receivers asked for go out; nil when none is owed.
    private var responseTime: Int64?

    /// A report a receiver got.
    struct Reception {
        var time: Int64
        var pdu: AdvertisingPDU
        var rssi: Int8
        var extended: Bool
    }

    /// Scan request and scan response follow the advertisement after the interframe space (150 µs
    /// each) and their own air time: about half a millisecond in all.
    static let scanResponseDelay: Int64 = 500

    init(_ spec: SceneBeacon, index: Int, scene: Scene, seed: UInt64, receivers: [ScanningReceiver]) {
        self.spec = spec
        site = scene.site
        end = min(spec.stop ?? scene.duration, scene.duration).value
        advertisingData = spec.beacon.advertisingData
        scanResponseData = spec.scanResponseData
        advertisement = scanResponseData == nil ? .nonConnectable : .scannable
        var streams = [SplitMix64.stream(seed: seed, index: 1 + 2 * UInt64(index))]
        links = receivers.map { receiver in
            let stream: Int
            if receiver.gateway == nil {
                stream = 0
            } else {
                stream = streams.count
                streams.append(.stream(seed: receiver.seed, index: 1 + 2 * UInt64(index)))
            }
            let blocking = scene.radio.bodyBlocking.map {
                EpisodeProcess($0.episodes, rng: .stream(seed: receiver.seed, index: 2 + 2 * UInt64(index)))
            }
            return RadioLink(stream: stream, shadowing: ShadowingProcess(scene.radio.shadowing), blocking: blocking)
        }
        // Beacons switched on at the same moment do not advertise in step.
        nextEvent = spec.start.value + streams[0].micros(upTo: spec.interval.value)
        self.streams = streams
    }

    /// When this beacon next puts a packet on the air, nil once it is silent for good.
    var nextEmission: Int64? {
        if let responseTime { return responseTime }
        return nextEvent < end ? nextEvent : nil
    }

    /// Sends the packet due at `nextEmission`; `deliver` gets each report a receiver made of it: its
    /// time, the HCI event, and the receiver's index.
    mutating func emit<Failure: Error>(to receivers: inout [ScanningReceiver],
                                       _ deliver: (Int64, HCIPacket, Int) throws(Failure) -> Void) throws(Failure) {
        if let time = responseTime {
            responseTime = nil
            for r in links.indices {
                guard let response = links[r].pendingResponse else { continue }
                links[r].pendingResponse = nil
                try deliver(time, report(response), r)
            }
            return
        }
        let time = nextEvent
        nextEvent = time + spec.interval.value + streams[0].micros(upTo: spec.jitter.value)
        let place = BeaconPlace(spec, at: Micros(time), site: site)
        for r in links.indices {
            let stream = links[r].stream
            guard let heard = links[r].hear(at: time, from: place, measuredPower: spec.beacon.measuredPower,
                                            scannable: scanResponseData != nil, by: &receivers[r], rng: &streams[stream]) else { continue }
            if let rssi = heard.response {
                links[r].pendingResponse = Reception(time: time + Self.scanResponseDelay, pdu: .scanResponse, rssi: rssi,
                                                     extended: heard.extended)
                responseTime = time + Self.scanResponseDelay
            }
            try deliver(time, report(Reception(time: time, pdu: advertisement, rssi: heard.rssi, extended: heard.extended)), r)
        }
    }

    /// The HCI event reporting `reception`.
    func report(_ reception: Reception) -> HCIPacket {
        let data = reception.pdu == .scanResponse ? scanResponseData ?? [] : advertisingData
        return SimulatedAir.report(reception.pdu, data: data, address: spec.address, addressType: spec.addressType,
                                   rssi: reception.rssi, extended: reception.extended)
    }
}

/// What lies between one beacon and one receiver: the shadowing, the bodies in the way, the walls, and
/// the scan response the beacon owes the receiver.
struct RadioLink {
    /// The transmitter's stream this link draws from.
    let stream: Int
    var shadowing: ShadowingProcess
    var blocking: EpisodeProcess?
    var pendingResponse: BeaconTransmitter.Reception?
    /// The walls' loss from the beacon's latest point, kept while the beacon stands still.
    private var walls: (point: Point2, floor: Int, loss: Double)?

    init(stream: Int, shadowing: ShadowingProcess, blocking: EpisodeProcess?) {
        self.stream = stream
        self.shadowing = shadowing
        self.blocking = blocking
    }

    /// What `receiver` makes of an advertisement sent at `time` from `place`: its RSSI, the report kind,
    /// and the RSSI of the scan response it asks a scannable beacon for; nil when it hears nothing. Draws
    /// the same numbers from `rng` whatever the outcome.
    mutating func hear(at time: Int64, from place: BeaconPlace, measuredPower: Int8, scannable: Bool,
                       by receiver: inout ScanningReceiver, rng: inout SplitMix64) -> (rssi: Int8, extended: Bool, response: Int8?)? {
        let draws = receiver.draws(&rng)
        let responseDraws = scannable ? receiver.draws(&rng) : nil
        if walls?.point != place.point || walls?.floor != place.floor { walls = (place.point, place.floor, receiver.wallLoss(from: place)) }
        let mean = receiver.mean(measuredPower: measuredPower, at: place, wallLoss: walls?.loss ?? 0)
        var power = mean.power + shadowing.next(point: place.point, time: time, rng: &rng)
        if let attenuation = receiver.radio.bodyBlocking?.attenuation, blocking?.isActive(at: time) == true {
            power -= attenuation
        }
        guard let listening = receiver.listening(at: time),
              let rssi = receiver.rssi(power: power, listening, draws) else { return nil }
        // The scanner asks only after hearing the advertisement; the answer travels the same way, and
        // the controller reports it the way it reported the advertisement.
        let response = receiver.model.activeScanning ? responseDraws.flatMap { receiver.rssi(power: power, listening, $0) } : nil
        return (rssi, receiver.isExtended(draws), response)
    }
}
