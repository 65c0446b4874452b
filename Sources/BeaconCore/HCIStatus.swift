/// A Controller error code as carried in Command Complete, Command Status and other events
/// (Core Vol 1 Part F 1.3, 2). Reserved and future codes decode to `unknown` and keep their value.
public enum HCIStatus: Hashable, Sendable, CustomStringConvertible {
    /// 0x00 Success
    case success
    /// 0x01 Unknown HCI Command
    case unknownCommand
    /// 0x02 Unknown Connection Identifier
    case unknownConnectionIdentifier
    /// 0x03 Hardware Failure
    case hardwareFailure
    /// 0x04 Page Timeout
    case pageTimeout
    /// 0x05 Authentication Failure
    case authenticationFailure
    /// 0x06 PIN or Key Missing
    case pinOrKeyMissing
    /// 0x07 Memory Capacity Exceeded
    case memoryCapacityExceeded
    /// 0x08 Connection Timeout
    case connectionTimeout
    /// 0x09 Connection Limit Exceeded
    case connectionLimitExceeded
    /// 0x0A Synchronous Connection Limit To A Device Exceeded
    case synchronousConnectionLimitExceeded
    /// 0x0B Connection Already Exists
    case connectionAlreadyExists
    /// 0x0C Command Disallowed
    case commandDisallowed
    /// 0x0D Connection Rejected due to Limited Resources
    case connectionRejectedLimitedResources
    /// 0x0E Connection Rejected Due To Security Reasons
    case connectionRejectedSecurityReasons
    /// 0x0F Connection Rejected due to Unacceptable BD_ADDR
    case connectionRejectedUnacceptableAddress
    /// 0x10 Connection Accept Timeout Exceeded
    case connectionAcceptTimeoutExceeded
    /// 0x11 Unsupported Feature or Parameter Value
    case unsupportedFeatureOrParameterValue
    /// 0x12 Invalid HCI Command Parameters
    case invalidCommandParameters
    /// 0x13 Remote User Terminated Connection
    case remoteUserTerminatedConnection
    /// 0x14 Remote Device Terminated Connection due to Low Resources
    case remoteDeviceTerminatedLowResources
    /// 0x15 Remote Device Terminated Connection due to Power Off
    case remoteDeviceTerminatedPowerOff
    /// 0x16 Connection Terminated By Local Host
    case connectionTerminatedByLocalHost
    /// 0x17 Repeated Attempts
    case repeatedAttempts
    /// 0x18 Pairing Not Allowed
    case pairingNotAllowed
    /// 0x19 Unknown LMP PDU
    case unknownLMPPDU
    /// 0x1A Unsupported Remote Feature
    case unsupportedRemoteFeature
    /// 0x1B SCO Offset Rejected
    case scoOffsetRejected
    /// 0x1C SCO Interval Rejected
    case scoIntervalRejected
    /// 0x1D SCO Air Mode Rejected
    case scoAirModeRejected
    /// 0x1E Invalid LMP Parameters / Invalid LL Parameters
    case invalidLMPOrLLParameters
    /// 0x1F Unspecified Error
    case unspecifiedError
    /// 0x20 Unsupported LMP Parameter Value / Unsupported LL Parameter Value
    case unsupportedLMPOrLLParameterValue
    /// 0x21 Role Change Not Allowed
    case roleChangeNotAllowed
    /// 0x22 LMP Response Timeout / LL Response Timeout
    case lmpOrLLResponseTimeout
    /// 0x23 LMP Error Transaction Collision / LL Procedure Collision
    case lmpTransactionOrLLProcedureCollision
    /// 0x24 LMP PDU Not Allowed
    case lmpPDUNotAllowed
    /// 0x25 Encryption Mode Not Acceptable
    case encryptionModeNotAcceptable
    /// 0x26 Link Key cannot be Changed
    case linkKeyCannotBeChanged
    /// 0x27 Requested QoS Not Supported
    case requestedQoSNotSupported
    /// 0x28 Instant Passed
    case instantPassed
    /// 0x29 Pairing With Unit Key Not Supported
    case pairingWithUnitKeyNotSupported
    /// 0x2A Different Transaction Collision
    case differentTransactionCollision
    /// 0x2C QoS Unacceptable Parameter
    case qosUnacceptableParameter
    /// 0x2D QoS Rejected
    case qosRejected
    /// 0x2E Channel Classification Not Supported
    case channelClassificationNotSupported
    /// 0x2F Insufficient Security
    case insufficientSecurity
    /// 0x30 Parameter Out Of Mandatory Range
    case parameterOutOfMandatoryRange
    /// 0x32 Role Switch Pending
    case roleSwitchPending
    /// 0x34 Reserved Slot Violation
    case reservedSlotViolation
    /// 0x35 Role Switch Failed
    case roleSwitchFailed
    /// 0x36 Extended Inquiry Response Too Large
    case extendedInquiryResponseTooLarge
    /// 0x37 Secure Simple Pairing Not Supported By Host
    case secureSimplePairingNotSupportedByHost
    /// 0x38 Host Busy - Pairing
    case hostBusyPairing
    /// 0x39 Connection Rejected due to No Suitable Channel Found
    case connectionRejectedNoSuitableChannel
    /// 0x3A Controller Busy
    case controllerBusy
    /// 0x3B Unacceptable Connection Parameters
    case unacceptableConnectionParameters
    /// 0x3C Advertising Timeout
    case advertisingTimeout
    /// 0x3D Connection Terminated due to MIC Failure
    case connectionTerminatedMICFailure
    /// 0x3E Connection Failed to be Established / Synchronization Timeout
    case connectionFailedToBeEstablished
    /// 0x40 Coarse Clock Adjustment Rejected but Will Try to Adjust Using Clock Dragging
    case coarseClockAdjustmentRejected
    /// 0x41 Type0 Submap Not Defined
    case type0SubmapNotDefined
    /// 0x42 Unknown Advertising Identifier
    case unknownAdvertisingIdentifier
    /// 0x43 Limit Reached
    case limitReached
    /// 0x44 Operation Cancelled by Host
    case operationCancelledByHost
    /// 0x45 Packet Too Long
    case packetTooLong
    /// 0x46 Too Late
    case tooLate
    /// 0x47 Too Early
    case tooEarly
    /// A code not listed above (reserved or newer than this table).
    case unknown(UInt8)

    public init(raw: UInt8) {
        switch raw {
        case 0x00: self = .success
        case 0x01: self = .unknownCommand
        case 0x02: self = .unknownConnectionIdentifier
        case 0x03: self = .hardwareFailure
        case 0x04: self = .pageTimeout
        case 0x05: self = .authenticationFailure
        case 0x06: self = .pinOrKeyMissing
        case 0x07: self = .memoryCapacityExceeded
        case 0x08: self = .connectionTimeout
        case 0x09: self = .connectionLimitExceeded
        case 0x0A: self = .synchronousConnectionLimitExceeded
        case 0x0B: self = .connectionAlreadyExists
        case 0x0C: self = .commandDisallowed
        case 0x0D: self = .connectionRejectedLimitedResources
        case 0x0E: self = .connectionRejectedSecurityReasons
        case 0x0F: self = .connectionRejectedUnacceptableAddress
        case 0x10: self = .connectionAcceptTimeoutExceeded
        case 0x11: self = .unsupportedFeatureOrParameterValue
        case 0x12: self = .invalidCommandParameters
        case 0x13: self = .remoteUserTerminatedConnection
        case 0x14: self = .remoteDeviceTerminatedLowResources
        case 0x15: self = .remoteDeviceTerminatedPowerOff
        case 0x16: self = .connectionTerminatedByLocalHost
        case 0x17: self = .repeatedAttempts
        case 0x18: self = .pairingNotAllowed
        case 0x19: self = .unknownLMPPDU
        case 0x1A: self = .unsupportedRemoteFeature
        case 0x1B: self = .scoOffsetRejected
        case 0x1C: self = .scoIntervalRejected
        case 0x1D: self = .scoAirModeRejected
        case 0x1E: self = .invalidLMPOrLLParameters
        case 0x1F: self = .unspecifiedError
        case 0x20: self = .unsupportedLMPOrLLParameterValue
        case 0x21: self = .roleChangeNotAllowed
        case 0x22: self = .lmpOrLLResponseTimeout
        case 0x23: self = .lmpTransactionOrLLProcedureCollision
        case 0x24: self = .lmpPDUNotAllowed
        case 0x25: self = .encryptionModeNotAcceptable
        case 0x26: self = .linkKeyCannotBeChanged
        case 0x27: self = .requestedQoSNotSupported
        case 0x28: self = .instantPassed
        case 0x29: self = .pairingWithUnitKeyNotSupported
        case 0x2A: self = .differentTransactionCollision
        case 0x2C: self = .qosUnacceptableParameter
        case 0x2D: self = .qosRejected
        case 0x2E: self = .channelClassificationNotSupported
        case 0x2F: self = .insufficientSecurity
        case 0x30: self = .parameterOutOfMandatoryRange
        case 0x32: self = .roleSwitchPending
        case 0x34: self = .reservedSlotViolation
        case 0x35: self = .roleSwitchFailed
        case 0x36: self = .extendedInquiryResponseTooLarge
        case 0x37: self = .secureSimplePairingNotSupportedByHost
        case 0x38: self = .hostBusyPairing
        case 0x39: self = .connectionRejectedNoSuitableChannel
        case 0x3A: self = .controllerBusy
        case 0x3B: self = .unacceptableConnectionParameters
        case 0x3C: self = .advertisingTimeout
        case 0x3D: self = .connectionTerminatedMICFailure
        case 0x3E: self = .connectionFailedToBeEstablished
        case 0x40: self = .coarseClockAdjustmentRejected
        case 0x41: self = .type0SubmapNotDefined
        case 0x42: self = .unknownAdvertisingIdentifier
        case 0x43: self = .limitReached
        case 0x44: self = .operationCancelledByHost
        case 0x45: self = .packetTooLong
        case 0x46: self = .tooLate
        case 0x47: self = .tooEarly
        default: self = .unknown(raw)
        }
    }

    public var raw: UInt8 {
        switch self {
        case .success: 0x00
        case .unknownCommand: 0x01
        case .unknownConnectionIdentifier: 0x02
        case .hardwareFailure: 0x03
        case .pageTimeout: 0x04
        case .authenticationFailure: 0x05
        case .pinOrKeyMissing: 0x06
        case .memoryCapacityExceeded: 0x07
        case .connectionTimeout: 0x08
        case .connectionLimitExceeded: 0x09
        case .synchronousConnectionLimitExceeded: 0x0A
        case .connectionAlreadyExists: 0x0B
        case .commandDisallowed: 0x0C
        case .connectionRejectedLimitedResources: 0x0D
        case .connectionRejectedSecurityReasons: 0x0E
        case .connectionRejectedUnacceptableAddress: 0x0F
        case .connectionAcceptTimeoutExceeded: 0x10
        case .unsupportedFeatureOrParameterValue: 0x11
        case .invalidCommandParameters: 0x12
        case .remoteUserTerminatedConnection: 0x13
        case .remoteDeviceTerminatedLowResources: 0x14
        case .remoteDeviceTerminatedPowerOff: 0x15
        case .connectionTerminatedByLocalHost: 0x16
        case .repeatedAttempts: 0x17
        case .pairingNotAllowed: 0x18
        case .unknownLMPPDU: 0x19
        case .unsupportedRemoteFeature: 0x1A
        case .scoOffsetRejected: 0x1B
        case .scoIntervalRejected: 0x1C
        case .scoAirModeRejected: 0x1D
        case .invalidLMPOrLLParameters: 0x1E
        case .unspecifiedError: 0x1F
        case .unsupportedLMPOrLLParameterValue: 0x20
        case .roleChangeNotAllowed: 0x21
        case .lmpOrLLResponseTimeout: 0x22
        case .lmpTransactionOrLLProcedureCollision: 0x23
        case .lmpPDUNotAllowed: 0x24
        case .encryptionModeNotAcceptable: 0x25
        case .linkKeyCannotBeChanged: 0x26
        case .requestedQoSNotSupported: 0x27
        case .instantPassed: 0x28
        case .pairingWithUnitKeyNotSupported: 0x29
        case .differentTransactionCollision: 0x2A
        case .qosUnacceptableParameter: 0x2C
        case .qosRejected: 0x2D
        case .channelClassificationNotSupported: 0x2E
        case .insufficientSecurity: 0x2F
        case .parameterOutOfMandatoryRange: 0x30
        case .roleSwitchPending: 0x32
        case .reservedSlotViolation: 0x34
        case .roleSwitchFailed: 0x35
        case .extendedInquiryResponseTooLarge: 0x36
        case .secureSimplePairingNotSupportedByHost: 0x37
        case .hostBusyPairing: 0x38
        case .connectionRejectedNoSuitableChannel: 0x39
        case .controllerBusy: 0x3A
        case .unacceptableConnectionParameters: 0x3B
        case .advertisingTimeout: 0x3C
        case .connectionTerminatedMICFailure: 0x3D
        case .connectionFailedToBeEstablished: 0x3E
        case .coarseClockAdjustmentRejected: 0x40
        case .type0SubmapNotDefined: 0x41
        case .unknownAdvertisingIdentifier: 0x42
        case .limitReached: 0x43
        case .operationCancelledByHost: 0x44
        case .packetTooLong: 0x45
        case .tooLate: 0x46
        case .tooEarly: 0x47
        case .unknown(let raw): raw
        }
    }

    /// The spec's name without the code, nil for an unknown code.
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
        case .unknown: nil
        }
    }

    /// `Command Disallowed (0x0C)`; an unknown code reads `Unknown status (0x2B)`.
    public var name: String {
        "\(specName ?? "Unknown status") (0x\(Hex.encode([raw])))"
    }

    public var description: String { name }

    public var isSuccess: Bool { self == .success }
}
