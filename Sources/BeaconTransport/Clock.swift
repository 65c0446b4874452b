import BeaconCore
import Glibc

/// The machine's clocks. BeaconCore never reads a clock; times are read here and passed in.
public enum Clock {
    /// Wall-clock time (CLOCK_REALTIME), the time printed and recorded.
    public static func now() -> Timestamp {
        Timestamp(microseconds: read(CLOCK_REALTIME))
    }

    /// Time since an arbitrary start that never jumps (CLOCK_MONOTONIC), for timeouts and flush intervals.
    public static func monotonic() -> Micros {
        Micros(read(CLOCK_MONOTONIC))
    }

    /// clock_gettime cannot fail for these clock ids and a valid pointer, so its result is not checked.
    private static func read(_ clock: clockid_t) -> Int64 {
        var spec = timespec()
        _ = clock_gettime(clock, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000
    }
}
