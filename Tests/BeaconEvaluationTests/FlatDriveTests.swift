import BeaconCore
import BeaconEvaluation
import BeaconSimulation
import Testing

@Suite("Kolakowski flat drive loader")
struct FlatDriveTests {
    static let header = ",ts,x,heading,y,rssi_1,rssi_2,rssi_3,rssi_4,rssi_5,rssi_6\n"
    /// 1.6280081e9 s: 0.3 s into a second, then two rows in the next second.
    static let text = header
        + "0,1.6280081003e+18,0.5,1.0,5.8,-60.0,-70.0,,-50.0,NaN,-65.0\n"
        + "1,1.6280081007e+18,0.6,1.0,5.9,-62.4,-70.0,,-52.0,NaN,-65.0\r\n"
        + "2,1.6280081012e+18,0.7,1.0,6.0,-64.0,,,,,\n"
        + "3,1.6280081025e+18,0.8,1.0,6.1,-66.0,,,,,\n"

    @Test("each anchor's capture: scanning on at the whole second before the drive, a report of the tag per row it heard (whole dBm), a neighbour every second")
    func captures() throws {
        let drive = try FlatDrive.parse(name: "test_robot_df", bytes: Array(Self.text.utf8))
        let start = Timestamp(microseconds: 1_628_008_100_000_000)
        #expect(drive.start == start)
        let packets = drive.packets(gateway: 0)
        #expect(packets.first?.time == start && packets.first?.direction == .sent)
        var rssi: [Int8] = []
        var neighbours: [Timestamp] = []
        for packet in packets where packet.direction == .received {
            try HCIEvent.forEachAdvertisingReport(inEvent: packet.packet.payload) { report in
                if report.address == RecordedDrive.tagAddress { rssi.append(report.rssi) } else { neighbours.append(packet.time) }
            }
        }
        #expect(rssi == [-60, -62, -64, -66])
        #expect(neighbours == [start + .seconds(1), start + .seconds(2)])
        #expect(zip(packets, packets.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    @Test("the drive through range: a readings message per anchor per second; the truth each second as of the last row before it")
    func readingsAndTruth() throws {
        let drive = try FlatDrive.parse(name: "test_robot_df", bytes: Array(Self.text.utf8))
        let truth = drive.truth()
        #expect(truth.map(\.x) == [0.6, 0.7])
        #expect(truth.first?.time == drive.start + .seconds(1))
        let messages = drive.events.compactMap { event -> GatewayReadings? in
            if case .readings(let message) = event { message } else { nil }
        }
        let first = messages.filter { $0.time == drive.start + .seconds(1) }
        #expect(Set(first.map(\.gateway)) == Set((1...6).map { "anchor-\($0)" }))
        #expect(first.first { $0.gateway == "anchor-3" }?.readings.isEmpty == true)
        let anchor1 = try #require(first.first { $0.gateway == "anchor-1" }?.readings.first)
        #expect(anchor1.id == RecordedDrive.tagID)
        #expect(anchor1.rssi == -61 && anchor1.samples == 2)
    }

    @Test func rejectsARowWithTooFewColumns() {
        let text = Self.header + "0,1.6e+18,0.5,1.0,5.8,-60.0\n"
        #expect(throws: ResearchDataError(file: "test_robot_df.csv", line: 2, "expected 11 fields")) {
            try FlatDrive.parse(name: "test_robot_df", bytes: Array(text.utf8))
        }
    }

    @Test func rejectsAnRSSIThatIsNotANumber() {
        let text = Self.header + "0,1.6e+18,0.5,1.0,5.8,-60.0,loud,,,,\n"
        #expect(throws: ResearchDataError(file: "test_robot_df.csv", line: 2, "rssi_2 'loud' is not a dBm value")) {
            try FlatDrive.parse(name: "test_robot_df", bytes: Array(text.utf8))
        }
    }

    @Test func rejectsRowsGoingBackInTime() {
        let text = Self.header + "0,1.7e+18,0.5,1.0,5.8,-60.0,,,,,\n" + "1,1.6e+18,0.5,1.0,5.8,-60.0,,,,,\n"
        #expect(throws: ResearchDataError(file: "test_robot_df.csv", line: 3, "ts goes back in time")) {
            try FlatDrive.parse(name: "test_robot_df", bytes: Array(text.utf8))
        }
    }

    @Test("the nearest anchor's distance: the truth's median, and a point of the rooms'")
    func nearestAnchorDistances() {
        let anchor = FlatDrive.site.gateways[0]
        // Two seconds at anchor-1's foot, one 3 m from every anchor's: the median is 0.
        let truth = [TruthPoint(time: Timestamp(microseconds: 0), x: anchor.x, y: anchor.y, room: nil), TruthPoint(time: Timestamp(microseconds: 0), x: anchor.x, y: anchor.y, room: nil),
                     TruthPoint(time: Timestamp(microseconds: 0), x: anchor.x + 3, y: anchor.y + 3, room: nil)]
        let flat = RecordedDrive(rows: [], site: FlatDrive.site)
        #expect(flat.nearestGatewayDistance(truth: truth) == 0)
        // Six anchors over about 55 m² of rooms: a point is a metre or two from the nearest.
        let rooms = flat.roomsNearestGatewayDistance
        #expect(rooms > 1 && rooms < 2.5, "\(rooms)")
    }
}
