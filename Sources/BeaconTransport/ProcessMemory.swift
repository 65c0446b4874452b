import CSystem

/// How the process's allocator hands memory back.
public enum ProcessMemory {
    /// Blocks of 128 KiB and more get mappings of their own, returned when freed. glibc raises that
    /// threshold after each large free, and then a tick's list of thousands of ranged beacons comes
    /// from the heap and stays resident after the tick (1.9 MB more at 10,000 beacons).
    public static func unmapLargeBlocks() {
        _ = csystem_mmap_threshold(128 * 1024)
    }
}
