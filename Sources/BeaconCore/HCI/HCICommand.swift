/// An HCI command packet: opcode and parameters (Core Vol 4 Part E 5.4.1). All fields little-endian.
public struct HCICommand: Hashable, Sendable {
    public var opcode: HCIOpcode
    public var parameters: [UInt8]

    public init(opcode: HCIOpcode, parameters: [UInt8] = []) {
        self.opcode = opcode
        self.parameters = parameters
    }

    /// Opcode, parameter length, parameters: the payload after the H4 indicator.
    /// Parameters longer than 255 bytes cannot be sent; the constructors here never build them.
    public var payload: [UInt8] {
        var w = ByteWriter(capacity: 3 + parameters.count)
        w.u16(opcode.rawValue)
        w.u8(UInt8(truncatingIfNeeded: parameters.count))
        w.append(parameters)
        return w.bytes
    }

    public var packet: HCIPacket { HCIPacket(kind: .command, payload: payload) }

    /// Decodes a command payload (opcode, length, parameters). Fewer parameter bytes than declared
    /// throws; bytes after the declared parameters are not part of the command and are left out.
    public static func decode(_ payload: ArraySlice<UInt8>) throws(DecodeError) -> HCICommand {
        var r = ByteReader(payload)
        let opcode = HCIOpcode(rawValue: try r.u16("HCI command opcode"))
        let length = Int(try r.u8("HCI command parameter length"))
        let parameters = try r.bytes(length, "\(opcode.name) parameters")
        return HCICommand(opcode: opcode, parameters: Array(parameters))
    }

    private static func build(_ opcode: HCIOpcode, _ write: (inout ByteWriter) -> Void) -> HCICommand {
        var w = ByteWriter()
        write(&w)
        return HCICommand(opcode: opcode, parameters: w.bytes)
    }

    // MARK: Controller setup

    /// HCI_Reset, Core Vol 4 Part E 7.3.2.
    public static var reset: HCICommand { HCICommand(opcode: .reset) }

    /// HCI_Set_Event_Mask, Core Vol 4 Part E 7.3.1: which events the controller may send.
    public static func setEventMask(_ mask: UInt64) -> HCICommand {
        build(.setEventMask) { $0.u64(mask) }
    }

    /// HCI_LE_Set_Event_Mask, Core Vol 4 Part E 7.8.1: which LE Meta subevents the controller may send.
    public static func leSetEventMask(_ mask: UInt64) -> HCICommand {
        build(.leSetEventMask) { $0.u64(mask) }
    }

    /// HCI_Read_Local_Supported_Commands, Core Vol 4 Part E 7.4.2.
    public static var readLocalSupportedCommands: HCICommand { HCICommand(opcode: .readLocalSupportedCommands) }

    /// HCI_LE_Read_Local_Supported_Features, Core Vol 4 Part E 7.8.3.
    public static var leReadLocalSupportedFeatures: HCICommand { HCICommand(opcode: .leReadLocalSupportedFeatures) }

    /// HCI_Read_Local_Version_Information, Core Vol 4 Part E 7.4.1.
    public static var readLocalVersionInformation: HCICommand { HCICommand(opcode: .readLocalVersionInformation) }

    // MARK: Legacy scanning

    /// HCI_LE_Set_Scan_Parameters, Core Vol 4 Part E 7.8.10. Interval and window in units of 0.625 ms.
    public static func leSetScanParameters(active: Bool, interval: UInt16, window: UInt16,
                                           ownAddressType: UInt8, filterPolicy: UInt8) -> HCICommand {
        build(.leSetScanParameters) { w in
            w.u8(active ? 0x01 : 0x00)
            w.u16(interval)
            w.u16(window)
            w.u8(ownAddressType)
            w.u8(filterPolicy)
        }
    }

    /// HCI_LE_Set_Scan_Enable, Core Vol 4 Part E 7.8.11.
    public static func leSetScanEnable(_ enable: Bool, filterDuplicates: Bool) -> HCICommand {
        build(.leSetScanEnable) { w in
            w.u8(enable ? 0x01 : 0x00)
            w.u8(filterDuplicates ? 0x01 : 0x00)
        }
    }

    // MARK: Extended scanning

    /// HCI_LE_Set_Extended_Scan_Parameters, Core Vol 4 Part E 7.8.64: Scanning_PHYs, then for each PHY
    /// in it, in bit order, the scan type, interval and window (the same for every PHY), block after
    /// block as controllers and the Linux host lay it out.
    public static func leSetExtendedScanParameters(ownAddressType: UInt8, filterPolicy: UInt8, phys: ScanningPHYs = .le1M,
                                                   active: Bool, interval: UInt16, window: UInt16) -> HCICommand {
        build(.leSetExtendedScanParameters) { w in
            w.u8(ownAddressType)
            w.u8(filterPolicy)
            w.u8(phys.rawValue)
            for _ in phys.phys {
                w.u8(active ? 0x01 : 0x00)
                w.u16(interval)
                w.u16(window)
            }
        }
    }

    /// HCI_LE_Set_Extended_Scan_Enable, Core Vol 4 Part E 7.8.65. Duration in 10 ms units and period in
    /// 1.28 s units; 0 scans until disabled.
    public static func leSetExtendedScanEnable(_ enable: Bool, filterDuplicates: Bool,
                                               duration: UInt16 = 0, period: UInt16 = 0) -> HCICommand {
        build(.leSetExtendedScanEnable) { w in
            w.u8(enable ? 0x01 : 0x00)
            w.u8(filterDuplicates ? 0x01 : 0x00)
            w.u16(duration)
            w.u16(period)
        }
    }

    // MARK: Legacy advertising

    /// HCI_LE_Set_Advertising_Parameters, Core Vol 4 Part E 7.8.5. Intervals in units of 0.625 ms;
    /// the peer address (used only for directed advertising) is sent as public 00:00:00:00:00:00.
    public static func leSetAdvertisingParameters(intervalMin: UInt16, intervalMax: UInt16, type: LegacyAdvertisingType,
                                                  ownAddressType: UInt8, channelMap: UInt8 = 0x07,
                                                  filterPolicy: UInt8 = 0x00) -> HCICommand {
        build(.leSetAdvertisingParameters) { w in
            w.u16(intervalMin)
            w.u16(intervalMax)
            w.u8(type.rawValue)
            w.u8(ownAddressType)
            w.u8(0x00) // Peer_Address_Type
            DeviceAddress(value: 0).write(to: &w) // Peer_Address
            w.u8(channelMap)
            w.u8(filterPolicy)
        }
    }

    /// Most data one legacy advertising PDU carries (Core Vol 4 Part E 7.8.7).
    public static let legacyAdvertisingDataCapacity = 31

    /// HCI_LE_Set_Advertising_Data, Core Vol 4 Part E 7.8.7: the significant length, then the data
    /// padded with zeros to 31 bytes. `data` must be at most 31 bytes.
    public static func leSetAdvertisingData(_ data: [UInt8]) -> HCICommand {
        precondition(data.count <= legacyAdvertisingDataCapacity, "legacy advertising data is at most 31 bytes")
        return build(.leSetAdvertisingData) { w in
            w.u8(UInt8(data.count))
            w.append(data)
            w.append(repeatElement(0, count: legacyAdvertisingDataCapacity - data.count))
        }
    }

    /// HCI_LE_Set_Advertising_Enable, Core Vol 4 Part E 7.8.9.
    public static func leSetAdvertisingEnable(_ enable: Bool) -> HCICommand {
        build(.leSetAdvertisingEnable) { $0.u8(enable ? 0x01 : 0x00) }
    }

    /// HCI_LE_Read_Advertising_Physical_Channel_Tx_Power, Core Vol 4 Part E 7.8.6.
    public static var leReadAdvertisingPhysicalChannelTxPower: HCICommand {
        HCICommand(opcode: .leReadAdvertisingPhysicalChannelTxPower)
    }

    /// HCI_LE_Read_Supported_States, Core Vol 4 Part E 7.8.27.
    public static var leReadSupportedStates: HCICommand {
        HCICommand(opcode: .leReadSupportedStates)
    }

    // MARK: Extended advertising

    /// HCI_LE_Set_Extended_Advertising_Parameters (v1), Core Vol 4 Part E 7.8.53. Intervals are 24-bit,
    /// in units of 0.625 ms; `properties` combines `ExtendedAdvertisingProperties`; `txPower` 127 means
    /// no preference. The peer address (directed advertising only) is sent as public 00:00:00:00:00:00.
    public static func leSetExtendedAdvertisingParameters(
        handle: UInt8, properties: UInt16, intervalMin: UInt32, intervalMax: UInt32,
        channelMap: UInt8 = 0x07, ownAddressType: UInt8, filterPolicy: UInt8 = 0x00, txPower: Int8 = 127,
        primaryPHY: UInt8 = 0x01, secondaryMaxSkip: UInt8 = 0x00, secondaryPHY: UInt8 = 0x01, sid: UInt8 = 0x00,
        scanRequestNotification: Bool = false
    ) -> HCICommand {
        build(.leSetExtendedAdvertisingParameters) { w in
            w.u8(handle)
            w.u16(properties)
            w.u24(intervalMin)
            w.u24(intervalMax)
            w.u8(channelMap)
            w.u8(ownAddressType)
            w.u8(0x00) // Peer_Address_Type
            DeviceAddress(value: 0).write(to: &w) // Peer_Address
            w.u8(filterPolicy)
            w.i8(txPower)
            w.u8(primaryPHY)
            w.u8(secondaryMaxSkip)
            w.u8(secondaryPHY)
            w.u8(sid)
            w.u8(scanRequestNotification ? 0x01 : 0x00)
        }
    }

    /// Most data one HCI_LE_Set_Extended_Advertising_Data command carries (255-byte parameters minus 4).
    public static let extendedAdvertisingDataFragmentCapacity = 251

    /// HCI_LE_Set_Extended_Advertising_Data, Core Vol 4 Part E 7.8.54. Operation 0x03 is "complete data";
    /// fragment preference 0x01 asks the controller not to fragment. `data` must be at most 251 bytes.
    public static func leSetExtendedAdvertisingData(handle: UInt8, operation: UInt8 = 0x03,
                                                    fragmentPreference: UInt8 = 0x01, data: [UInt8]) -> HCICommand {
        precondition(data.count <= extendedAdvertisingDataFragmentCapacity,
                     "one extended advertising data command carries at most 251 bytes")
        return build(.leSetExtendedAdvertisingData) { w in
            w.u8(handle)
            w.u8(operation)
            w.u8(fragmentPreference)
            w.u8(UInt8(data.count))
            w.append(data)
        }
    }

    /// HCI_LE_Set_Extended_Advertising_Enable, Core Vol 4 Part E 7.8.56. Each set is written as
    /// handle, duration (10 ms units, 0 = until disabled), max events (0 = no limit), set after set,
    /// as controllers and the Linux host lay it out. Disabling with no sets disables all of them.
    public static func leSetExtendedAdvertisingEnable(_ enable: Bool,
                                                      sets: [(handle: UInt8, duration: UInt16, maxEvents: UInt8)]) -> HCICommand {
        build(.leSetExtendedAdvertisingEnable) { w in
            w.u8(enable ? 0x01 : 0x00)
            w.u8(UInt8(truncatingIfNeeded: sets.count))
            for set in sets {
                w.u8(set.handle)
                w.u16(set.duration)
                w.u8(set.maxEvents)
            }
        }
    }

    /// HCI_LE_Remove_Advertising_Set, Core Vol 4 Part E 7.8.59.
    public static func leRemoveAdvertisingSet(handle: UInt8) -> HCICommand {
        build(.leRemoveAdvertisingSet) { $0.u8(handle) }
    }
}

/// Advertising_Type of HCI_LE_Set_Advertising_Parameters (Core Vol 4 Part E 7.8.5).
public enum LegacyAdvertisingType: UInt8, Sendable, CaseIterable {
    /// ADV_IND: connectable and scannable undirected.
    case connectableUndirected = 0x00
    /// ADV_DIRECT_IND, high duty cycle.
    case connectableDirectedHighDuty = 0x01
    /// ADV_SCAN_IND: scannable undirected.
    case scannableUndirected = 0x02
    /// ADV_NONCONN_IND: non-connectable undirected, the usual iBeacon PDU.
    case nonConnectableUndirected = 0x03
    /// ADV_DIRECT_IND, low duty cycle.
    case connectableDirectedLowDuty = 0x04
}

/// Advertising_Event_Properties bits of HCI_LE_Set_Extended_Advertising_Parameters
/// (Core Vol 4 Part E 7.8.53) and the combinations allowed with legacy PDUs.
public enum ExtendedAdvertisingProperties {
    public static let connectable: UInt16 = 0x0001
    public static let scannable: UInt16 = 0x0002
    public static let directed: UInt16 = 0x0004
    public static let highDutyCycleDirected: UInt16 = 0x0008
    /// Use legacy advertising PDUs, so any scanner (also legacy-only ones) hears the set.
    public static let legacy: UInt16 = 0x0010
    public static let anonymous: UInt16 = 0x0020
    public static let includeTxPower: UInt16 = 0x0040

    /// Legacy ADV_NONCONN_IND (Core Vol 4 Part E 7.8.53, table of legacy PDU properties): 0x0010.
    public static let legacyNonConnectable: UInt16 = legacy
    /// Legacy ADV_IND (connectable and scannable undirected): 0x0013.
    public static let legacyConnectable: UInt16 = legacy | scannable | connectable
}
