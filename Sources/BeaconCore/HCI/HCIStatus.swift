/// A Controller error code as carried in Command Complete, Command Status and other events
/// (Core Vol 1 Part F 1.3, 2). A value like `HCIOpcode`: reserved and future codes are values too,
/// so the same byte is always the same status.
public struct HCIStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00 Success
    public static let success = HCIStatus(rawValue: 0x00)
    /// 0x01 Unknown HCI Command
    public static let unknownCommand = HCIStatus(rawValue: 0x01)
    /// 0x02 Unknown Connection Identifier
    public static let unknownConnectionIdentifier = HCIStatus(rawValue: 0x02)
    /// 0x03 Hardware Failure
    public static let hardwareFailure = HCIStatus(rawValue: 0x03)
    /// 0x04 Page Timeout
    public static let pageTimeout = HCIStatus(rawValue: 0x04)
    /// 0x05 Authentication Failure
    public static let authenticationFailure = HCIStatus(rawValue: 0x05)
    /// 0x06 PIN or Key Missing
    public static let pinOrKeyMissing = HCIStatus(rawValue: 0x06)
    /// 0x07 Memory Capacity Exceeded
    public static let memoryCapacityExceeded = HCIStatus(rawValue: 0x07)
    /// 0x08 Connection Timeout
    public static let connectionTimeout = HCIStatus(rawValue: 0x08)
    /// 0x09 Connection Limit Exceeded
    public static let connectionLimitExceeded = HCIStatus(rawValue: 0x09)
    /// 0x0A Synchronous Connection Limit To A Device Exceeded
    public static let synchronousConnectionLimitExceeded = HCIStatus(rawValue: 0x0A)
    /// 0x0B Connection Already Exists
    public static let connectionAlreadyExists = HCIStatus(rawValue: 0x0B)
    /// 0x0C Command Disallowed
    public static let commandDisallowed = HCIStatus(rawValue: 0x0C)
    /// 0x0D Connection Rejected due to Limited Resources
    public static let connectionRejectedLimitedResources = HCIStatus(rawValue: 0x0D)
    /// 0x0E Connection Rejected Due To Security Reasons
    public static let connectionRejectedSecurityReasons = HCIStatus(rawValue: 0x0E)
    /// 0x0F Connection Rejected due to Unacceptable BD_ADDR
    public static let connectionRejectedUnacceptableAddress = HCIStatus(rawValue: 0x0F)
    /// 0x10 Connection Accept Timeout Exceeded
    public static let connectionAcceptTimeoutExceeded = HCIStatus(rawValue: 0x10)
    /// 0x11 Unsupported Feature or Parameter Value
    public static let unsupportedFeatureOrParameterValue = HCIStatus(rawValue: 0x11)
    /// 0x12 Invalid HCI Command Parameters
    public static let invalidCommandParameters = HCIStatus(rawValue: 0x12)
    /// 0x13 Remote User Terminated Connection
    public static let remoteUserTerminatedConnection = HCIStatus(rawValue: 0x13)
    /// 0x14 Remote Device Terminated Connection due to Low Resources
    public static let remoteDeviceTerminatedLowResources = HCIStatus(rawValue: 0x14)
    /// 0x15 Remote Device Terminated Connection due to Power Off
    public static let remoteDeviceTerminatedPowerOff = HCIStatus(rawValue: 0x15)
    /// 0x16 Connection Terminated By Local Host
    public static let connectionTerminatedByLocalHost = HCIStatus(rawValue: 0x16)
    /// 0x17 Repeated Attempts
    public static let repeatedAttempts = HCIStatus(rawValue: 0x17)
    /// 0x18 Pairing Not Allowed
    public static let pairingNotAllowed = HCIStatus(rawValue: 0x18)
    /// 0x19 Unknown LMP PDU
    public static let unknownLMPPDU = HCIStatus(rawValue: 0x19)
    /// 0x1A Unsupported Remote Feature
    public static let unsupportedRemoteFeature = HCIStatus(rawValue: 0x1A)
    /// 0x1B SCO Offset Rejected
    public static let scoOffsetRejected = HCIStatus(rawValue: 0x1B)
    /// 0x1C SCO Interval Rejected
    public static let scoIntervalRejected = HCIStatus(rawValue: 0x1C)
    /// 0x1D SCO Air Mode Rejected
    public static let scoAirModeRejected = HCIStatus(rawValue: 0x1D)
    /// 0x1E Invalid LMP Parameters / Invalid LL Parameters
    public static let invalidLMPOrLLParameters = HCIStatus(rawValue: 0x1E)
    /// 0x1F Unspecified Error
    public static let unspecifiedError = HCIStatus(rawValue: 0x1F)
    /// 0x20 Unsupported LMP Parameter Value / Unsupported LL Parameter Value
    public static let unsupportedLMPOrLLParameterValue = HCIStatus(rawValue: 0x20)
    /// 0x21 Role Change Not Allowed
    public static let roleChangeNotAllowed = HCIStatus(rawValue: 0x21)
    /// 0x22 LMP Response Timeout / LL Response Timeout
    public static let lmpOrLLResponseTimeout = HCIStatus(rawValue: 0x22)
    /// 0x23 LMP Error Transaction Collision / LL Procedure Collision
    public static let lmpTransactionOrLLProcedureCollision = HCIStatus(rawValue: 0x23)
    /// 0x24 LMP PDU Not Allowed
    public static let lmpPDUNotAllowed = HCIStatus(rawValue: 0x24)
    /// 0x25 Encryption Mode Not Acceptable
    public static let encryptionModeNotAcceptable = HCIStatus(rawValue: 0x25)
    /// 0x26 Link Key cannot be Changed
    public static let linkKeyCannotBeChanged = HCIStatus(rawValue: 0x26)
    /// 0x27 Requested QoS Not Supported
    public static let requestedQoSNotSupported = HCIStatus(rawValue: 0x27)
    /// 0x28 Instant Passed
    public static let instantPassed = HCIStatus(rawValue: 0x28)
    /// 0x29 Pairing With Unit Key Not Supported
    public static let pairingWithUnitKeyNotSupported = HCIStatus(rawValue: 0x29)
    /// 0x2A Different Transaction Collision
    public static let differentTransactionCollision = HCIStatus(rawValue: 0x2A)
    /// 0x2C QoS Unacceptable Parameter
    public static let qosUnacceptableParameter = HCIStatus(rawValue: 0x2C)
    /// 0x2D QoS Rejected
    public static let qosRejected = HCIStatus(rawValue: 0x2D)
    /// 0x2E Channel Classification Not Supported
    public static let channelClassificationNotSupported = HCIStatus(rawValue: 0x2E)
    /// 0x2F Insufficient Security
    public static let insufficientSecurity = HCIStatus(rawValue: 0x2F)
    /// 0x30 Parameter Out Of Mandatory Range
    public static let parameterOutOfMandatoryRange = HCIStatus(rawValue: 0x30)
    /// 0x32 Role Switch Pending
    public static let roleSwitchPending = HCIStatus(rawValue: 0x32)
    /// 0x34 Reserved Slot Violation
    public static let reservedSlotViolation = HCIStatus(rawValue: 0x34)
    /// 0x35 Role Switch Failed
    public static let roleSwitchFailed = HCIStatus(rawValue: 0x35)
    /// 0x36 Extended Inquiry Response Too Large
    public static let extendedInquiryResponseTooLarge = HCIStatus(rawValue: 0x36)
    /// 0x37 Secure Simple Pairing Not Supported By Host
    public static let secureSimplePairingNotSupportedByHost = HCIStatus(rawValue: 0x37)
    /// 0x38 Host Busy - Pairing
    public static let hostBusyPairing = HCIStatus(rawValue: 0x38)
    /// 0x39 Connection Rejected due to No Suitable Channel Found
    public static let connectionRejectedNoSuitableChannel = HCIStatus(rawValue: 0x39)
    /// 0x3A Controller Busy
    public static let controllerBusy = HCIStatus(rawValue: 0x3A)
    /// 0x3B Unacceptable Connection Parameters
    public static let unacceptableConnectionParameters = HCIStatus(rawValue: 0x3B)
    /// 0x3C Advertising Timeout
    public static let advertisingTimeout = HCIStatus(rawValue: 0x3C)
    /// 0x3D Connection Terminated due to MIC Failure
    public static let connectionTerminatedMICFailure = HCIStatus(rawValue: 0x3D)
    /// 0x3E Connection Failed to be Established / Synchronization Timeout
    public static let connectionFailedToBeEstablished = HCIStatus(rawValue: 0x3E)
    /// 0x40 Coarse Clock Adjustment Rejected but Will Try to Adjust Using Clock Dragging
    public static let coarseClockAdjustmentRejected = HCIStatus(rawValue: 0x40)
    /// 0x41 Type0 Submap Not Defined
    public static let type0SubmapNotDefined = HCIStatus(rawValue: 0x41)
    /// 0x42 Unknown Advertising Identifier
    public static let unknownAdvertisingIdentifier = HCIStatus(rawValue: 0x42)
    /// 0x43 Limit Reached
    public static let limitReached = HCIStatus(rawValue: 0x43)
    /// 0x44 Operation Cancelled by Host
    public static let operationCancelledByHost = HCIStatus(rawValue: 0x44)
    /// 0x45 Packet Too Long
    public static let packetTooLong = HCIStatus(rawValue: 0x45)
    /// 0x46 Too Late
    public static let tooLate = HCIStatus(rawValue: 0x46)
    /// 0x47 Too Early
    public static let tooEarly = HCIStatus(rawValue: 0x47)

    /// The spec's name without the code, nil for a reserved or unknown code.
    public var specName: String? {
        switch self {
        case .success: "Success"
        case .unknownCommand: "Unknown HCI Command"
        case .unknownConnectionIdentifier: "Unknown Connection Identifier"
        case .hardwareFailure: "Hardware Failure"
        case .pageTimeout: "Page Timeout"
        case .authenticationFailure: "Authentication Failure"
        case .pinOrKeyMissing: "PIN or Key Missing"
        case .memoryCapacityExceeded: "Memory Capacity Exceeded"
        case .connectionTimeout: "Connection Timeout"
        case .connectionLimitExceeded: "Connection Limit Exceeded"
        case .synchronousConnectionLimitExceeded: "Synchronous Connection Limit To A Device Exceeded"
        case .connectionAlreadyExists: "Connection Already Exists"
        case .commandDisallowed: "Command Disallowed"
        case .connectionRejectedLimitedResources: "Connection Rejected due to Limited Resources"
        case .connectionRejectedSecurityReasons: "Connection Rejected Due To Security Reasons"
        case .connectionRejectedUnacceptableAddress: "Connection Rejected due to Unacceptable BD_ADDR"
        case .connectionAcceptTimeoutExceeded: "Connection Accept Timeout Exceeded"
        case .unsupportedFeatureOrParameterValue: "Unsupported Feature or Parameter Value"
        case .invalidCommandParameters: "Invalid HCI Command Parameters"
        case .remoteUserTerminatedConnection: "Remote User Terminated Connection"
        case .remoteDeviceTerminatedLowResources: "Remote Device Terminated Connection due to Low Resources"
        case .remoteDeviceTerminatedPowerOff: "Remote Device Terminated Connection due to Power Off"
        case .connectionTerminatedByLocalHost: "Connection Terminated By Local Host"
        case .repeatedAttempts: "Repeated Attempts"
        case .pairingNotAllowed: "Pairing Not Allowed"
        case .unknownLMPPDU: "Unknown LMP PDU"
        case .unsupportedRemoteFeature: "Unsupported Remote Feature"
        case .scoOffsetRejected: "SCO Offset Rejected"
        case .scoIntervalRejected: "SCO Interval Rejected"
        case .scoAirModeRejected: "SCO Air Mode Rejected"
        case .invalidLMPOrLLParameters: "Invalid LMP Parameters / Invalid LL Parameters"
        case .unspecifiedError: "Unspecified Error"
        case .unsupportedLMPOrLLParameterValue: "Unsupported LMP Parameter Value / Unsupported LL Parameter Value"
        case .roleChangeNotAllowed: "Role Change Not Allowed"
        case .lmpOrLLResponseTimeout: "LMP Response Timeout / LL Response Timeout"
        case .lmpTransactionOrLLProcedureCollision: "LMP Error Transaction Collision / LL Procedure Collision"
        case .lmpPDUNotAllowed: "LMP PDU Not Allowed"
        case .encryptionModeNotAcceptable: "Encryption Mode Not Acceptable"
        case .linkKeyCannotBeChanged: "Link Key cannot be Changed"
        case .requestedQoSNotSupported: "Requested QoS Not Supported"
        case .instantPassed: "Instant Passed"
        case .pairingWithUnitKeyNotSupported: "Pairing With Unit Key Not Supported"
        case .differentTransactionCollision: "Different Transaction Collision"
        case .qosUnacceptableParameter: "QoS Unacceptable Parameter"
        case .qosRejected: "QoS Rejected"
        case .channelClassificationNotSupported: "Channel Classification Not Supported"
        case .insufficientSecurity: "Insufficient Security"
        case .parameterOutOfMandatoryRange: "Parameter Out Of Mandatory Range"
        case .roleSwitchPending: "Role Switch Pending"
        case .reservedSlotViolation: "Reserved Slot Violation"
        case .roleSwitchFailed: "Role Switch Failed"
        case .extendedInquiryResponseTooLarge: "Extended Inquiry Response Too Large"
        case .secureSimplePairingNotSupportedByHost: "Secure Simple Pairing Not Supported By Host"
        case .hostBusyPairing: "Host Busy - Pairing"
        case .connectionRejectedNoSuitableChannel: "Connection Rejected due to No Suitable Channel Found"
        case .controllerBusy: "Controller Busy"
        case .unacceptableConnectionParameters: "Unacceptable Connection Parameters"
        case .advertisingTimeout: "Advertising Timeout"
        case .connectionTerminatedMICFailure: "Connection Terminated due to MIC Failure"
        case .connectionFailedToBeEstablished: "Connection Failed to be Established / Synchronization Timeout"
        case .coarseClockAdjustmentRejected: "Coarse Clock Adjustment Rejected but Will Try to Adjust Using Clock Dragging"
        case .type0SubmapNotDefined: "Type0 Submap Not Defined"
        case .unknownAdvertisingIdentifier: "Unknown Advertising Identifier"
        case .limitReached: "Limit Reached"
        case .operationCancelledByHost: "Operation Cancelled by Host"
        case .packetTooLong: "Packet Too Long"
        case .tooLate: "Too Late"
        case .tooEarly: "Too Early"
        default: nil
        }
    }

    /// `Command Disallowed (0x0C)`; an unknown code reads `Unknown status (0x2B)`.
    public var name: String {
        "\(specName ?? "Unknown status") (0x\(Hex.encode([rawValue])))"
    }

    public var description: String { name }

    public var isSuccess: Bool { self == .success }
}
