import BeaconCore
import BeaconSimulation
import Foundation
import Testing

@Suite("Replaying a btmon capture of several controllers")
struct CaptureReplayTests {
    let uuid = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
    let t0 = Timestamp(microseconds: 1_800_000_000_000_000)

    /// hci0 hears beacon minor 1, hci1 hears minor 2, interleaved, once every 100 ms for 2 s.
    func twoControllerCapture() throws -> String {
        let writer = BtsnoopWriter(datalink: .linuxMonitor)
        var bytes = writer.header
        for i in 0..<20 {
            for index in [UInt16(0), 1] {
                let beacon = SimulatedAir.beacon(Int(index) + 1, uuid: uuid)
                writer.appendRecord(SimulatedAir.extendedReport(beacon, rssi: -50), direction: .received,
                                    timestamp: t0 + .milliseconds(Int64(i * 100) + Int64(index)),
                                    controllerIndex: index, to: &bytes)
            }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-\(UUID().uuidString).btsnoop").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("the first controller is replayed and a warning names the others and --index")
    func firstControllerByDefault() throws {
        let path = try twoControllerCapture()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let io = CapturedConsole()
        #expect(io.run(["range", "--hci", "btsnoop:\(path)", "--uuid", uuid.description]) == 0)
        #expect(io.stdout.contains { $0.contains(#""minor":1"#) })
        #expect(!io.stdout.contains { $0.contains(#""minor":2"#) })
        #expect(io.stderr == ["Warning: the capture has controllers hci0, hci1; replayed hci0 (choose another with --index)"])
    }

    @Test("--index 1 replays the second controller")
    func chosenController() throws {
        let path = try twoControllerCapture()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let io = CapturedConsole()
        #expect(io.run(["range", "--hci", "btsnoop:\(path)", "--index", "1", "--uuid", uuid.description]) == 0)
        #expect(io.stdout.contains { $0.contains(#""minor":2"#) })
        #expect(!io.stdout.contains { $0.contains(#""minor":1"#) })
    }

    @Test("an --index the capture does not have is a warning, and nothing is replayed")
    func missingController() throws {
        let path = try twoControllerCapture()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let io = CapturedConsole()
        #expect(io.run(["range", "--hci", "btsnoop:\(path)", "--index", "5", "--uuid", uuid.description]) == 0)
        #expect(io.stdout.isEmpty)
        #expect(io.stderr == ["Warning: the capture has no packets of controller hci5; it has hci0, hci1"])
    }
}
