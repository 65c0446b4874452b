import Testing
@testable import BeaconCore

@Suite struct HCIStatusTests {
    @Test func everyByteRoundTripsAndIsOneValue() {
        for raw in UInt8.min...UInt8.max {
            let status = HCIStatus(rawValue: raw)
            #expect(status.rawValue == raw)
            // A status is its byte: however it was made, the same byte compares and hashes equal.
            #expect(Set([status, HCIStatus(rawValue: raw)]).count == 1)
        }
        #expect(HCIStatus(rawValue: 0x0C) == .commandDisallowed)
    }

    @Test func namesCarryTheCode() {
        #expect(HCIStatus(rawValue: 0x00) == .success)
        #expect(HCIStatus.commandDisallowed.name == "Command Disallowed (0x0C)")
        #expect(HCIStatus(rawValue: 0x01).name == "Unknown HCI Command (0x01)")
        #expect(HCIStatus(rawValue: 0x12).name == "Invalid HCI Command Parameters (0x12)")
        #expect(HCIStatus(rawValue: 0x42).name == "Unknown Advertising Identifier (0x42)")
        #expect(HCIStatus(rawValue: 0x45).name == "Packet Too Long (0x45)")
    }

    @Test func everyAssignedCodeUpTo0x45IsNamed() {
        let reserved: Set<UInt8> = [0x2B, 0x31, 0x33, 0x3F]
        for raw in UInt8(0x00)...UInt8(0x45) where !reserved.contains(raw) {
            #expect(HCIStatus(rawValue: raw).specName != nil, "0x\(Hex.encode([raw]))")
        }
        let names = (UInt8(0x00)...UInt8(0x45)).compactMap { HCIStatus(rawValue: $0).specName }
        #expect(Set(names).count == names.count)
    }

    @Test func reservedAndFutureCodesAreNamedByTheirCode() {
        #expect(HCIStatus(rawValue: 0x2B).specName == nil)
        #expect(HCIStatus(rawValue: 0x2B).name == "Unknown status (0x2B)")
        #expect(HCIStatus(rawValue: 0xF0).description == "Unknown status (0xF0)")
        #expect(!HCIStatus(rawValue: 0xF0).isSuccess)
        #expect(HCIStatus.success.isSuccess)
    }
}
