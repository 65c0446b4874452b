/// One gateway's ranging tick for a fuser of several receivers, published on `PREFIX/gateways/NAME/readings`:
/// the gateway's name, the tick's time on the gateway's own clock (as its range lines print it), a
/// sequence number that counts the gateway's readings messages from 1 (a gap is a lost message, a
/// restart starts again), whether it comes from a replay of a capture, and one reading per beacon heard
/// in the tick (docs/recipes.md, Gateways).
public struct GatewayReadings: Equatable, Sendable {
    public var gateway: String
    public var time: Timestamp
    public var sequence: Int
    /// Replayed from a capture, at any pace: when it arrives says nothing of the gateway's clock or of a
    /// gateway that fell behind.
    public var replay: Bool
    public var readings: [BeaconReading]

    public init(gateway: String, time: Timestamp, sequence: Int, replay: Bool = false, readings: [BeaconReading]) {
        self.gateway = gateway
        self.time = time
        self.sequence = sequence
        self.replay = replay
        self.readings = readings
    }

    /// The message's JSON text.
    public var json: String {
        var w = JSONWriter(capacity: 64 + readings.count * 160)
        w.object { o in
            o.field("gateway", gateway)
            o.field("time", time)
            o.field("seq", sequence)
            if replay { o.field("replay", true) }
            o.field("beacons", array: { list in
                for reading in readings {
                    list.object { o in
                        o.field("id", reading.id)
                        o.field("rssi", reading.rssi, decimals: OutputLine.rssiDecimals)
                        o.field("filteredRssi", reading.filteredRSSI, decimals: OutputLine.rssiDecimals)
                        o.field("spread", reading.spread, decimals: OutputLine.spreadDecimals)
                        o.field("samples", reading.samples)
                        o.field("measuredPower", reading.measuredPower)
                        o.field("accuracy", reading.accuracy, decimals: OutputLine.metresDecimals)
                    }
                }
            })
        }
        return w.text
    }
}

/// One beacon as one gateway heard it in one tick.
public struct BeaconReading: Equatable, Sendable {
    /// Home Assistant mqtt_room's id of the beacon (`BeaconID.deviceID`).
    public var id: String
    /// Mean RSSI of the tick's readings (dBm).
    public var rssi: Double
    /// The RSSI filter's value the distance was estimated from (dBm).
    public var filteredRSSI: Double
    /// Standard deviation of the tick's readings (dB).
    public var spread: Double
    public var samples: Int
    /// The calibration at 1 m the distance was estimated with (dBm).
    public var measuredPower: Int
    /// The estimated distance (metres), -1 when unknown.
    public var accuracy: Double

    public init(id: String, rssi: Double, filteredRSSI: Double, spread: Double, samples: Int, measuredPower: Int, accuracy: Double) {
        self.id = id
        self.rssi = rssi
        self.filteredRSSI = filteredRSSI
        self.spread = spread
        self.samples = samples
        self.measuredPower = measuredPower
        self.accuracy = accuracy
    }

    /// The reading of a ranged beacon heard in the tick; nil for one listed but not heard (no RSSI).
    public init?(_ beacon: RangedBeacon) {
        guard let rssi = beacon.rssi, let filtered = beacon.filteredRSSI else { return nil }
        self.init(id: beacon.identity.deviceID, rssi: rssi, filteredRSSI: filtered, spread: beacon.rssiSpread ?? 0,
                  samples: beacon.samples, measuredPower: Int(beacon.measuredPower),
                  accuracy: beacon.accuracy >= 0 ? beacon.accuracy : -1)
    }
}

/// Gathers a gateway's range outputs into one readings message per tick: every region inside ranges at
/// the tick's time, and a beacon in several regions is one reading. A tick is complete once an output of
/// a later time arrives, or at the end of the step that produced it (`completed`). A tick at which no
/// region was inside still gives a message, with no readings (`ticked`): a fuser then knows the gateway
/// has reported up to that time and heard nothing, rather than waiting for it.
public struct GatewayReadingsCollector: Sendable {
    public let gateway: String
    /// The gateway's calibration (`--rssi-offset`), added to each reading's RSSI: a fuser compares
    /// gateways' readings, so they go out corrected.
    public let rssiOffset: Double
    /// The gateway replays a capture (`--hci btsnoop:`).
    public let replay: Bool
    private var sequence = 0
    private var time: Timestamp?
    private var readings: [BeaconReading] = []
    /// The time of the latest tick given a message.
    private var lastTime: Timestamp?
    private var ids: Set<String> = []
    private var done: [GatewayReadings] = []

    public init(gateway: String, rssiOffset: Double = 0, replay: Bool = false) {
        self.gateway = gateway
        self.rssiOffset = rssiOffset
        self.replay = replay
    }

    /// Takes one output of the monitor (times as printed); only range outputs carry readings.
    public mutating func add(_ output: MonitorOutput) {
        switch output {
        case let .range(_, outputTime, beacons), let .partialRange(_, outputTime, beacons):
            if let time, time != outputTime { closeTick() }
            time = outputTime
            for beacon in beacons {
                guard var reading = BeaconReading(beacon), ids.insert(reading.id).inserted else { continue }
                reading.rssi += rssiOffset
                reading.filteredRSSI += rssiOffset
                readings.append(reading)
            }
        case .state, .enter, .exit:
            break
        }
    }

    /// The schedule passed a tick at `time`: a message for it, empty unless range outputs of that time
    /// come (or came) in the same step.
    public mutating func ticked(at time: Timestamp) {
        guard self.time == nil, lastTime.map({ time > $0 }) ?? true else { return }
        self.time = time
    }

    /// The ticks completed so far, oldest first; the current one counts as complete (the step that
    /// produced it has ended).
    public mutating func completed() -> [GatewayReadings] {
        if time != nil { closeTick() }
        defer { done.removeAll(keepingCapacity: true) }
        return done
    }

    private mutating func closeTick() {
        guard let time else { return }
        sequence += 1
        done.append(GatewayReadings(gateway: gateway, time: time, sequence: sequence, replay: replay, readings: readings))
        lastTime = max(lastTime ?? time, time)
        self.time = nil
        readings.removeAll(keepingCapacity: true)
        ids.removeAll(keepingCapacity: true)
    }
}
