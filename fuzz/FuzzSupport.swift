// Shared by every fuzz target: compiled into each target's binary next to the target file.
import BeaconCore
#if canImport(Glibc)
import Glibc
#endif

/// The fuzzer's input as an array.
func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}

/// A broken invariant: print what and abort, so libFuzzer records the input as a crash.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard !condition else { return }
    let text = "fuzz invariant failed: \(message())\n"
    _ = text.withCString { fputs($0, stderr) }
    abort()
}

/// Takes values from the front of the input; runs dry as zeros, so every input is a valid program.
struct FuzzCursor {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { position >= bytes.count }

    mutating func u8() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func u16() -> UInt16 { UInt16(u8()) | UInt16(u8()) << 8 }

    mutating func u32() -> UInt32 { UInt32(u16()) | UInt32(u16()) << 16 }

    mutating func u64() -> UInt64 { UInt64(u32()) | UInt64(u32()) << 32 }

    /// Up to `count` bytes (fewer at the end of the input).
    mutating func bytes(_ count: Int) -> ArraySlice<UInt8> {
        let end = min(bytes.count, position + max(0, count))
        defer { position = end }
        return bytes[position..<end]
    }

    mutating func rest() -> ArraySlice<UInt8> { bytes(bytes.count - position) }
}

/// The sighting one decoded report carries, nil when it holds no beacon frame: what the sighting
/// decoder must give for it.
func sighting(of report: AdvertisingReport, at time: Timestamp) -> Sighting? {
    BeaconFrame.find(inAdvertisingData: report.data).map {
        Sighting(frame: $0, rssi: report.rssiValue, address: report.address, addressType: report.addressType,
                 time: time, isScanResponse: report.isScanResponse, phy: PHY(raw: report.primaryPHY))
    }
}
