/// Listening through the kernel's management interface (mgmt-api.txt): the advertisement patterns of
/// an advertisement monitor, the monitor features, and the Device Found reports, turned into the LE
/// Advertising Report events the raw channel would have carried so that one decoder reads both.

/// One pattern of Add Advertisement Patterns Monitor: an AD structure of type `adType` whose data at
/// `offset` starts with `value`. A monitor's patterns are alternatives (the kernel's OR patterns).
public struct ManagementAdvertisementPattern: Hashable, Sendable {
    public var adType: UInt8
    public var offset: UInt8
    public var value: [UInt8]

    /// The Value field's size; `offset` plus the value's length may not exceed it.
    public static let valueSize = 31

    public init(adType: UInt8, offset: UInt8, value: [UInt8]) {
        self.adType = adType
        self.offset = offset
        self.value = Array(value.prefix(Self.valueSize - min(Int(offset), Self.valueSize)))
    }

    /// iBeacon: manufacturer-specific data of Apple (4C 00) with type 02, length 15.
    public static let iBeacon = ManagementAdvertisementPattern(adType: 0xFF, offset: 0, value: [0x4C, 0x00, 0x02, 0x15])
    /// AltBeacon: manufacturer-specific data of any company, then the beacon code BE AC.
    public static let altBeacon = ManagementAdvertisementPattern(adType: 0xFF, offset: 2, value: [0xBE, 0xAC])
    /// Eddystone, every frame: 16-bit service data of UUID 0xFEAA.
    public static let eddystone = ManagementAdvertisementPattern(adType: 0x16, offset: 0, value: [0xAA, 0xFE])

    /// The patterns for advertisements of `formats`; every format's when the set is empty.
    public static func patterns(for formats: Set<BeaconFormat>) -> [ManagementAdvertisementPattern] {
        let wanted = formats.isEmpty ? Set(BeaconFormat.allCases) : formats
        var patterns: [ManagementAdvertisementPattern] = []
        if wanted.contains(.iBeacon) { patterns.append(.iBeacon) }
        if wanted.contains(.altBeacon) { patterns.append(.altBeacon) }
        if !wanted.isDisjoint(with: [.eddystoneUID, .eddystoneURL, .eddystoneTLM, .eddystoneEID]) { patterns.append(.eddystone) }
        return patterns
    }
}

/// Read Advertisement Monitor Features: Supported_Features (4), Enabled_Features (4), Max_Num_Handles
/// (2), Max_Num_Patterns (1), Num_Handles (2), Handle[i] (2 each).
public struct ManagementAdvertisementMonitorFeatures: Hashable, Sendable {
    public var maxHandles: UInt16
    public var maxPatterns: UInt8
    /// The monitors registered now (bluetoothd's and any other program's).
    public var handles: [UInt16]

    public init(maxHandles: UInt16, maxPatterns: UInt8, handles: [UInt16]) {
        self.maxHandles = maxHandles
        self.maxPatterns = maxPatterns
        self.handles = handles
    }

    public init(_ bytes: [UInt8]) throws(DecodeError) {
        (maxHandles, maxPatterns, handles) = try ByteReader.read(bytes) { reader throws(DecodeError) in
            try reader.skip(8, "Supported_Features, Enabled_Features")
            let maxHandles = try reader.u16("Max_Num_Handles")
            let maxPatterns = try reader.u8("Max_Num_Patterns")
            let count = try reader.u16("Num_Handles")
            try reader.require(Int(count) * 2, "Handle")
            var handles: [UInt16] = []
            for _ in 0..<count { handles.append(try reader.u16("Handle")) }
            return (maxHandles, maxPatterns, handles)
        }
    }
}

/// Add Advertisement Patterns Monitor's and Remove Advertisement Monitor's return: Monitor_Handle (2).
public struct ManagementMonitorHandle: Hashable, Sendable {
    public var handle: UInt16

    public init(_ bytes: [UInt8]) throws(DecodeError) {
        handle = try ByteReader.read(bytes) { reader throws(DecodeError) in try reader.u16("Monitor_Handle") }
    }
}

/// One advertisement the kernel reported: Device Found (0x0012: Address (6), Address_Type, RSSI,
/// Flags (4), EIR_Data_Length (2), EIR_Data) or Advertisement Monitor Device Found (0x002F: the same
/// after a Monitor_Handle (2)).
public struct ManagementDeviceFound: Hashable, Sendable {
    /// The monitor that matched, for Advertisement Monitor Device Found (0: none in particular).
    public var monitorHandle: UInt16?
    /// The address, least significant byte first (as on the air and in HCI).
    public var address: UInt64
    /// 0 BR/EDR, 1 LE Public, 2 LE Random.
    public var addressType: UInt8
    public var rssi: Int8
    public var flags: UInt32
    /// The advertising data (with a scan response's after it, when the kernel merged them).
    public var data: [UInt8]

    public static let deviceFoundCode: UInt16 = 0x0012
    public static let monitorDeviceFoundCode: UInt16 = 0x002F

    /// Flags bit 2: the advertisement is not connectable.
    public static let notConnectable: UInt32 = 1 << 2
    /// Flags bit 5: the data is a scan response.
    public static let scanResponse: UInt32 = 1 << 5

    public init(monitorHandle: UInt16?, address: UInt64, addressType: UInt8, rssi: Int8, flags: UInt32, data: [UInt8]) {
        self.monitorHandle = monitorHandle
        self.address = address
        self.addressType = addressType
        self.rssi = rssi
        self.flags = flags
        self.data = data
    }

    /// Whether this is the kernel's second copy of `previous`, the event just before it: with a discovery running
    /// beside a monitor, the kernel reports a device's first matching advertisement both as Device Found and as
    /// Advertisement Monitor Device Found (net/bluetooth/mgmt.c), and a copy is not a second reading.
    public func repeats(_ previous: ManagementDeviceFound) -> Bool {
        (monitorHandle == nil) != (previous.monitorHandle == nil) && address == previous.address
            && addressType == previous.addressType && rssi == previous.rssi && flags == previous.flags && data == previous.data
    }

    /// Decodes the parameters of either event (`code` says which); the data length must match what follows exactly.
    public init(code: UInt16, parameters: [UInt8]) throws(DecodeError) {
        let monitor = code == Self.monitorDeviceFoundCode
        let name = monitor ? "Advertisement Monitor Device Found" : "Device Found"
        self = try ByteReader.read(parameters) { reader throws(DecodeError) in
            let handle = monitor ? try reader.u16("\(name) Monitor_Handle") : nil
            let address = try reader.u48("\(name) Address")
            let addressType = try reader.u8("\(name) Address_Type")
            let rssi = try reader.i8("\(name) RSSI")
            let flags = try reader.u32("\(name) Flags")
            let length = try reader.u16("\(name) data length")
            let data = Array(try reader.bytes(Int(length), "\(name) data"))
            guard reader.isAtEnd else {
                throw reader.invalid(name, "\(reader.remaining.counted("byte")) after the \(length.counted("byte")) of data it declares")
            }
            return ManagementDeviceFound(monitorHandle: handle, address: address, addressType: addressType, rssi: rssi,
                                         flags: flags, data: data)
        }
    }

    /// The most advertising data one LE Advertising Report event can carry (255 parameter bytes less
    /// the subevent, Num_Reports, the fixed fields and the RSSI).
    public static let maxReportData = 243

    /// The LE Advertising Report event (from its event code on) the controller sent for this
    /// advertisement, for the decoder the raw channel's reports go through; nil for a BR/EDR device.
    /// Data beyond what one report carries is cut after the last AD structure that fits.
    public var advertisingReportEvent: [UInt8]? {
        let hciAddressType: UInt8
        switch addressType {
        case 1: hciAddressType = 0x00
        case 2: hciAddressType = 0x01
        default: return nil
        }
        let eventType: UInt8 = flags & Self.scanResponse != 0 ? 0x04 : flags & Self.notConnectable != 0 ? 0x03 : 0x00
        let carried = data.count <= Self.maxReportData ? data[...] : Self.wholeStructures(data, within: Self.maxReportData)
        var writer = ByteWriter(capacity: 14 + carried.count)
        writer.u8(HCIEventCode.leMeta.rawValue)
        writer.u8(UInt8(12 + carried.count))
        writer.u8(LESubeventCode.advertisingReport.rawValue)
        writer.u8(1)
        writer.u8(eventType)
        writer.u8(hciAddressType)
        for shift in stride(from: 0, to: 48, by: 8) { writer.u8(UInt8(truncatingIfNeeded: address >> UInt64(shift))) }
        writer.u8(UInt8(carried.count))
        writer.append(carried)
        writer.i8(rssi)
        return writer.bytes
    }

    /// The AD structures of `data` that lie wholly within its first `limit` bytes.
    static func wholeStructures(_ data: [UInt8], within limit: Int) -> ArraySlice<UInt8> {
        var end = 0
        while end < data.count {
            let next = end + 1 + Int(data[end])
            guard next <= limit else { break }
            end = next
        }
        return data[..<min(end, limit)]
    }

    /// An LE Advertising Report event with no reports: where listening began, for the listening
    /// session's anchor (its `--duration` runs from there), since no scan-enable command is exchanged.
    public static let listeningStartedEvent: [UInt8] = [HCIEventCode.leMeta.rawValue, 2, LESubeventCode.advertisingReport.rawValue, 0]
}
