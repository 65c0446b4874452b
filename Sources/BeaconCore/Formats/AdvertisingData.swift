/// An advertising data type (Assigned Numbers 2.3, Common Data Types). Values not named here are
/// kept as they are.
public struct ADType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    /// Flags, Core Supplement Part A 1.3
    public static let flags = ADType(0x01)
    /// Incomplete List of 16-bit Service or Service Class UUIDs, Core Supplement Part A 1.1
    public static let incompleteList16BitUUIDs = ADType(0x02)
    /// Complete List of 16-bit Service or Service Class UUIDs
    public static let completeList16BitUUIDs = ADType(0x03)
    /// Incomplete List of 32-bit Service or Service Class UUIDs
    public static let incompleteList32BitUUIDs = ADType(0x04)
    /// Complete List of 32-bit Service or Service Class UUIDs
    public static let completeList32BitUUIDs = ADType(0x05)
    /// Incomplete List of 128-bit Service or Service Class UUIDs
    public static let incompleteList128BitUUIDs = ADType(0x06)
    /// Complete List of 128-bit Service or Service Class UUIDs
    public static let completeList128BitUUIDs = ADType(0x07)
    /// Shortened Local Name, Core Supplement Part A 1.2
    public static let shortenedLocalName = ADType(0x08)
    /// Complete Local Name, Core Supplement Part A 1.2
    public static let completeLocalName = ADType(0x09)
    /// Tx Power Level, Core Supplement Part A 1.5
    public static let txPowerLevel = ADType(0x0A)
    /// Class of Device, Core Supplement Part A 1.6
    public static let classOfDevice = ADType(0x0D)
    /// List of 16-bit Service Solicitation UUIDs, Core Supplement Part A 1.10
    public static let serviceSolicitation16BitUUIDs = ADType(0x14)
    /// List of 128-bit Service Solicitation UUIDs
    public static let serviceSolicitation128BitUUIDs = ADType(0x15)
    /// Service Data - 16-bit UUID, Core Supplement Part A 1.11
    public static let serviceData16BitUUID = ADType(0x16)
    /// Appearance, Core Supplement Part A 1.12
    public static let appearance = ADType(0x19)
    /// Advertising Interval, Core Supplement Part A 1.15
    public static let advertisingInterval = ADType(0x1A)
    /// List of 32-bit Service Solicitation UUIDs
    public static let serviceSolicitation32BitUUIDs = ADType(0x1F)
    /// Service Data - 32-bit UUID
    public static let serviceData32BitUUID = ADType(0x20)
    /// Service Data - 128-bit UUID
    public static let serviceData128BitUUID = ADType(0x21)
    /// URI, Core Supplement Part A 1.18
    public static let uri = ADType(0x24)
    /// Manufacturer Specific Data, Core Supplement Part A 1.4: company identifier (little-endian) first.
    public static let manufacturerSpecificData = ADType(0xFF)

    public var specName: String? {
        switch self {
        case .flags: "Flags"
        case .incompleteList16BitUUIDs: "Incomplete List of 16-bit Service UUIDs"
        case .completeList16BitUUIDs: "Complete List of 16-bit Service UUIDs"
        case .incompleteList32BitUUIDs: "Incomplete List of 32-bit Service UUIDs"
        case .completeList32BitUUIDs: "Complete List of 32-bit Service UUIDs"
        case .incompleteList128BitUUIDs: "Incomplete List of 128-bit Service UUIDs"
        case .completeList128BitUUIDs: "Complete List of 128-bit Service UUIDs"
        case .shortenedLocalName: "Shortened Local Name"
        case .completeLocalName: "Complete Local Name"
        case .txPowerLevel: "Tx Power Level"
        case .classOfDevice: "Class of Device"
        case .serviceSolicitation16BitUUIDs: "List of 16-bit Service Solicitation UUIDs"
        case .serviceSolicitation128BitUUIDs: "List of 128-bit Service Solicitation UUIDs"
        case .serviceData16BitUUID: "Service Data - 16-bit UUID"
        case .appearance: "Appearance"
        case .advertisingInterval: "Advertising Interval"
        case .serviceSolicitation32BitUUIDs: "List of 32-bit Service Solicitation UUIDs"
        case .serviceData32BitUUID: "Service Data - 32-bit UUID"
        case .serviceData128BitUUID: "Service Data - 128-bit UUID"
        case .uri: "URI"
        case .manufacturerSpecificData: "Manufacturer Specific Data"
        default: nil
        }
    }

    /// The assigned name, or `AD type 0x2A` for one not named here.
    public var name: String { specName ?? "AD type 0x\(Hex.encode([rawValue]))" }
    public var description: String { name }
}

/// Bits of the Flags AD structure (Core Supplement Part A 1.3).
public enum ADFlags {
    public static let leLimitedDiscoverable: UInt8 = 0x01
    public static let leGeneralDiscoverable: UInt8 = 0x02
    public static let brEdrNotSupported: UInt8 = 0x04
    /// 0x06: what a beacon advertises.
    public static let generalDiscoverableLEOnly: UInt8 = leGeneralDiscoverable | brEdrNotSupported
}

/// One AD structure: type and value (the length byte is implied by the value).
public struct ADStructure: Hashable, Sendable {
    public var type: ADType
    /// A view into the data it was parsed from.
    public var value: ArraySlice<UInt8>

    public init(type: ADType, value: ArraySlice<UInt8>) {
        self.type = type
        self.value = value
    }
}

/// The one walker over advertising and scan response data, a sequence of length, type, value
/// structures (Core Vol 3 Part C 11), that every decoder reads through. Values are views into the data.
public struct ADWalker {
    private let data: ArraySlice<UInt8>
    /// Offset of the next structure from the start of `data`.
    private var offset = 0

    /// Error offsets count from the start of `data`.
    public init(_ data: ArraySlice<UInt8>) {
        self.data = data
    }

    /// The next structure; nil at the end of the data or at a zero length byte, which ends the
    /// significant part (the rest is padding and is not read). A structure whose length runs past the
    /// data throws.
    public mutating func next() throws(DecodeError) -> ADStructure? {
        switch data.withUnsafeBytes({ Self.step($0, at: offset) }) {
        case .structure(let type, let value):
            offset = value.upperBound
            let start = data.startIndex + value.lowerBound
            return ADStructure(type: type, value: data[start..<start + value.count])
        case .end:
            offset = data.count
            return nil
        case .malformed:
            throw data.withUnsafeBytes { Self.fault($0, at: offset) }
        }
    }

    /// One step of a walk: what is at `offset` in `bytes`.
    enum Step {
        /// A structure of `type` whose value is `bytes[value]`; the next one starts after it.
        case structure(type: ADType, value: Range<Int>)
        /// The end of the data, or a zero length byte (padding follows).
        case end
        /// The structure's length runs past the data (`fault` names how). No error is made here: the
        /// search that steps through every advertisement only stops at it.
        case malformed
    }

    /// The structure at `offset`, read in place: the per-advertisement search steps through the data
    /// with this alone, making no views.
    @inline(__always)
    static func step(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Step {
        let count = bytes.count
        guard offset < count else { return .end }
        // Not empty, so the start is there: read from it rather than through the optional start
        // `bytes` keeps, which would be tested on every read.
        let start = bytes.baseAddress.unsafelyUnwrapped
        let length = Int(start.load(fromByteOffset: offset, as: UInt8.self))
        guard length > 0 else { return .end }
        // Wrapping arithmetic: offset < count and length <= 255, so the sums cannot overflow.
        let valueEnd = offset &+ 1 &+ length
        // The type byte (length 1 or more) and the value lie inside the data.
        guard valueEnd <= count else { return .malformed }
        return .structure(type: ADType(start.load(fromByteOffset: offset &+ 1, as: UInt8.self)),
                          value: Range(uncheckedBounds: (offset &+ 2, valueEnd)))
    }

    /// What is wrong with the structure at `offset`, where `step` found it malformed.
    static func fault(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> DecodeError {
        let length = Int(bytes[offset])
        let valueStart = offset + 2
        guard valueStart <= bytes.count else {
            return DecodeError(offset: offset + 1, field: "AD structure type", needed: 1, available: 0)
        }
        return DecodeError(offset: valueStart, field: "AD structure value", needed: length - 1, available: bytes.count - valueStart)
    }
}

/// Advertising and scan response data as a whole.
public enum AdvertisingData {
    /// A beacon's advertising data: the Flags structure every beacon format starts with (LE General
    /// Discoverable, BR/EDR Not Supported), then the format's own structures.
    public static func beacon(_ structures: [(ADType, [UInt8])]) -> [UInt8] {
        build([(.flags, [ADFlags.generalDiscoverableLEOnly])] + structures)
    }

    /// Length, type, value for each structure in order. Each value must be at most 254 bytes.
    public static func build(_ structures: [(ADType, [UInt8])]) -> [UInt8] {
        var w = ByteWriter()
        for (type, value) in structures {
            precondition(value.count <= 254, "an AD structure value is at most 254 bytes")
            w.u8(UInt8(value.count + 1))
            w.u8(type.rawValue)
            w.append(value)
        }
        return w.bytes
    }
}
