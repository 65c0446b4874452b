/// An HCI event (Core Vol 4 Part E 5.4.4, 7.7). Events this package does not act on are kept as
/// `unknown` with their parameters, and every case encodes back to the bytes it was decoded from.
public enum HCIEvent: Hashable, Sendable {
    /// HCI_Command_Complete, Core Vol 4 Part E 7.7.14. `returnParameters` start with the command's
    /// status byte (for every command except NOP).
    case commandComplete(numCommandPackets: UInt8, opcode: HCIOpcode, returnParameters: ArraySlice<UInt8>)
    /// HCI_Command_Status, Core Vol 4 Part E 7.7.15.
    case commandStatus(status: HCIStatus, numCommandPackets: UInt8, opcode: HCIOpcode)
    /// HCI_Hardware_Error, Core Vol 4 Part E 7.7.16.
    case hardwareError(code: UInt8)
    /// HCI_LE_Meta, Core Vol 4 Part E 7.7.65.
    case leMeta(LEMetaEvent)
    case unknown(code: UInt8, parameters: ArraySlice<UInt8>)

    public var code: HCIEventCode {
        switch self {
        case .commandComplete: .commandComplete
        case .commandStatus: .commandStatus
        case .hardwareError: .hardwareError
        case .leMeta: .leMeta
        case .unknown(let code, _): HCIEventCode(rawValue: code)
        }
    }

    /// Splits an event payload (code, length, parameters) into its code and declared parameters.
    /// Fewer bytes than declared throws; bytes after the declared parameters are left out.
    static func split(_ payload: ArraySlice<UInt8>) throws(DecodeError) -> (code: UInt8, parameters: ArraySlice<UInt8>) {
        try ByteReader.read(payload) { r throws(DecodeError) in
            let code = try r.u8("HCI event code")
            let length = Int(try r.u8("HCI event parameter length"))
            return (code, payload.view(try r.span(length, "HCI event parameters")))
        }
    }

    /// Decodes an event payload: event code, parameter length, parameters (no H4 indicator).
    /// Error offsets count from the event code.
    public static func decode(_ payload: ArraySlice<UInt8>) throws(DecodeError) -> HCIEvent {
        let (code, parameters) = try split(payload)
        if HCIEventCode(rawValue: code) == .leMeta {
            return .leMeta(try LEMetaEvent.decode(parameters, baseOffset: 2))
        }
        return try ByteReader.read(parameters, baseOffset: 2) { r throws(DecodeError) in
            let event: HCIEvent
            switch HCIEventCode(rawValue: code) {
            case .commandComplete:
                let num = try r.u8("Command Complete Num_HCI_Command_Packets")
                let opcode = HCIOpcode(rawValue: try r.u16("Command Complete opcode"))
                event = .commandComplete(numCommandPackets: num, opcode: opcode, returnParameters: parameters.view(r.restSpan()))
            case .commandStatus:
                let status = HCIStatus(rawValue: try r.u8("Command Status status"))
                let num = try r.u8("Command Status Num_HCI_Command_Packets")
                let opcode = HCIOpcode(rawValue: try r.u16("Command Status opcode"))
                event = .commandStatus(status: status, numCommandPackets: num, opcode: opcode)
            case .hardwareError:
                event = .hardwareError(code: try r.u8("Hardware Error code"))
            default:
                return .unknown(code: code, parameters: parameters)
            }
            // Fixed-size events: extra parameters would not survive re-encoding, so they are an error.
            guard r.isAtEnd else {
                throw r.invalid(HCIEventCode(rawValue: code).name, "\(r.remaining) unexpected parameter byte(s)")
            }
            return event
        }
    }

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> HCIEvent {
        try decode(payload[...])
    }

    /// The event parameters, without code and length.
    public var parameters: [UInt8] {
        var w = ByteWriter()
        switch self {
        case .commandComplete(let num, let opcode, let returnParameters):
            w.u8(num)
            w.u16(opcode.rawValue)
            w.append(returnParameters)
        case .commandStatus(let status, let num, let opcode):
            w.u8(status.rawValue)
            w.u8(num)
            w.u16(opcode.rawValue)
        case .hardwareError(let code):
            w.u8(code)
        case .leMeta(let meta):
            return meta.parameters
        case .unknown(_, let parameters):
            w.append(parameters)
        }
        return w.bytes
    }

    /// Event code, parameter length, parameters (no H4 indicator).
    public func encode() -> [UInt8] {
        let parameters = parameters
        var w = ByteWriter(capacity: 2 + parameters.count)
        w.u8(code.rawValue)
        w.u8(UInt8(truncatingIfNeeded: parameters.count))
        w.append(parameters)
        return w.bytes
    }

    public var packet: HCIPacket { HCIPacket(kind: .event, payload: encode()) }

    /// Visits every report of an LE Advertising Report or LE Extended Advertising Report event without
    /// building an array: each report's `data` is a view into `payload`. Returns false (and calls
    /// nothing) for any other event. Reports before a malformed one are visited, then the error is thrown.
    @discardableResult
    public static func forEachAdvertisingReport(inEvent payload: ArraySlice<UInt8>,
                                                _ body: (AdvertisingReport) -> Void) throws(DecodeError) -> Bool {
        try ByteReader.read(payload) { r throws(DecodeError) in
            try AdvertisingReportView.walk(inEvent: r.bytes) { body(AdvertisingReport($0, data: payload.view($0.dataSpan))) }
        }
    }
}

/// An LE Meta event's subevent (Core Vol 4 Part E 7.7.65).
public enum LEMetaEvent: Hashable, Sendable {
    /// HCI_LE_Advertising_Report, Core Vol 4 Part E 7.7.65.2.
    case advertisingReport([AdvertisingReport])
    /// HCI_LE_Extended_Advertising_Report, Core Vol 4 Part E 7.7.65.13.
    case extendedAdvertisingReport([AdvertisingReport])
    case unknown(subevent: UInt8, parameters: ArraySlice<UInt8>)

    public var subevent: LESubeventCode {
        switch self {
        case .advertisingReport: .advertisingReport
        case .extendedAdvertisingReport: .extendedAdvertisingReport
        case .unknown(let subevent, _): LESubeventCode(rawValue: subevent)
        }
    }

    /// Decodes the LE Meta event parameters (subevent code first). `baseOffset` is the offset of the
    /// subevent code in the enclosing input, for error reports.
    public static func decode(_ parameters: ArraySlice<UInt8>, baseOffset: Int = 0) throws(DecodeError) -> LEMetaEvent {
        try ByteReader.read(parameters, baseOffset: baseOffset) { r throws(DecodeError) in
            let subevent = try r.u8("LE Meta subevent code")
            let extended: Bool
            switch LESubeventCode(rawValue: subevent) {
            case .advertisingReport: extended = false
            case .extendedAdvertisingReport: extended = true
            default: return .unknown(subevent: subevent, parameters: parameters.view(r.restSpan()))
            }
            var reports: [AdvertisingReport] = []
            try AdvertisingReportView.walk(&r, extended: extended) { reports.append(AdvertisingReport($0, data: parameters.view($0.dataSpan))) }
            return extended ? .extendedAdvertisingReport(reports) : .advertisingReport(reports)
        }
    }

    /// Subevent code and its parameters: the LE Meta event's parameters.
    public var parameters: [UInt8] {
        var w = ByteWriter()
        w.u8(subevent.rawValue)
        switch self {
        case .advertisingReport(let reports), .extendedAdvertisingReport(let reports):
            let extended = subevent == .extendedAdvertisingReport
            w.u8(UInt8(truncatingIfNeeded: reports.count))
            for report in reports { report.write(to: &w, extended: extended) }
        case .unknown(_, let parameters):
            w.append(parameters)
        }
        return w.bytes
    }
}
