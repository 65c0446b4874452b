import BeaconCore
import BeaconSimulation

/// The robot's test drive of the Kolakowski BLE RSS dataset (M. Kolakowski, "Automated Calibration of RSS
/// Fingerprinting Based Systems Using a Mobile Robot and Machine Learning", Sensors 21, 6270 (2021),
/// CC BY 4.0): one tag heard by six anchors, each anchor's readings written as the capture a scanning
/// controller there would have recorded, so the drive goes through `beacon range --gateway` as a site's
/// gateways would.
public struct FlatDrive: Sendable {
    /// One row of the drive: when, where the robot was, and each anchor's RSS (nil: not heard).
    public struct Row: Sendable {
        public var time: Timestamp
        public var x: Double
        public var y: Double
        public var rssi: [Double?]
    }

    public var rows: [Row]

    /// The tag, as the captures carry it: an iBeacon with the project's default measured power (the dataset
    /// records none, and a deployment in an unseen building has only the default).
    public static let tag = IBeacon(identity: IBeaconID(uuid: FleetScenes.uuid, major: 1, minor: 1), measuredPower: -59)
    /// The tag's id in the readings (mqtt_room's).
    public static let tagID = BeaconID.iBeacon(tag.identity).deviceID
    public static let tagAddress = DeviceAddress(value: 0xC0_00_00_00_00_01)
    public static var measuredPower: Int8 { tag.measuredPower }
    static let neighbourAddress = DeviceAddress(value: 0xD0_00_00_00_00_01)
    static let neighbourData = AdvertisingData.build([(.completeLocalName, Array("neighbour".utf8))])
    static let neighbourInterval = Micros.seconds(1)
    public static let anchorCount = 6

    /// Parses `test_robot_df.csv`: a header, then `index,ts,x,heading,y,rssi_1..rssi_6` (ts in ns, RSS in dBm,
    /// empty or NaN when the anchor did not hear the tag), in time order.
    public static func parse(name: String, bytes: [UInt8]) throws(ResearchDataError) -> FlatDrive {
        var rows: [Row] = []
        // Split as bytes: as a Swift Character, "\r\n" is one and would not split at "\n".
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (lineNumber, rawLine) in lines.enumerated() where lineNumber > 0 {
            let line = String(decoding: rawLine.last == UInt8(ascii: "\r") ? rawLine.dropLast() : rawLine, as: UTF8.self)
            if line.isEmpty { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5 + anchorCount else {
                throw ResearchDataError(file: name, line: lineNumber + 1, "expected \(5 + anchorCount) fields")
            }
            guard let nanoseconds = Double(fields[1]), nanoseconds.isFinite, nanoseconds >= 0, nanoseconds < 9e18,
                  let x = Double(fields[2]), x.isFinite, let y = Double(fields[4]), y.isFinite else {
                throw ResearchDataError(file: name, line: lineNumber + 1, "ts, x and y must be numbers")
            }
            var rssi: [Double?] = []
            for anchor in 0..<anchorCount {
                let text = fields[5 + anchor]
                if text.isEmpty || text.lowercased() == "nan" {
                    rssi.append(nil)
                    continue
                }
                guard let value = Double(text), value.isFinite, (-127...20).contains(value) else {
                    throw ResearchDataError(file: name, line: lineNumber + 1, "rssi_\(anchor + 1) '\(text)' is not a dBm value")
                }
                rssi.append(value)
            }
            let time = Timestamp(microseconds: Int64((nanoseconds / 1_000).rounded()))
            if let last = rows.last, time < last.time {
                throw ResearchDataError(file: name, line: lineNumber + 1, "ts goes back in time")
            }
            rows.append(Row(time: time, x: x, y: y, rssi: rssi))
        }
        guard !rows.isEmpty else { throw ResearchDataError(file: name, line: 1, "no rows") }
        return FlatDrive(rows: rows)
    }

    /// When the captures start: the whole second before the first row (scanning turned on then, so the
    /// gateways' ticks fall on whole seconds, as the truth's do).
    public var start: Timestamp {
        Timestamp(microseconds: rows[0].time.microseconds / 1_000_000 * 1_000_000)
    }

    /// Anchor `anchor`'s capture (0-based): scanning on at the start, an advertising report of the tag at
    /// each row it heard (the RSS rounded to whole dBm, as a controller reports it), scanning off after the
    /// last row. A neighbour (a device advertising its name) is heard every second throughout, as in every
    /// simulated capture, as a real anchor hears other devices through the drive's gaps of many seconds.
    public func packets(anchor: Int) -> [SimulatedPacket] {
        let receiver = ReceiverModel()
        let end = rows[rows.count - 1].time
        var packets = SceneSimulator.scanningCommands(receiver, on: true).map {
            SimulatedPacket(time: start, packet: $0.0, direction: $0.1, receiver: anchor)
        }
        var neighbourTime = start + Self.neighbourInterval
        func neighbours(until time: Timestamp) {
            while neighbourTime < time {
                let report = SimulatedAir.report(.nonConnectable, data: Self.neighbourData, address: Self.neighbourAddress,
                                                 addressType: .randomDevice, rssi: -70, extended: true)
                packets.append(SimulatedPacket(time: neighbourTime, packet: report, direction: .received, receiver: anchor))
                neighbourTime = neighbourTime + Self.neighbourInterval
            }
        }
        for row in rows {
            neighbours(until: row.time)
            guard let rssi = row.rssi[anchor] else { continue }
            let report = SimulatedAir.report(.nonConnectable, data: Self.tag.advertisingData, address: Self.tagAddress,
                                             addressType: .randomDevice, rssi: Int8(rssi.rounded()), extended: true)
            packets.append(SimulatedPacket(time: row.time, packet: report, direction: .received, receiver: anchor))
        }
        packets += SceneSimulator.scanningCommands(receiver, on: false).map {
            SimulatedPacket(time: end, packet: $0.0, direction: $0.1, receiver: anchor)
        }
        return packets
    }

    /// Every anchor's readings messages, in time order, as their `beacon range --gateway anchor-N` sends them.
    public var events: [FleetEvent] {
        var messages: [GatewayReadings] = []
        for anchor in 0..<Self.anchorCount {
            var replay = GatewayReplay(gateway: Self.gatewayName(anchor), regions: [BeaconRegion(uuid: FleetScenes.uuid)])
            for packet in packets(anchor: anchor) {
                messages += replay.packet(packet.packet, direction: packet.direction, at: packet.time)
            }
            messages += replay.finish()
        }
        return messages.sorted { ($0.time, $0.gateway) < ($1.time, $1.gateway) }.map { .readings($0) }
    }

    /// The robot's position at each whole second from the start, as of its last row at or before it (the
    /// gateways' tick at that second covers the second before it); its room from `site`.
    public func truth(site: Site) -> [TruthPoint] {
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

    static func gatewayName(_ anchor: Int) -> String { "anchor-\(anchor + 1)" }

    /// How far the truth is from its nearest anchor (median over its seconds), and a point of the flat's rooms
    /// (over a 0.1 m grid of them): what naming the nearest gateway's position can at best do, on this drive
    /// and on a floor walked evenly.
    public static func nearestAnchorDistances(truth: [TruthPoint]) -> (drive: Double, rooms: Double) {
        func nearest(_ point: Point2) -> Double {
            site.gateways.map { $0.point.distance(to: point) }.min() ?? .infinity
        }
        let drive = truth.map { nearest(Point2(x: $0.x, y: $0.y)) }
        var rooms: [Double] = []
        if let box = site.bounds(floor: 0) {
            for column in 0...Int((box.max.x - box.min.x) * 10) {
                for row in 0...Int((box.max.y - box.min.y) * 10) {
                    let point = Point2(x: box.min.x + Double(column) / 10, y: box.min.y + Double(row) / 10)
                    if site.room(containing: point, floor: 0) != nil { rooms.append(nearest(point)) }
                }
            }
        }
        return (Statistics.median(drive) ?? .nan, Statistics.median(rooms) ?? .nan)
    }
}

extension FlatDrive {
    /// The flat of `layout.csv` as rooms: rectangles between the wall lines of the outline polygon (names
    /// ours; the dataset names none), and the six anchors of `anchors.csv` as gateways `anchor-1`...`anchor-6`.
    public static let site: Site = {
        func rectangle(_ name: String, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Room {
            Room(name: name, polygon: [Point2(x: x0, y: y0), Point2(x: x1, y: y0), Point2(x: x1, y: y1), Point2(x: x0, y: y1)])
        }
        let rooms = [
            rectangle("hall", 0, 0, 3.88, 2.07),
            rectangle("south room", 4.05, 0, 6.22, 1.93),
            rectangle("west room", 0, 2.18, 2.58, 7.1),
            rectangle("living room", 2.7, 2.12, 6.27, 7.1),
            rectangle("east room", 6.37, 4.19, 9.07, 7.1),
        ]
        let anchors: [(x: Double, y: Double, z: Double)] = [
            (5.48, 2.41, 2.08), (0.79, 6.75, 2.62), (3.03, 0.14, 2.38), (3.79, 7.06, 1.85), (5.99, 0.43, 2.31), (8.66, 6.59, 2.41),
        ]
        let gateways = anchors.enumerated().map { index, anchor in
            SiteGateway(name: gatewayName(index), x: anchor.x, y: anchor.y, z: anchor.z,
                        room: rooms.first { $0.contains(Point2(x: anchor.x, y: anchor.y)) }?.name)
        }
        // The interior walls of the outline's notches, along their middles, at the site file's default
        // attenuation (nothing measured here): hall–south room with its door at y 0.6–1.42, south room–living
        // room, hall–west room with its door at x 0.73–1.52, west room–living room, and the stub between the
        // living room and the east room. The hall is open to the living room at x 2.7–3.88.
        let walls = [((3.965, 0.0), (3.965, 0.6)), ((3.965, 1.42), (3.965, 2.12)), ((3.965, 2.025), (6.27, 2.025)),
                     ((0.0, 2.125), (0.73, 2.125)), ((1.52, 2.125), (2.64, 2.125)), ((2.64, 2.125), (2.64, 7.1)),
                     ((6.32, 4.19), (6.32, 4.82))]
            .map { Wall(from: Point2(x: $0.0.0, y: $0.0.1), to: Point2(x: $0.1.0, y: $0.1.1)) }
        return Site(rooms: rooms, gateways: gateways, walls: walls)
    }()
}
