import BeaconCore
import Foundation
import BeaconEvaluation
import Testing

@Suite("Daniş office track loader")
struct OfficeTracksTests {
    static let orientation = ",0.062,-0.0,-0.998,0.998,0.017,0.062,0.017,-1.0,0.002"
    /// Three readings in the first second (the second and third swapped by 0.4 ms, as the files do), one in the next.
    static let text = "1581249601.4086823,b827eb4521b4,e78f135624ce,-87,18.031,8.465,1.816" + orientation + "\n"
        + "1581249601.4125385,000000000402,e78f135624ce,-76,18.0,8.4,1.816" + orientation + "\n"
        + "1581249601.4121366,000000000101,e78f135624ce,-85,17.9,8.4,1.816" + orientation + "\r\n"
        + "1581249602.5,000000000101,e78f135624ce,-80,17.5,8.3,1.816" + orientation + "\n"

    @Test("each line one sensor's reading at the annotated place; lines swapped by under 10 ms put in time order")
    func parsesAndOrders() throws {
        let (drive, skipped) = try OfficeTracks.parse(name: "straight_01", bytes: Array(Self.text.utf8))
        #expect(skipped == 0)
        #expect(drive.rows.count == 4)
        #expect(drive.rows.map(\.time.microseconds) == [1_581_249_601_408_682, 1_581_249_601_412_137, 1_581_249_601_412_539, 1_581_249_602_500_000])
        let sensor11 = try #require(OfficeTracks.site.gatewayIndex(named: "sensor11"))
        #expect(drive.rows[1].rssi[sensor11] == -85)
        #expect(drive.rows[1].rssi.compactMap { $0 }.count == 1)
        #expect(drive.rows[1].x == 17.9 && drive.rows[1].y == 8.4)
        // The truth at each whole second as of the last row before it; each sensor a gateway of its own.
        #expect(drive.truth().map(\.x) == [18.0])
        #expect(drive.truth().first?.room == "office")
        let heard = drive.events.compactMap { event -> GatewayReadings? in
            if case .readings(let message) = event, !message.readings.isEmpty { message } else { nil }
        }
        #expect(Set(heard.map(\.gateway)) == ["sensor10", "sensor11", "sensor42"])
    }

    @Test("a reading above +20 dBm (no receiver reports one) is left out and counted")
    func skipsImpossibleReadings() throws {
        let text = Self.text + "1581249603.0,b827ebf7d096,e78f135624ce,42,17.6,8.2,1.816" + Self.orientation + "\n"
        let (drive, skipped) = try OfficeTracks.parse(name: "straight_01", bytes: Array(text.utf8))
        #expect(skipped == 1 && drive.rows.count == 4)
    }

    @Test("refused: a line more than 10 ms before the latest, a sensor not of the office, a RSSI that is not a number")
    func refusesBadLines() {
        let back = Self.text + "1581249602.45,000000000101,e78f135624ce,-80,17.5,8.3,1.816" + Self.orientation + "\n"
        #expect(throws: ResearchDataError(file: "straight_01_all_sensors.mbd", line: 5, "time goes back by more than 10 ms")) {
            try OfficeTracks.parse(name: "straight_01", bytes: Array(back.utf8))
        }
        let stranger = "1581249601.4,aabbccddeeff,e78f135624ce,-87,18.0,8.4,1.8" + Self.orientation + "\n"
        #expect(throws: ResearchDataError(file: "straight_01_all_sensors.mbd", line: 1, "sensor 'aabbccddeeff' is not one of the office's")) {
            try OfficeTracks.parse(name: "straight_01", bytes: Array(stranger.utf8))
        }
        let loud = "1581249601.4,b827eb4521b4,e78f135624ce,loud,18.0,8.4,1.8" + Self.orientation + "\n"
        #expect(throws: ResearchDataError(file: "straight_01_all_sensors.mbd", line: 1, "RSSI 'loud' is not a dBm value")) {
            try OfficeTracks.parse(name: "straight_01", bytes: Array(loud.utf8))
        }
        #expect(throws: ResearchDataError(file: "straight_01_all_sensors.mbd", line: 1, "no rows")) {
            try OfficeTracks.parse(name: "straight_01", bytes: [])
        }
    }

    @Test("the office's path loss: readings made from a known exponent and per-sensor offsets give them back")
    func pathLossFit() throws {
        let offsets = (0..<12).map { Double($0 % 5) - 2 }  // −2 to +2 dB, mean −0.0833
        let mean = offsets.reduce(0, +) / 12
        var rows: [RecordedDrive.Row] = []
        for step in 0..<200 {
            let x = 0.5 + Double(step % 20) * 0.9, y = 0.5 + Double(step / 20) * 1.7
            for (index, gateway) in OfficeTracks.site.gateways.enumerated() {
                let dz = 1.8 - gateway.z
                let distance = ((x - gateway.x) * (x - gateway.x) + (y - gateway.y) * (y - gateway.y) + dz * dz).squareRoot()
                var rssi = [Double?](repeating: nil, count: 12)
                rssi[index] = -60 + offsets[index] - 10 * 1.7 * log10(distance)
                rows.append(RecordedDrive.Row(time: Timestamp(microseconds: Int64(step) * 1_000_000), x: x, y: y, rssi: rssi))
            }
        }
        let fit = try #require(OfficeTracks.pathLoss([RecordedDrive(rows: rows, site: OfficeTracks.site)]))
        #expect(abs(fit.exponent - 1.7) < 1e-9)
        #expect(zip(fit.offsets, offsets).allSatisfy { abs($0 - ($1 - mean)) < 1e-9 })
        #expect(OfficeTracks.pathLoss([]) == nil)
    }

    /// The office's data in the tree.
    static let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("eval-data/danis-office-ble-tracks")

    @Test("the fingerprint sets in the tree are surveys of the office: each of its twelve sensors heard at each of 81 and 45 points")
    func surveysInTheTree() throws {
        for (survey, places) in zip(OfficeTracks.surveys, [81, 45]) {
            let bytes = try [UInt8](Data(contentsOf: Self.data.appendingPathComponent(survey.file)))
            let points = try SurveyFile.decode(bytes).points
            #expect(Set(points.map(\.gateway)) == Set(OfficeTracks.site.gateways.map(\.name)), "\(survey.file)")
            #expect(Set(points.map { [$0.point.x, $0.point.y] }).count == places, "\(survey.file)")
            #expect(points.count == places * 12 && points.allSatisfy { $0.rssi != nil && $0.samples > 1000 }, "\(survey.file)")
        }
    }

    @Test("every track in the tree loads")
    func tracksInTheTree() throws {
        for name in OfficeTracks.names {
            let bytes = try [UInt8](Data(contentsOf: Self.data.appendingPathComponent(OfficeTracks.fileName(name))))
            let (drive, _) = try OfficeTracks.parse(name: name, bytes: bytes)
            #expect(drive.truth().count >= 20, "\(name)")
        }
    }
}
