import BeaconCore
import BeaconSimulation
import BeaconTransport
#if canImport(Glibc)
import Glibc
#endif

/// `beacon-bench capture`: writes the captures `make bench` replays. Every beacon advertises once per
/// 100 ms slot at a random offset; between them, other devices' advertisements (a device name) make up
/// the noise fraction. A fraction of all reports are LE Extended Advertising Reports, the rest legacy
/// LE Advertising Reports. Beacon `i` has proximity UUID number `i % uuids`, so with one UUID every
/// beacon is in a region of that UUID, and with 100 a region matches one beacon in a hundred.
struct BenchCapture {
    var out = ""
    var beacons = 1000
    var reports = 1_000_000
    var uuids = 1
    var noise = 0.10
    var extended = 0.10
    var seed: UInt64 = 42

    static let usage = "usage: beacon-bench capture --out FILE [--beacons N] [--reports N] [--uuids N] [--noise F] [--extended F] [--seed N]"

    /// UUID number `k`: the bench UUID with its last two bytes replaced by `k`.
    static func uuid(_ k: Int) -> BeaconUUID {
        var bytes = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A7100000")!.bytes
        bytes[14] = UInt8(truncatingIfNeeded: k >> 8)
        bytes[15] = UInt8(truncatingIfNeeded: k)
        return BeaconUUID(bytes: bytes)!
    }

    init(arguments: [String]) {
        var rest = arguments[...]
        func value(_ name: String) -> String {
            guard let value = rest.popFirst() else { Self.fail("\(name) needs a value") }
            return value
        }
        while let name = rest.popFirst() {
            switch name {
            case "--out": out = value(name)
            case "--beacons": beacons = Self.number(value(name), name)
            case "--reports": reports = Self.number(value(name), name)
            case "--uuids": uuids = Self.number(value(name), name)
            case "--noise": noise = Self.fraction(value(name), name)
            case "--extended": extended = Self.fraction(value(name), name)
            case "--seed": seed = UInt64(Self.number(value(name), name))
            default: Self.fail("unknown argument \(name)")
            }
        }
        if out.isEmpty { Self.fail("--out is required") }
        if uuids > 65536 { Self.fail("--uuids is at most 65536") }
    }

    static func fail(_ message: String) -> Never {
        _ = StandardStreams.writeLine("beacon-bench capture: \(message)\n\(usage)", to: STDERR_FILENO)
        exit(64)
    }

    static func number(_ text: String, _ name: String) -> Int {
        guard let value = Int(text), value > 0 else { fail("\(name) takes a positive whole number, not '\(text)'") }
        return value
    }

    static func fraction(_ text: String, _ name: String) -> Double {
        guard let value = Double(text), value >= 0, value < 1 else { fail("\(name) takes a fraction 0 ≤ f < 1, not '\(text)'") }
        return value
    }

    /// Writes the capture; returns how many of its reports carry an iBeacon.
    func write() throws(SystemError) -> Int {
        var rng = SplitMix64(seed: seed)
        let population = (0..<beacons).map { SimulatedAir.beacon($0, uuid: Self.uuid($0 % uuids)) }
        let noiseData = AdvertisingData.build([(.flags, [0x06]), (.completeLocalName, Array("sensor".utf8))])
        // Noise reports per slot so that they are `noise` of all reports.
        let othersPerSlot = Int((Double(beacons) * noise / (1 - noise)).rounded())
        let slot = Micros.milliseconds(100)
        let start = Timestamp(microseconds: 1_800_000_000_000_000)
        let writer = BtsnoopWriter(datalink: .h4)
        let file = try OutputFile(path: out)
        try file.append { $0.append(contentsOf: writer.header) }
        var written = 0
        var beaconReports = 0
        var slotIndex: Int64 = 0
        var events: [(offset: UInt64, beacon: Int)] = []
        let threshold = UInt64(extended * Double(UInt64.max))
        while written < reports {
            events.removeAll(keepingCapacity: true)
            for b in 0..<beacons { events.append((rng.next() % 100_000, b)) }
            for _ in 0..<othersPerSlot { events.append((rng.next() % 100_000, -1)) }
            events.sort { $0.offset < $1.offset }
            let slotStart = start + Micros(slotIndex * slot.value)
            for (offset, index) in events where written < reports {
                let rssi = Int8(-40 - Int(rng.next() % 50))
                let isExtended = rng.next() < threshold
                let packet: HCIPacket
                if index >= 0 {
                    packet = isExtended ? SimulatedAir.extendedReport(population[index], rssi: rssi)
                                        : SimulatedAir.legacyReport(population[index], rssi: rssi)
                    beaconReports += 1
                } else {
                    let address = DeviceAddress(value: 0xD0_00_00_00_00_00 | (rng.next() % 5000))
                    packet = SimulatedAir.report(.nonConnectable, data: noiseData, address: address, addressType: .publicDevice,
                                                 rssi: rssi, extended: isExtended)
                }
                let time = slotStart + Micros(Int64(offset))
                try file.append { writer.appendRecord(packet, direction: .received, timestamp: time, to: &$0) }
                written += 1
            }
            slotIndex += 1
        }
        try file.close()
        return beaconReports
    }
}
