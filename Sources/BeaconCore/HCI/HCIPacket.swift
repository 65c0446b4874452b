/// H4 packet indicators (Core Vol 4 Part A 2): the one table every transport frames with.
public enum HCIPacketKind: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case command = 0x01
    case aclData = 0x02
    case scoData = 0x03
    case event = 0x04
    case isoData = 0x05

    /// The kind `indicator` names, nil for none. Written out rather than left to the compiler, which
    /// would call a function for it: every packet read is framed by it.
    @inline(__always)
    public init?(rawValue indicator: UInt8) {
        switch indicator {
        case 0x01: self = .command
        case 0x02: self = .aclData
        case 0x03: self = .scoData
        case 0x04: self = .event
        case 0x05: self = .isoData
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .command: "command"
        case .aclData: "ACL data"
        case .scoData: "SCO data"
        case .event: "event"
        case .isoData: "ISO data"
        }
    }
}

/// Which way a packet travelled.
public enum PacketDirection: Sendable, Hashable {
    /// Host to controller (commands we sent, data we sent).
    case sent
    /// Controller to host (events, data received).
    case received
}

/// One HCI packet with its kind; `payload` starts after the H4 indicator (at the opcode or event code).
public struct HCIPacket: Hashable, Sendable {
    public var kind: HCIPacketKind
    public var payload: ArraySlice<UInt8>

    public init(kind: HCIPacketKind, payload: ArraySlice<UInt8>) {
        self.kind = kind
        self.payload = payload
    }

    public init(kind: HCIPacketKind, payload: [UInt8]) {
        self.init(kind: kind, payload: payload[...])
    }

    /// The packet as H4 bytes: indicator then payload.
    public var h4Bytes: [UInt8] {
        var out: [UInt8] = [kind.rawValue]
        out.append(contentsOf: payload)
        return out
    }
}

/// An HCI packet in place: its kind, and its bytes in the buffer of the reader or framer that cut it
/// out (from the opcode or event code on), valid until that buffer is next filled. Every packet a
/// transport reads passes through the host and the decoders as one of these: no copy and no reference
/// counting per packet. `packet` makes a copy that outlives the buffer.
public struct HCIPacketView {
    public let kind: HCIPacketKind
    public let payload: UnsafeRawBufferPointer

    public init(kind: HCIPacketKind, payload: UnsafeRawBufferPointer) {
        self.kind = kind
        self.payload = payload
    }

    /// The packet's bytes copied out of the buffer.
    public var packet: HCIPacket { HCIPacket(kind: kind, payload: [UInt8](payload)) }
}

extension HCIPacket {
    /// Calls `body` with a view of the packet's bytes in place, valid during the call.
    public func withView<R, E: Error>(_ body: (HCIPacketView) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = payload.withUnsafeBytes { raw in
            Result { () throws(E) -> R in try body(HCIPacketView(kind: kind, payload: raw)) }
        }
        return try result.get()
    }
}
