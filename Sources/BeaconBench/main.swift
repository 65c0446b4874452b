import BeaconCore
import BeaconSimulation
import BeaconTransport
#if canImport(Glibc)
import Glibc
#endif

// Throughput of the per-advertisement path: decoding, ranging, and a full capture replay.
// Usage: beacon-bench [SECONDS_OF_SIMULATED_AIR]

let simulatedSeconds = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 300
let beaconCount = 200
let advertisingInterval = Micros.milliseconds(100)
let otherAdvertisementsPerSecond = 1000
let uuid = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!

/// The scene: every beacon advertises each 100 ms, with other devices' advertisements in between.
func buildScene() -> [(HCIPacket, Timestamp)] {
    var rng = SplitMix64(seed: 42)
    let start = Timestamp(microseconds: 1_800_000_000_000_000)
    var packets: [(HCIPacket, Timestamp)] = []
    let beacons = (0..<beaconCount).map { SimulatedAir.beacon($0, uuid: uuid) }
    let slots = simulatedSeconds * 10
    let othersPerSlot = otherAdvertisementsPerSecond / 10
    packets.reserveCapacity(slots * (beaconCount + othersPerSlot))
    for slot in 0..<slots {
        let slotStart = start + Micros(Int64(slot) * advertisingInterval.value)
        var events: [(HCIPacket, Int64)] = []
        for b in beacons {
            let rssi = Int8(-40 - Int(rng.next() % 50))
            events.append((SimulatedAir.extendedReport(b, rssi: rssi), Int64(rng.next() % 100_000)))
        }
        for _ in 0..<othersPerSlot {
            let address = DeviceAddress(value: 0xD0_00_00_00_00_00 | (rng.next() % 5000))
            events.append((SimulatedAir.otherAdvertisement(address: address, rssi: -80), Int64(rng.next() % 100_000)))
        }
        events.sort { $0.1 < $1.1 }
        for (packet, offset) in events { packets.append((packet, slotStart + Micros(offset))) }
    }
    return packets
}

func measure(_ name: String, packets: Int, bytes: Int? = nil, _ body: () throws -> String) rethrows {
    let clock = ContinuousClock()
    var detail = ""
    let elapsed = try clock.measure { detail = try body() }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let rate = Double(packets) / seconds
    var line = "\(name): \(packets) packets in \(format(seconds, 3)) s = \(format(rate / 1e6, 2)) M packets/s (\(format(seconds / Double(packets) * 1e9, 0)) ns/packet)"
    if let bytes { line += ", \(format(Double(bytes) / seconds / 1e6, 1)) MB/s" }
    print(line + (detail.isEmpty ? "" : "; \(detail)"))
}

func format(_ value: Double, _ decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    return decimals == 0 ? String(Int(rounded)) : String(rounded)
}

func peakResidentMegabytes() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

let scene = buildScene()
print("scene: \(simulatedSeconds) s of air, \(beaconCount) beacons every \(advertisingInterval), \(otherAdvertisementsPerSecond) other advertisements/s")

try measure("decode (SightingDecoder)", packets: scene.count) {
    var sightings = 0
    for (packet, time) in scene {
        try SightingDecoder.forEachSighting(inEvent: packet.payload, at: time) { _ in sightings += 1 }
    }
    return "\(sightings) iBeacon sightings"
}

func newSession() -> RangeSession {
    RangeSession(monitor: RegionMonitor(regions: [BeaconRegion(uuid: uuid)], exitAfter: .seconds(10),
                                        interval: .seconds(1)), duration: nil)
}

try measure("range (decode + monitor + JSON lines)", packets: scene.count) {
    var session = newSession()
    var lines = 0
    var bytes = 0
    for (packet, time) in scene {
        try session.packet(packet, direction: .received, at: time) { output in
            lines += 1
            bytes += OutputLine.encode(output).utf8.count
        }
    }
    return "\(lines) lines, \(bytes / 1024) KiB of JSON"
}

let path = "/tmp/beacon-bench-\(getpid()).btsnoop"
var file = BtsnoopWriter().header
for (packet, time) in scene {
    BtsnoopWriter().appendRecord(packet, direction: .received, timestamp: time, to: &file)
}
let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
_ = file.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
close(fd)
defer { unlink(path) }

try measure("replay (btsnoop file -> transport -> range)", packets: scene.count, bytes: file.count) {
    let transport = try openTransport(.btsnoop(path: path))
    defer { transport.close() }
    let host = HCIHost(transport: transport, recorder: nil, signals: nil)
    var session = newSession()
    var lines = 0
    var malformed = 0
    func emit(_ output: MonitorOutput) {
        lines += 1
        _ = OutputLine.encode(output)
    }
    while true {
        switch try host.next(until: session.nextDeadline) {
        case .packet(let packet, let direction, let time):
            do {
                try session.packet(packet, direction: direction, at: time, emit: emit)
            } catch {
                malformed += 1
            }
            continue
        case .deadline(let time):
            session.advance(to: time, emit: emit)
            continue
        case .end, .signal:
            session.finish(at: host.now(), emit: emit)
        }
        break
    }
    return "\(lines) lines, \(malformed) malformed packets"
}
print("peak resident memory: \(format(peakResidentMegabytes(), 1)) MiB (the scene itself is held in memory)")
