import BeaconCore
import BeaconEvaluation
import Testing

@Suite("Kolakowski flat drive loader")
struct FlatDriveTests {
    static let header = ",ts,x,heading,y,rssi_1,rssi_2,rssi_3,rssi_4,rssi_5,rssi_6\n"

    @Test func groupsEachSecondIntoOneMessagePerAnchorWithTheDefaultDistance() throws {
        let text = Self.header
            + "0,1.6280081e+18,0.5,1.0,5.8,-60.0,-70.0,,-50.0,NaN,-65.0\n"
            + "1,1.6280081004e+18,0.6,1.0,5.9,-62.0,-70.0,,-52.0,NaN,-65.0\r\n"
            + "2,1.6280081012e+18,0.7,1.0,6.0,-64.0,,,,,\n"
        let drive = try FlatDrive.parse(name: "test_robot_df", bytes: Array(text.utf8))
        #expect(drive.truth.map(\.x) == [0.6, 0.7])
        #expect(drive.truth.map(\.y) == [5.9, 6.0])
        #expect(drive.truth[1].time - drive.truth[0].time == .seconds(1))
        #expect(drive.messages.count == 12)
        let first = drive.messages.prefix(6)
        #expect(first.map(\.gateway) == (1...6).map { "anchor-\($0)" })
        #expect(first.map(\.readings.count) == [1, 1, 0, 1, 0, 1])
        let anchor1 = try #require(first.first?.readings.first)
        #expect(anchor1.filteredRSSI == -61)
        #expect(anchor1.samples == 2)
        // The two readings, -60 and -62: a standard deviation of 1.
        #expect(anchor1.spread == 1)
        #expect(anchor1.measuredPower == -59)
        #expect(anchor1.accuracy == DistanceModel.standard.distance(rssi: -61, measuredPower: -59))
        #expect(drive.messages.suffix(6).map(\.readings.count) == [1, 0, 0, 0, 0, 0])
    }

    @Test func rejectsARowWithTooFewColumns() {
        let text = Self.header + "0,1.6e+18,0.5,1.0,5.8,-60.0\n"
        #expect(throws: ResearchDataError(file: "test_robot_df", line: 2, "expected 11 fields")) {
            try FlatDrive.parse(name: "test_robot_df", bytes: Array(text.utf8))
        }
    }

    @Test func rejectsAnRSSIThatIsNotANumber() {
        let text = Self.header + "0,1.6e+18,0.5,1.0,5.8,-60.0,loud,,,,\n"
        #expect(throws: ResearchDataError(file: "test_robot_df", line: 2, "rssi_2 'loud' is not a dBm value")) {
            try FlatDrive.parse(name: "test_robot_df", bytes: Array(text.utf8))
        }
    }
}
