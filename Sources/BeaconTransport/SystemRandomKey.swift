import BeaconCore

extension MultilinearHash {
    /// A key from the system's random source (getrandom), drawn anew for every monitor: advertised
    /// identities cannot then be picked in advance to collide.
    public static func systemRandomKey() -> MultilinearHash {
        var generator = SystemRandomNumberGenerator()
        return randomKey(using: &generator)
    }
}
