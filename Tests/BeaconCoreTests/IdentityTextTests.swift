import Foundation
import Testing
@testable import BeaconCore

/// The text forms every output line carries, written in place: each hex digit, leading zeros, separators.
@Suite("address and UUID text")
struct IdentityTextTests {
    @Test("a device address: most significant byte first, upper case, two digits a byte")
    func address() {
        #expect(DeviceAddress(value: 0x0123_4567_89AB).description == "01:23:45:67:89:AB")
        #expect(DeviceAddress(value: 0xCDEF_0000_000F).description == "CD:EF:00:00:00:0F")
        #expect(DeviceAddress(value: 0).description == "00:00:00:00:00:00")
        #expect(DeviceAddress(value: 0xFFFF_FFFF_FFFF).description == "FF:FF:FF:FF:FF:FF")
    }

    @Test("a UUID: 8-4-4-4-12 upper-case digits from both words, and back")
    func uuid() {
        let text = "01234567-89AB-CDEF-0F1E-2D3C4B5A6978"
        #expect(BeaconUUID(high: 0x0123_4567_89AB_CDEF, low: 0x0F1E_2D3C_4B5A_6978).description == text)
        #expect(BeaconUUID(text)?.description == text)
        #expect(BeaconUUID(high: 0, low: 0).description == "00000000-0000-0000-0000-000000000000")
    }

    @Test("every digit of random UUIDs reads as Foundation's own text of the same bytes")
    func uuidAgainstFoundation() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let uuid = BeaconUUID(high: generator.next(), low: generator.next())
            let bytes = uuid.bytes
            let reference = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                                        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
            #expect(uuid.description == reference.uuidString)
        }
        #expect(BeaconUUID(high: .max, low: .max).description == "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")
    }

    @Test("the constant names JSON lines write are the schema's names: proximities and address types")
    func constantNames() {
        for proximity in Proximity.allCases {
            #expect(proximity.name.description == proximity.rawValue)
        }
        #expect(AddressType.publicDevice.knownName?.description == "public")
        #expect(AddressType.publicIdentity.knownName?.description == "public")
        #expect(AddressType.randomDevice.knownName?.description == "random")
        #expect(AddressType.randomIdentity.knownName?.description == "random")
        #expect(AddressType.anonymous.knownName?.description == "anonymous")
        #expect(AddressType.unknown(0x07).knownName == nil)
        #expect(AddressType.unknown(0x07).name == "unknown(0x07)")
    }
}
