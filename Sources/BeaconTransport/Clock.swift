import BeaconCore
import Glibc
import Synchronization

/// One reading of the machine's two clocks.
public struct ClockReading: Hashable, Sendable {
    /// CLOCK_MONOTONIC: never steps; schedules run on it.
    public var monotonic: Micros
    /// CLOCK_REALTIME: the time printed and recorded; steps when set.
    public var wall: Timestamp

    public init(monotonic: Micros, wall: Timestamp) {
        self.monotonic = monotonic
        self.wall = wall
    }
}

/// The machine's clocks. BeaconCore never reads a clock; times are read here and passed in.
///
/// Tests of the whole program cannot set the system clock, so the wall clock can be replaced: with
/// `BEACON_TEST_WALL_CLOCK_FILE` set, the wall clock reads CLOCK_MONOTONIC plus the file's content
/// (a signed number of microseconds; missing or empty is 0). The file is read again at most every
/// 50 ms; a test writes it (atomically, by rename) to step the wall clock of a live run. Built on the
/// monotonic clock, the test's wall clock moves only when the file changes: the few-millisecond
/// corrections a virtual machine's host makes to CLOCK_REALTIME do not reach it.
public enum Clock {
    /// Wall-clock time (CLOCK_REALTIME).
    public static func now() -> Timestamp {
        guard let testWallClock else { return Timestamp(microseconds: read(CLOCK_REALTIME)) }
        let monotonic = read(CLOCK_MONOTONIC)
        return Timestamp(microseconds: monotonic &+ testWallClock.offset(at: monotonic))
    }

    /// Time since an arbitrary start that never jumps (CLOCK_MONOTONIC), for timeouts and schedules.
    public static func monotonic() -> Micros {
        Micros(read(CLOCK_MONOTONIC))
    }

    /// Both clocks at (nearly) the same instant: the wall clock is read between two monotonic readings
    /// that are at most `bracket` apart (retried a few times when the thread was preempted in between).
    public static func reading() -> ClockReading {
        var best = (gap: Int64.max, reading: ClockReading(monotonic: Micros(0), wall: Timestamp(microseconds: 0)))
        for _ in 0..<4 {
            let before = read(CLOCK_MONOTONIC)
            let wall = now()
            let after = read(CLOCK_MONOTONIC)
            if after - before < best.gap {
                best = (after - before, ClockReading(monotonic: Micros(before + (after - before) / 2), wall: wall))
            }
            if best.gap <= bracket.value { break }
        }
        return best.reading
    }

    /// Longest time between the two monotonic readings around a wall-clock reading that is trusted.
    static let bracket = Micros(200)

    /// clock_gettime cannot fail for these clock ids and a valid pointer, so its result is not checked.
    private static func read(_ clock: clockid_t) -> Int64 {
        var spec = timespec()
        _ = clock_gettime(clock, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000
    }

    /// The test's wall clock, when the environment asks for one.
    private static let testWallClock: TestWallClock? = getenv("BEACON_TEST_WALL_CLOCK_FILE")
        .map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : TestWallClock(path: $0) }
}

/// Reads the offset file of `BEACON_TEST_WALL_CLOCK_FILE`, at most every 50 ms.
private final class TestWallClock: Sendable {
    let path: String
    private let state = Mutex<(value: Int64, readAt: Int64?)>((0, nil))

    init(path: String) { self.path = path }

    /// The test's wall clock minus CLOCK_MONOTONIC, in microseconds, at monotonic time `now`.
    func offset(at now: Int64) -> Int64 {
        state.withLock { state in
            if let readAt = state.readAt, now - readAt < 50_000 { return state.value }
            state = (load(), now)
            return state.value
        }
    }

    private func load() -> Int64 {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        defer { _ = Glibc.close(fd) }
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return 0 }
        return Int64(String(decoding: bytes.prefix(count), as: UTF8.self).filter { !$0.isWhitespace }) ?? 0
    }
}
