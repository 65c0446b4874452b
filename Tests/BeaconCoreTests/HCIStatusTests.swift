import Testing
@testable import BeaconCore

@Suite struct HCIStatusTests {
    @Test func everyByteRoundTrips() {
        for raw in UInt8.min...UInt8.max {
            #expect(HCIStatus(raw: raw).raw == raw)
        }
    }

    @Test func namesCarryTheCode() {
        #expect(HCIStatus(raw: 0x00) == .success)
        #expect(HCIStatus(raw: 0x0C) == .commandDisallowed)
        #expect(HCIStatus.commandDisallowed.name == "Command Disallowed (0x0C)")
        #expect(HCIStatus(raw: 0x01).name == "Unknown HCI Command (0x01)")
        #expect(HCIStatus(raw: 0x12).name == "Invalid HCI Command Parameters (0x12)")
        #expect(HCIStatus(raw: 0x42).name == "Unknown Advertising Identifier (0x42)")
        #expect(HCIStatus(raw: 0x45).name == "Packet Too Long (0x45)")
    }

    @Test func everyAssignedCodeUpTo0x45IsNamed() {
        let reserved: Set<UInt8> = [0x2B, 0x31, 0x33, 0x3F]
        for raw in UInt8(0x00)...UInt8(0x45) where !reserved.contains(raw) {
            #expect(HCIStatus(raw: raw).specName != nil, "0x\(Hex.encode([raw]))")
        }
        let names = (UInt8(0x00)...UInt8(0x45)).compactMap { HCIStatus(raw: $0).specName }
        #expect(Set(names).count == names.count)
    }

    @Test func reservedAndFutureCodesAreUnknownValues() {
        #expect(HCIStatus(raw: 0x2B) == .unknown(0x2B))
        #expect(HCIStatus(raw: 0x2B).name == "Unknown status (0x2B)")
        #expect(HCIStatus(raw: 0xF0) == .unknown(0xF0))
        #expect(!HCIStatus(raw: 0xF0).isSuccess)
        #expect(HCIStatus.success.isSuccess)
    }
}
