import BeaconCore

/// Advertising on a controller: only ever changed while disabled (disable, parameters, data, enable).
public enum AdvertiserSetup {
    /// The advertising set every extended command addresses.
    static let handle: UInt8 = 0

    /// Reads the HCI version (Read Local Version Information) for the Bluetooth 4.x interval floor.
    public static func hciVersion(_ host: HCIHost) throws(HostError) -> UInt8 {
        let parameters = try host.query(.readLocalVersionInformation)
        guard let version = parameters.first else {
            throw .command(CommandError(opcode: .readLocalVersionInformation, kind: .malformed("no HCI version in the answer")))
        }
        return version
    }

    public static func start(_ host: HCIHost, _ plan: AdvertisingPlan, using commands: LECommandSet) throws(HostError) -> AdvertisingStarted {
        try stop(host, using: commands, interruptible: true, removeSet: false)
        switch commands {
        case .extended:
            let answer = try host.query(.leSetExtendedAdvertisingParameters(
                handle: handle, properties: plan.extendedProperties,
                intervalMin: plan.intervalSlots, intervalMax: plan.intervalSlots,
                channelMap: 0x07, ownAddressType: 0, filterPolicy: 0, txPower: plan.txPower ?? 0x7F,
                primaryPHY: 0x01, secondaryMaxSkip: 0, secondaryPHY: 0x01, sid: 0, scanRequestNotification: false))
            try host.execute(.leSetExtendedAdvertisingData(handle: handle, operation: 0x03, fragmentPreference: 0x01,
                                                           data: plan.advertisingData))
            let (_, time) = try host.execute(.leSetExtendedAdvertisingEnable(true, sets: [(handle: handle, duration: 0, maxEvents: 0)]))
            return AdvertisingStarted(commands: .extended, txPower: answer.first.map { Int8(bitPattern: $0) }, time: time)
        case .legacy:
            try host.execute(.leSetAdvertisingParameters(
                intervalMin: UInt16(plan.intervalSlots), intervalMax: UInt16(plan.intervalSlots), type: plan.legacyType,
                ownAddressType: 0, channelMap: 0x07, filterPolicy: 0))
            let power = try host.query(.leReadAdvertisingPhysicalChannelTxPower)
            try host.execute(.leSetAdvertisingData(plan.advertisingData))
            let (_, time) = try host.execute(.leSetAdvertisingEnable(true))
            return AdvertisingStarted(commands: .legacy, txPower: power.first.map { Int8(bitPattern: $0) }, time: time)
        }
    }

    /// Turns advertising off; Command Disallowed or an unknown advertising set means it was already off.
    /// With `removeSet` the extended advertising set is removed as well, leaving the controller as found.
    public static func stop(_ host: HCIHost, using commands: LECommandSet, interruptible: Bool = false, removeSet: Bool = true) throws(HostError) {
        switch commands {
        case .extended:
            try ignoringAlreadyOff { () throws(HostError) in
                try host.execute(.leSetExtendedAdvertisingEnable(false, sets: [(handle: handle, duration: 0, maxEvents: 0)]), interruptible: interruptible)
            }
            if removeSet {
                try ignoringAlreadyOff { () throws(HostError) in
                    try host.execute(.leRemoveAdvertisingSet(handle: handle), interruptible: interruptible)
                }
            }
        case .legacy:
            try ignoringAlreadyOff { () throws(HostError) in
                try host.execute(.leSetAdvertisingEnable(false), interruptible: interruptible)
            }
        }
    }

    private static func ignoringAlreadyOff(_ body: () throws(HostError) -> Void) throws(HostError) {
        do {
            try body()
        } catch .command(let error) where error.isCommandDisallowed || error.isUnknownAdvertisingSet {
            return
        }
    }
}

extension CommandError {
    /// Unknown Advertising Identifier (0x42): the set does not exist, so it is not advertising.
    var isUnknownAdvertisingSet: Bool {
        if case .status(let status) = kind, status.raw == 0x42 { return true }
        return false
    }
}
