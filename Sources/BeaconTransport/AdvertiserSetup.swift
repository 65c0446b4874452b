import BeaconCore

/// Advertising on a controller: only ever changed while disabled (disable, parameters, data, enable).
public enum AdvertiserSetup {
    /// The advertising set every extended command addresses.
    static let handle: UInt8 = 0

    /// Reads the HCI version (Read Local Version Information) for the Bluetooth 4.x interval floor.
    public static func hciVersion(_ host: HCIHost) throws(HostError) -> UInt8 {
        let parameters = try host.execute(.readLocalVersionInformation).returnParameters()
        guard let version = parameters.first else {
            throw .command(CommandError(opcode: .readLocalVersionInformation, kind: .malformed("no HCI version in the answer")))
        }
        return version
    }

    public static func start(_ host: HCIHost, _ plan: AdvertisingPlan, using commands: LECommandSet) throws(HostError) -> AdvertisingStarted {
        try stop(host, using: commands, interruptible: true, removeSet: false)
        switch commands {
        case .extended:
            let answer = try host.execute(.leSetExtendedAdvertisingParameters(
                handle: handle, properties: plan.extendedProperties,
                intervalMin: plan.intervalSlots, intervalMax: plan.intervalSlots,
                channelMap: 0x07, ownAddressType: 0, filterPolicy: 0, txPower: plan.txPower ?? 0x7F,
                primaryPHY: plan.phy.raw, secondaryMaxSkip: 0, secondaryPHY: plan.phy.raw, sid: 0, scanRequestNotification: false))
                .returnParameters()
            try host.execute(.leSetExtendedAdvertisingData(handle: handle, operation: 0x03, fragmentPreference: 0x01,
                                                           data: plan.advertisingData))
            let time = try host.execute(.leSetExtendedAdvertisingEnable(true, sets: [(handle: handle, duration: 0, maxEvents: 0)])).time
            return AdvertisingStarted(commands: .extended, txPower: answer.first.map { Int8(bitPattern: $0) }, time: time)
        case .legacy:
            try host.execute(.leSetAdvertisingParameters(
                intervalMin: UInt16(plan.intervalSlots), intervalMax: UInt16(plan.intervalSlots), type: plan.legacyType,
                ownAddressType: 0, channelMap: 0x07, filterPolicy: 0))
            let power = try host.execute(.leReadAdvertisingPhysicalChannelTxPower).returnParameters()
            try host.execute(.leSetAdvertisingData(plan.advertisingData))
            let time = try host.execute(.leSetAdvertisingEnable(true)).time
            return AdvertisingStarted(commands: .legacy, txPower: power.first.map { Int8(bitPattern: $0) }, time: time)
        }
    }

    /// Turns advertising off and returns when the controller confirmed it; Command Disallowed or an
    /// unknown advertising set means it was already off. With `removeSet` the extended advertising set
    /// is removed as well, leaving the controller as found.
    @discardableResult
    public static func stop(_ host: HCIHost, using commands: LECommandSet, interruptible: Bool = false,
                            removeSet: Bool = true) throws(HostError) -> Timestamp {
        switch commands {
        case .extended:
            let disable = HCICommand.leSetExtendedAdvertisingEnable(false, sets: [(handle: handle, duration: 0, maxEvents: 0)])
            let time = try executeUnlessAlreadyOff(host, disable, interruptible: interruptible)
            if removeSet {
                try executeUnlessAlreadyOff(host, .leRemoveAdvertisingSet(handle: handle), interruptible: interruptible)
            }
            return time
        case .legacy:
            return try executeUnlessAlreadyOff(host, .leSetAdvertisingEnable(false), interruptible: interruptible)
        }
    }

    /// The (schedule) time of the answer, also when the answer is that advertising was already off.
    @discardableResult
    private static func executeUnlessAlreadyOff(_ host: HCIHost, _ command: HCICommand, interruptible: Bool) throws(HostError) -> Timestamp {
        do {
            return try host.execute(command, interruptible: interruptible).time
        } catch .command(let error) where error.isCommandDisallowed || error.isUnknownAdvertisingSet {
            return host.now()
        }
    }
}

extension CommandError {
    /// Unknown Advertising Identifier (0x42): the set does not exist, so it is not advertising.
    var isUnknownAdvertisingSet: Bool {
        if case .status(.unknownAdvertisingIdentifier) = kind { return true }
        return false
    }
}
