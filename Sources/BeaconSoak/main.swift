import BeaconCore
import BeaconSimulation
#if canImport(Glibc)
import Glibc
#endif

// Writes a simulated day of churning beacons as a btsnoop capture for the soak test, and prints how
// many lines `beacon range --uuid UUID` (default --exit-after 10s, --interval 1s) must print over it.
// Usage: beacon-soak FILE [BEACONS] [SECONDS_OF_AIR]
// Each beacon is present once, for 2 to 5 minutes starting at a random moment, and advertises about
// every second (±100 ms) while present; there are no other devices.

let arguments = Array(CommandLine.arguments.dropFirst())
guard let path = arguments.first else {
    let usage = "usage: beacon-soak FILE [BEACONS] [SECONDS_OF_AIR]\n"
    _ = usage.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    exit(64)
}
let beaconCount = arguments.dropFirst().first.flatMap { Int($0) } ?? 50_000
let daySeconds = arguments.dropFirst(2).first.flatMap { Int64($0) } ?? 86_400
let uuid = BeaconUUID(high: 0xE2C5_6DB5_DFFB_48D2, low: 0xB060_D0F5_A710_96E0)
let dayStart = Timestamp(microseconds: 1_800_000_000_000_000)
let exitAfter = Micros.seconds(10)
let interval = Micros.seconds(1)

/// One beacon's stay: present from `start` for `seconds`.
struct Presence {
    var index: Int
    var start: Int64
    var seconds: Int64
}

var rng = SplitMix64(seed: 2026)
var presences = (0..<beaconCount).map { index -> Presence in
    let seconds = 120 + Int64(rng.next() % 181)
    let start = Int64(rng.next() % UInt64(max(1, daySeconds - seconds)))
    return Presence(index: index, start: start, seconds: seconds)
}
presences.sort { $0.start < $1.start }

/// The lines the monitor must print for one region matching every beacon, computed from the sighting
/// times alone: a state line at the first sighting, an enter and a state line after each silence of
/// `exitAfter`, an exit and a state line when such a silence ends inside the capture, and a range line
/// per tick while inside. Ticks and exits are printed only when a later sighting passes them; at the
/// capture's last packet the partial interval's beacons get one more range line.
struct ExpectedLines {
    var count = 0
    private var inside = false
    private var lastSeen = Timestamp(microseconds: 0)
    private var nextTick: Timestamp?

    mutating func sighting(at time: Timestamp) {
        guard var tick = nextTick else {
            count += 3 // state unknown, enter, state inside
            nextTick = time + interval
            inside = true
            lastSeen = time
            return
        }
        while true {
            let exit = lastSeen + exitAfter
            if inside, exit <= tick, exit <= time {
                count += 2 // exit, state outside
                inside = false
            } else if tick <= time {
                if inside { count += 1 }
                tick = tick + interval
            } else {
                break
            }
        }
        nextTick = tick
        if !inside { count += 2 } // enter, state inside
        inside = true
        lastSeen = time
    }

    /// The end of the capture: the last sighting's interval is reported as partial.
    mutating func finish() {
        if inside { count += 1 }
    }
}

/// Writes out and empties `buffer`; returns the byte count.
func flush(_ buffer: inout [UInt8], to file: UnsafeMutablePointer<FILE>) -> Int {
    let count = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    buffer.removeAll(keepingCapacity: true)
    return count
}

/// Writes the capture and returns the summary line.
@MainActor func writeCapture() -> String {
    guard let file = fopen(path, "wb") else {
        perror(path)
        exit(73)
    }
    let writer = BtsnoopWriter(datalink: .h4)
    var buffer = writer.header
    buffer.reserveCapacity(1 << 20)
    var expected = ExpectedLines()
    var packets = 0
    var bytes = 0
    var peakPresent = 0
    var next = 0
    var present: [Presence] = []
    var second: [(time: Int64, index: Int)] = []


    for s in 0..<daySeconds {
        while next < presences.count, presences[next].start <= s {
            present.append(presences[next])
            next += 1
        }
        present.removeAll { $0.start + $0.seconds <= s }
        peakPresent = max(peakPresent, present.count)
        second.removeAll(keepingCapacity: true)
        for p in present {
            // About once a second: this second's slot, shifted by up to ±100 ms.
            let jitter = Int64(rng.next() % 200_001) - 100_000
            second.append((s * 1_000_000 + 500_000 + jitter, p.index))
        }
        second.sort { $0.time < $1.time }
        for (offset, index) in second {
            let time = dayStart + Micros(offset)
            let rssi = Int8(-50 - Int(rng.next() % 45))
            writer.appendRecord(SimulatedAir.extendedReport(SimulatedAir.beacon(index, uuid: uuid), rssi: rssi),
                                direction: .received, timestamp: time, to: &buffer)
            expected.sighting(at: time)
            packets += 1
        }
        if buffer.count >= 1 << 20 { bytes += flush(&buffer, to: file) }
    }
    bytes += flush(&buffer, to: file)
    expected.finish()
    guard fclose(file) == 0 else {
        perror(path)
        exit(74)
    }
    return "beacons=\(beaconCount) seconds=\(daySeconds) packets=\(packets) bytes=\(bytes) peak_present=\(peakPresent) expected_lines=\(expected.count)"
}

print(writeCapture())
