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
                                        interval: .seconds(1), hashKey: .systemRandomKey()), duration: nil)
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
        let event = try host.forEachPacket(until: session.nextDeadline) { packet, direction, time in
            do {
                try session.packet(packet, direction: direction, at: time, emit: emit)
            } catch {
                malformed += 1
            }
            return .proceed(until: session.nextDeadline)
        }
        guard case .deadline(let time) = event else { break }
        session.advance(to: time, emit: emit)
    }
    session.finish(at: host.now(), emit: emit)
    return "\(lines) lines, \(malformed) malformed packets"
}
print("peak resident memory: \(format(peakResidentMegabytes(), 1)) MiB (the scene itself is held in memory)")

/// beacon locate's fuser on a building: `gatewayCount` gateways on a grid of 5 × 5 m rooms, each hearing
/// every beacon within 15 m once a second, `beaconCount` beacons walking; the readings messages fused in
/// time order as if they arrived on time.
func locateBuilding(gateways gatewayCount: Int, beacons beaconCount: Int, seconds: Int) -> (Locator, [GatewayReadings], Int) {
    let columns = 10
    var rooms: [Room] = []
    var gateways: [SiteGateway] = []
    for index in 0..<gatewayCount {
        let (x, y) = (Double(index % columns) * 5, Double(index / columns) * 5)
        rooms.append(Room(name: "room\(index)", polygon: [Point2(x: x, y: y), Point2(x: x + 5, y: y), Point2(x: x + 5, y: y + 5), Point2(x: x, y: y + 5)]))
        gateways.append(SiteGateway(name: "gw\(index)", x: x + 2.5, y: y + 2.5, z: 2, room: "room\(index)"))
    }
    let site = Site(rooms: rooms, gateways: gateways)
    let width = Double(columns) * 5, depth = Double((gatewayCount + columns - 1) / columns) * 5
    var messages: [GatewayReadings] = []
    var readings = 0
    for second in 0..<seconds {
        let time = Timestamp(microseconds: 1_795_953_600_000_000 + Int64(second) * 1_000_000)
        for (g, gateway) in gateways.enumerated() {
            var heard: [BeaconReading] = []
            for b in 0..<beaconCount {
                // A slow walk around the building, each beacon on its own phase.
                let phase = Double(b) * 0.61 + Double(second) * 0.01
                let x = width / 2 + (width / 2 - 1) * sin(phase), y = depth / 2 + (depth / 2 - 1) * cos(phase * 1.3)
                let distance = ((x - gateway.x) * (x - gateway.x) + (y - gateway.y) * (y - gateway.y) + 1).squareRoot()
                guard distance <= 15 else { continue }
                // Path loss at exponent 2.5 and a few dB of wobble, as the fuser's own model has it.
                let rssi = -59 - 25 * log10(distance) + 3 * sin(Double(b * 31 + g * 17 + second))
                heard.append(BeaconReading(id: "beacon-\(b)", rssi: rssi, filteredRSSI: rssi, spread: 2, samples: 10,
                                           measuredPower: -59, accuracy: pow(10, (-59 - rssi) / 25)))
            }
            readings += heard.count
            messages.append(GatewayReadings(gateway: gateway.name, time: time + .milliseconds(Int64(g * 7 % 900)),
                                            sequence: second + 1, readings: heard))
        }
    }
    messages.sort { ($0.time, $0.gateway) < ($1.time, $1.gateway) }
    return (Locator(site: site), messages, readings)
}

let (building, buildingMessages, buildingReadings) = locateBuilding(gateways: 50, beacons: 200, seconds: 30)
let buildingPayloads = buildingMessages.map { (Array($0.json.utf8), $0.gateway) }
try measure("locate (50 gateways x 200 beacons, 30 s: readings JSON -> decoder -> Locator -> JSON lines)", packets: buildingReadings) {
    var locator = building
    var lines = 0
    for (payload, gateway) in buildingPayloads {
        let message = try GatewayReadings.decode(payload, gateway: gateway)
        _ = locator.receive(message, arrival: message.time)
        locator.advance(arrival: message.time) { output in
            lines += 1
            _ = output.json
        }
    }
    locator.finish { _ in lines += 1 }
    return "\(buildingMessages.count) messages, \(lines) lines; a 'packet' here is one beacon reading (a building at 1 Hz sends 10,000 a second)"
}
