/// The management events beacon reads (BlueZ doc/mgmt-api.txt): the answers to its commands, the
/// removal of its controller or of its advertising instance by someone else, and while it listens the
/// advertisements found and the end of a discovery.
public enum ManagementEvent: Hashable, Sendable {
    /// Command Complete, 0x0001: Command_Opcode (2), Status (1), Return_Parameters.
    case commandComplete(command: UInt16, status: ManagementStatus, returnParameters: [UInt8])
    /// Command Status, 0x0002: Command_Opcode (2), Status (1).
    case commandStatus(command: UInt16, status: ManagementStatus)
    /// Index Removed, 0x0005.
    case indexRemoved
    /// Advertising Removed, 0x0024: Instance (1).
    case advertisingRemoved(instance: UInt8)
    /// Device Found (0x0012) or Advertisement Monitor Device Found (0x002F).
    case deviceFound(ManagementDeviceFound)
    /// Discovering, 0x0013: Address_Type (1), Discovering (1).
    case discovering(Bool)
    /// Any other event, kept as it came.
    case other(code: UInt16, parameters: [UInt8])

    public static func decode(_ packet: ManagementPacket) throws(DecodeError) -> ManagementEvent {
        try ByteReader.read(packet.parameters) { reader throws(DecodeError) in
            switch packet.code {
            case 0x0001:
                let command = try reader.u16("Command_Opcode")
                let status = ManagementStatus(rawValue: try reader.u8("Status"))
                return .commandComplete(command: command, status: status, returnParameters: Array(try reader.bytes(reader.remaining, "Return_Parameters")))
            case 0x0002:
                let command = try reader.u16("Command_Opcode")
                return .commandStatus(command: command, status: ManagementStatus(rawValue: try reader.u8("Status")))
            case 0x0005:
                return .indexRemoved
            case 0x0024:
                return .advertisingRemoved(instance: try reader.u8("Instance"))
            case ManagementDeviceFound.deviceFoundCode, ManagementDeviceFound.monitorDeviceFoundCode:
                return .deviceFound(try ManagementDeviceFound(code: packet.code, parameters: packet.parameters))
            case 0x0013:
                _ = try reader.u8("Address_Type")
                return .discovering(try reader.u8("Discovering") != 0)
            default:
                return .other(code: packet.code, parameters: packet.parameters)
            }
        }
    }
}
