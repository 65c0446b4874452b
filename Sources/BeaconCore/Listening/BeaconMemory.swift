/// How many beacons `beacon scan` and `beacon range` remember at once, so that a flood of new
/// identities (random or spoofed advertisers) cannot take memory without bound. A table that grows
/// past the limit evicts the least recently heard eighth of its beacons in one pass, which keeps the
/// cost per new beacon constant, and counts them for a warning at the end of the run.
public enum BeaconMemory {
    public static let maximumBeacons = 65_536

    /// Beacons evicted from a table of `count` that went past its limit: an eighth, at least one.
    static func evictionCount(from count: Int) -> Int { max(1, count / 8) }

    /// The end-of-run line for `evicted` beacons forgotten early, nil for none.
    public static func evictionWarning(_ evicted: Int) -> String? {
        guard evicted > 0 else { return nil }
        return "Warning: more than \(maximumBeacons) beacons were heard at once; "
            + "\(evicted) of the least recently heard were forgotten early"
    }
}
