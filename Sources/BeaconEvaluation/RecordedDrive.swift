import BeaconCore
import BeaconSimulation

/// A recorded drive of a real site: one tag heard by the site's gateways (the dataset's anchors or
/// sensors), each row a moment with the tag's true position and what each gateway heard. Each gateway's
/// readings are written as the capture a scanning controller there would have recorded, so the drive goes
/// through `beacon range --gateway` as a site's gateways would.
public struct RecordedDrive: Sendable {
    /// One row of the drive: when, where the tag was, and each gateway's RSS (in the site's gateway order;
    /// nil: not heard).
    public struct Row: Sendable {
        public var time: Timestamp
        public var x: Double
        public var y: Double
        public var rssi: [Double?]

        public init(time: Timestamp, x: Double, y: Double, rssi: [Double?]) {
            self.time = time
            self.x = x
            self.y = y
            self.rssi = rssi
        }
    }

    /// In time order, each with one RSS per gateway of `site`.
    public var rows: [Row]
    public var site: Site

    public init(rows: [Row], site: Site) {
        self.rows = rows
        self.site = site
    }

    /// The tag, as the captures carry it: an iBeacon with the project's default measured power (the datasets
    /// record none, and a deployment in an unseen building has only the default).
    public static let tag = IBeacon(identity: IBeaconID(uuid: FleetScenes.uuid, major: 1, minor: 1), measuredPower: -59)
    /// The tag's id in the readings (mqtt_room's).
    public static let tagID = BeaconID.iBeacon(tag.identity).deviceID
    public static let tagAddress = DeviceAddress(value: 0xC0_00_00_00_00_01)
    public static var measuredPower: Int8 { tag.measuredPower }
    static let neighbourAddress = DeviceAddress(value: 0xD0_00_00_00_00_01)
    static let neighbourData = AdvertisingData.build([(.completeLocalName, Array("neighbour".utf8))])
    static let neighbourInterval = Micros.seconds(1)

    /// When the captures start: the whole second before the first row (scanning turned on then, so the
    /// gateways' ticks fall on whole seconds, as the truth's do).
    public var start: Timestamp {
        Timestamp(microseconds: rows[0].time.microseconds / 1_000_000 * 1_000_000)
    }

    /// The capture of the site's gateway `gateway` (its index): scanning on at the start, an advertising report
    /// of the tag at each row it heard (the RSS rounded to whole dBm, as a controller reports it), scanning off
    /// after the last row. A neighbour (a device advertising its name) is heard every second throughout, as in every
    /// simulated capture, as a real gateway hears other devices through the drive's gaps of many seconds.
    public func packets(gateway: Int) -> [SimulatedPacket] {
        let receiver = ReceiverModel()
        let end = rows[rows.count - 1].time
        var packets = SceneSimulator.scanningCommands(receiver, on: true).map {
            SimulatedPacket(time: start, packet: $0.0, direction: $0.1, receiver: gateway)
        }
        var neighbourTime = start + Self.neighbourInterval
        func neighbours(until time: Timestamp) {
            while neighbourTime < time {
                let report = SimulatedAir.report(.nonConnectable, data: Self.neighbourData, address: Self.neighbourAddress,
                                                 addressType: .randomDevice, rssi: -70, extended: true)
                packets.append(SimulatedPacket(time: neighbourTime, packet: report, direction: .received, receiver: gateway))
                neighbourTime = neighbourTime + Self.neighbourInterval
            }
        }
        for row in rows {
            neighbours(until: row.time)
            guard let rssi = row.rssi[gateway] else { continue }
            let report = SimulatedAir.report(.nonConnectable, data: Self.tag.advertisingData, address: Self.tagAddress,
                                             addressType: .randomDevice, rssi: Int8(rssi.rounded()), extended: true)
            packets.append(SimulatedPacket(time: row.time, packet: report, direction: .received, receiver: gateway))
        }
        packets += SceneSimulator.scanningCommands(receiver, on: false).map {
            SimulatedPacket(time: end, packet: $0.0, direction: $0.1, receiver: gateway)
        }
        return packets
    }

    /// Every gateway's readings messages, in time order, as their `beacon range --gateway NAME` sends them.
    public var events: [FleetEvent] {
        var messages: [GatewayReadings] = []
        for gateway in site.gateways.indices {
            var replay = GatewayReplay(gateway: site.gateways[gateway].name, regions: [BeaconRegion(uuid: FleetScenes.uuid)])
            for packet in packets(gateway: gateway) {
                messages += replay.packet(packet.packet, direction: packet.direction, at: packet.time)
            }
            messages += replay.finish()
        }
        return messages.sorted { ($0.time, $0.gateway) < ($1.time, $1.gateway) }.map { .readings($0) }
    }

    /// The tag's position at each whole second from the start, as of its last row at or before it (the
    /// gateways' tick at that second covers the second before it), with its room.
    public func truth() -> [TruthPoint] {
        var points: [TruthPoint] = []
        var index = 0
        var time = start + .seconds(1)
        while time <= rows[rows.count - 1].time {
            while index + 1 < rows.count && rows[index + 1].time <= time { index += 1 }
            let row = rows[index]
            points.append(TruthPoint(time: time, x: row.x, y: row.y,
                                     room: site.room(containing: Point2(x: row.x, y: row.y), floor: 0).map { site.rooms[$0].name }))
            time = time + .seconds(1)
        }
        return points
    }

    /// How far the truth is from its nearest gateway, the median over its seconds: what naming the nearest
    /// gateway's position can at best do on this drive.
    public func nearestGatewayDistance(truth: [TruthPoint]) -> Double {
        Statistics.median(truth.map { nearestGatewayDistance(from: Point2(x: $0.x, y: $0.y)) }) ?? .nan
    }

    /// How far a point of the site's rooms is from its nearest gateway, the median over a 0.1 m grid of
    /// them: what naming the nearest gateway's position can at best do on a floor walked evenly.
    public var roomsNearestGatewayDistance: Double {
        var rooms: [Double] = []
        if let box = site.bounds(floor: 0) {
            for column in 0...Int((box.max.x - box.min.x) * 10) {
                for row in 0...Int((box.max.y - box.min.y) * 10) {
                    let point = Point2(x: box.min.x + Double(column) / 10, y: box.min.y + Double(row) / 10)
                    if site.room(containing: point, floor: 0) != nil { rooms.append(nearestGatewayDistance(from: point)) }
                }
            }
        }
        return Statistics.median(rooms) ?? .nan
    }

    private func nearestGatewayDistance(from point: Point2) -> Double {
        site.gateways.map { $0.point.distance(to: point) }.min() ?? .infinity
    }
}
