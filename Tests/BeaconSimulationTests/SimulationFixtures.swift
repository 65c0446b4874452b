import BeaconCore
import BeaconSimulation
import Testing

let sceneUUID = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!

/// Everything one run of a scene produced.
struct SimulationRecord {
    var packets: [SimulatedPacket] = []
    var rows: [TruthRow] = []

    /// A plain scene's ground truth.
    var truth: [GroundTruth] {
        rows.compactMap { row in
            guard case .receiver(let row) = row else { return nil }
            return row
        }
    }

    /// A site scene's ground truth.
    var siteTruth: [SiteTruth] {
        rows.compactMap { row in
            guard case .site(let row) = row else { return nil }
            return row
        }
    }

    /// Every advertising report of the scene's beacons with its time and whether it came in an extended
    /// report event (the neighbours' are in `neighbourReports`).
    var reports: [(time: Timestamp, report: AdvertisingReport)] {
        get throws { try allReports.filter { !Self.isNeighbour($0.report.address) } }
    }

    /// The reports of the neighbours every scene has.
    var neighbourReports: [(time: Timestamp, report: AdvertisingReport)] {
        get throws { try allReports.filter { Self.isNeighbour($0.report.address) } }
    }

    /// Whether `address` is one of the neighbours' (D0:5E:00:00:00:01 onwards; beacons' default addresses start C0).
    static func isNeighbour(_ address: DeviceAddress) -> Bool {
        (0..<Neighbours.countRange.upperBound).contains(Int(address.value) - Int(Neighbours.address(index: 0).value))
    }

    private var allReports: [(time: Timestamp, report: AdvertisingReport)] {
        get throws {
            var found: [(time: Timestamp, report: AdvertisingReport)] = []
            for packet in packets where packet.direction == .received {
                try HCIEvent.forEachAdvertisingReport(inEvent: packet.packet.payload) { found.append((packet.time, $0)) }
            }
            return found
        }
    }

    /// The RSSI values reported (127 included).
    var rssiValues: [Int8] { get throws { try reports.map(\.report.rssi) } }
}

func simulate(_ scene: Scene, seed: UInt64 = 1) throws -> SimulationRecord {
    var record = SimulationRecord()
    try SceneSimulator(scene: scene, seed: seed).run(packet: { record.packets.append($0) }, truth: { record.rows.append($0) })
    return record
}

/// The capture file `beacon simulate` would write for the scene.
func captureBytes(_ scene: Scene, seed: UInt64) throws -> [UInt8] {
    let writer = BtsnoopWriter(datalink: .h4)
    var bytes = writer.header
    try SceneSimulator(scene: scene, seed: seed).run(
        packet: { writer.appendRecord($0.packet, direction: $0.direction, timestamp: $0.time, to: &bytes) },
        truth: { _ in })
    return bytes
}

/// A radio with nothing random in it: every packet arrives at the mean power plus its channel's offset.
let quietRadio = RadioModel(shadowing: .init(sigma: 0), channelOffsets: [0, 0, 0], fastFading: 0)

/// One beacon on `path` (minor 1, measured power -59 dBm, 100 ms), one region on its UUID.
func oneBeaconScene(_ path: BeaconPath = .standing(distance: 1), duration: Micros = .seconds(60),
                    radio: RadioModel = quietRadio, receiver: ReceiverModel = ReceiverModel(),
                    configure: (inout SceneBeacon) -> Void = { _ in }) -> Scene {
    var beacon = SceneBeacon(beacon: .iBeacon(IBeacon(identity: IBeaconID(uuid: sceneUUID, major: 1, minor: 1), measuredPower: -59)),
                             address: SceneBeacon.defaultAddress(index: 0), path: path)
    configure(&beacon)
    return Scene(name: "test", duration: duration, radio: radio, receiver: receiver,
                 regions: [NamedRegion(name: "all", region: BeaconRegion(uuid: sceneUUID))], beacons: [beacon])
}

func mean(_ values: [Double]) -> Double {
    values.reduce(0, +) / Double(max(1, values.count))
}

/// Expects the scene file `text` to be refused with an error naming `field` and saying `reason`.
func expectRefusal(_ text: String, field: String, reason: String) {
    do {
        let scene = try Scene.decode(json: Array(text.utf8))
        Issue.record("decoded \(scene)")
    } catch {
        #expect(error.field == field, "\(error)")
        #expect(error.reason.contains(reason), "\(error)")
    }
}
