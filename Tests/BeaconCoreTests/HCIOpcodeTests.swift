import Testing
@testable import BeaconCore

@Suite struct HCIOpcodeTests {
    /// Opcode values from Core Vol 4 Part E 7.3, 7.4 and 7.8: (constant, OGF, OCF, spec name).
    static let table: [(HCIOpcode, UInt8, UInt16, String)] = [
        (.setEventMask, 0x03, 0x0001, "HCI_Set_Event_Mask"),
        (.reset, 0x03, 0x0003, "HCI_Reset"),
        (.readLocalVersionInformation, 0x04, 0x0001, "HCI_Read_Local_Version_Information"),
        (.readLocalSupportedCommands, 0x04, 0x0002, "HCI_Read_Local_Supported_Commands"),
        (.readLocalSupportedFeatures, 0x04, 0x0003, "HCI_Read_Local_Supported_Features"),
        (.readBDAddr, 0x04, 0x0009, "HCI_Read_BD_ADDR"),
        (.leSetEventMask, 0x08, 0x0001, "HCI_LE_Set_Event_Mask"),
        (.leReadBufferSize, 0x08, 0x0002, "HCI_LE_Read_Buffer_Size"),
        (.leReadLocalSupportedFeatures, 0x08, 0x0003, "HCI_LE_Read_Local_Supported_Features"),
        (.leSetRandomAddress, 0x08, 0x0005, "HCI_LE_Set_Random_Address"),
        (.leSetAdvertisingParameters, 0x08, 0x0006, "HCI_LE_Set_Advertising_Parameters"),
        (.leReadAdvertisingPhysicalChannelTxPower, 0x08, 0x0007, "HCI_LE_Read_Advertising_Physical_Channel_Tx_Power"),
        (.leSetAdvertisingData, 0x08, 0x0008, "HCI_LE_Set_Advertising_Data"),
        (.leSetScanResponseData, 0x08, 0x0009, "HCI_LE_Set_Scan_Response_Data"),
        (.leSetAdvertisingEnable, 0x08, 0x000A, "HCI_LE_Set_Advertising_Enable"),
        (.leSetScanParameters, 0x08, 0x000B, "HCI_LE_Set_Scan_Parameters"),
        (.leSetScanEnable, 0x08, 0x000C, "HCI_LE_Set_Scan_Enable"),
        (.leReadSupportedStates, 0x08, 0x001C, "HCI_LE_Read_Supported_States"),
        (.leSetAdvertisingSetRandomAddress, 0x08, 0x0035, "HCI_LE_Set_Advertising_Set_Random_Address"),
        (.leSetExtendedAdvertisingParameters, 0x08, 0x0036, "HCI_LE_Set_Extended_Advertising_Parameters"),
        (.leSetExtendedAdvertisingData, 0x08, 0x0037, "HCI_LE_Set_Extended_Advertising_Data"),
        (.leSetExtendedScanResponseData, 0x08, 0x0038, "HCI_LE_Set_Extended_Scan_Response_Data"),
        (.leSetExtendedAdvertisingEnable, 0x08, 0x0039, "HCI_LE_Set_Extended_Advertising_Enable"),
        (.leReadMaximumAdvertisingDataLength, 0x08, 0x003A, "HCI_LE_Read_Maximum_Advertising_Data_Length"),
        (.leRemoveAdvertisingSet, 0x08, 0x003C, "HCI_LE_Remove_Advertising_Set"),
        (.leClearAdvertisingSets, 0x08, 0x003D, "HCI_LE_Clear_Advertising_Sets"),
        (.leSetExtendedScanParameters, 0x08, 0x0041, "HCI_LE_Set_Extended_Scan_Parameters"),
        (.leSetExtendedScanEnable, 0x08, 0x0042, "HCI_LE_Set_Extended_Scan_Enable"),
    ]

    @Test func constantsMatchTheSpec() {
        for (opcode, ogf, ocf, name) in Self.table {
            #expect(opcode.ogf == ogf, "\(name)")
            #expect(opcode.ocf == ocf, "\(name)")
            #expect(opcode.rawValue == UInt16(ogf) << 10 | ocf, "\(name)")
            #expect(opcode.name == name)
            #expect(opcode.description == name)
        }
        #expect(Self.table.count + 1 == HCIOpcode.known.count)
        #expect(Set(HCIOpcode.known.map(\.rawValue)).count == HCIOpcode.known.count)
    }

    @Test func packsOGFAndOCF() {
        #expect(HCIOpcode(ogf: 0x08, ocf: 0x000C).rawValue == 0x200C)
        #expect(HCIOpcode(ogf: 0x03, ocf: 0x0003).rawValue == 0x0C03)
        #expect(HCIOpcode(ogf: 0x3F, ocf: 0x03FF).rawValue == 0xFFFF)
        #expect(HCIOpcode(rawValue: 0xFC01).ogf == 0x3F)
        #expect(HCIOpcode(rawValue: 0xFC01).ocf == 0x0001)
    }

    @Test func nopIsZero() {
        #expect(HCIOpcode.nop.rawValue == 0x0000)
        #expect(HCIOpcode.nop.name == "HCI_NOP")
    }

    @Test func unknownOpcodesAreNamedByValue() {
        #expect(HCIOpcode(rawValue: 0xFC01).name == "opcode 0xFC01 (OGF 0x3F, OCF 0x0001)")
        #expect(HCIOpcode(rawValue: 0x200D).name == "opcode 0x200D (OGF 0x08, OCF 0x000D)")
        #expect(HCIOpcode(ogf: 0x08, ocf: 0x0123).name == "opcode 0x2123 (OGF 0x08, OCF 0x0123)")
    }
}
