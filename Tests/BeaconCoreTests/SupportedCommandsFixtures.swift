@testable import BeaconCore

extension SupportedCommands {
    /// A bitmap with exactly the given commands' bits set, as a controller that has only those sends it.
    /// Opcodes without a bit position are ignored.
    init(supporting opcodes: [HCIOpcode]) {
        var octets = [UInt8](repeating: 0, count: Self.octetCount)
        for opcode in opcodes {
            if let (octet, bit) = Self.bit(for: opcode) { octets[octet] |= 1 << bit }
        }
        self = try! SupportedCommands(octets[...])
    }
}
