/// The return parameters of the management commands beacon reads, decoded (mgmt-api.txt layouts).

/// Read Management Supported Commands: Num_Of_Commands (2), Num_Of_Events (2), the command codes, the event codes.
public struct ManagementSupportedCommands: Hashable, Sendable {
    public var commands: Set<UInt16>

    public init(commands: Set<UInt16>) { self.commands = commands }

    public init(_ bytes: [UInt8]) throws(DecodeError) {
        commands = try ByteReader.read(bytes) { reader throws(DecodeError) in
            let commandCount = try reader.u16("Num_Of_Commands")
            _ = try reader.u16("Num_Of_Events")
            var commands: Set<UInt16> = []
            for _ in 0..<commandCount { commands.insert(try reader.u16("Command")) }
            return commands
        }
    }

    public func supports(_ command: ManagementCommand) -> Bool { commands.contains(command.code) }

    /// Add Extended Advertising Parameters and Data (kernel 5.11 and later) set the interval.
    public var hasExtendedAdvertising: Bool {
        commands.contains(0x0054) && commands.contains(0x0055)
    }
}

/// Read Controller Information's Current_Settings (the bits beacon needs; the layout's offset 13).
public struct ManagementControllerSettings: Hashable, Sendable {
    public var current: UInt32

    /// Address (6), Bluetooth_Version (1), Manufacturer (2), Supported_Settings (4), then Current_Settings (4).
    public init(_ bytes: [UInt8]) throws(DecodeError) {
        current = try ByteReader.read(bytes) { reader throws(DecodeError) in
            try reader.skip(6 + 1 + 2 + 4, "Address, Bluetooth_Version, Manufacturer, Supported_Settings")
            return try reader.u32("Current_Settings")
        }
    }

    public var isPowered: Bool { current & 1 << 0 != 0 }
    /// Bit 1: the kernel then makes instances without the connectable flag connectable too.
    public var isConnectable: Bool { current & 1 << 1 != 0 }
    public var hasLowEnergy: Bool { current & 1 << 9 != 0 }
}

/// Read Advertising Features: Supported_Flags (4), Max_Adv_Data_Len, Max_Scan_Rsp_Len, Max_Instances,
/// Num_Instances, Instance[i].
public struct ManagementAdvertisingFeatures: Hashable, Sendable {
    public var supportedFlags: ManagementAdvertisingFlags
    public var maxDataLength: UInt8
    public var maxInstances: UInt8
    /// The instances in use (by bluetoothd, another program, or an earlier run that was killed).
    public var instances: [UInt8]

    public init(_ bytes: [UInt8]) throws(DecodeError) {
        (supportedFlags, maxDataLength, maxInstances, instances) = try ByteReader.read(bytes) { reader throws(DecodeError) in
            let flags = ManagementAdvertisingFlags(rawValue: try reader.u32("Supported_Flags"))
            let maxDataLength = try reader.u8("Max_Adv_Data_Len")
            _ = try reader.u8("Max_Scan_Rsp_Len")
            let maxInstances = try reader.u8("Max_Instances")
            let count = try reader.u8("Num_Instances")
            return (flags, maxDataLength, maxInstances, Array(try reader.bytes(Int(count), "Instance")))
        }
    }

    /// The highest free instance: bluetoothd numbers its own from 1 upwards, so the top is the last
    /// to collide. Nil when every instance is taken.
    public var freeInstance: UInt8? {
        guard maxInstances > 0 else { return nil }
        return (1...maxInstances).reversed().first { !instances.contains($0) }
    }
}

/// Add Extended Advertising Parameters' return: Instance, TxPower, MaxAdvDataLen, MaxScanRspLen.
public struct ManagementExtendedAdvertisingAnswer: Hashable, Sendable {
    public var instance: UInt8
    /// The power the controller chose (dBm); 127 when it does not say.
    public var txPower: Int8
    public var maxDataLength: UInt8

    public init(instance: UInt8, txPower: Int8, maxDataLength: UInt8) {
        self.instance = instance
        self.txPower = txPower
        self.maxDataLength = maxDataLength
    }

    public init(_ bytes: [UInt8]) throws(DecodeError) {
        (instance, txPower, maxDataLength) = try ByteReader.read(bytes) { reader throws(DecodeError) in
            let fields = (try reader.u8("Instance"), try reader.i8("TxPower"), try reader.u8("MaxAdvDataLen"))
            _ = try reader.u8("MaxScanRspLen")
            return fields
        }
    }
}
