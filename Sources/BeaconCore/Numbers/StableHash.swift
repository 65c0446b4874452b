/// FNV-1a over bytes: the same on every machine and run (Swift's `Hasher` is seeded per process), for
/// names that must not change between runs, such as shard ownership and stable client ids.
public enum StableHash {
    public static func fnv1a(_ text: some StringProtocol) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }
}
