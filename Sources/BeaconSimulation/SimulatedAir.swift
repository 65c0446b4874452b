import BeaconCore

/// A beacon in a simulated scene.
public struct SimulatedBeacon: Sendable {
    public var beacon: IBeacon
    public var address: DeviceAddress
    public init(beacon: IBeacon, address: DeviceAddress) {
        self.beacon = beacon
        self.address = address
    }
}

/// Builds the HCI events a scanning controller sends, for benchmarks, soak runs and tests.
public enum SimulatedAir {
    /// LE Extended Advertising Report (Core Vol 4 Part E 7.7.65.13) carrying one legacy ADV_NONCONN_IND.
    public static func extendedReport(_ beacon: SimulatedBeacon, rssi: Int8) -> HCIPacket {
        report(data: beacon.beacon.advertisingData, address: beacon.address, rssi: rssi, extended: true)
    }

    /// An advertisement that is not an iBeacon (a device name), as a busy street has many.
    public static func otherAdvertisement(address: DeviceAddress, rssi: Int8) -> HCIPacket {
        let data = AdvertisingData.build([(.flags, [0x06]), (.completeLocalName, Array("sensor".utf8))])
        return report(data: data, address: address, rssi: rssi, extended: true)
    }

    static func report(data: [UInt8], address: DeviceAddress, rssi: Int8, extended: Bool) -> HCIPacket {
        report(.nonConnectable, data: data, address: address, addressType: .publicDevice, rssi: rssi, extended: extended)
    }

    /// An LE Advertising Report or LE Extended Advertising Report event with one report of `pdu`.
    public static func report(_ pdu: AdvertisingPDU, data: [UInt8], address: DeviceAddress, addressType: AddressType,
                              rssi: Int8, extended: Bool) -> HCIPacket {
        let report = AdvertisingReport(
            eventType: extended ? pdu.extendedEventType : pdu.legacyEventType, isExtended: extended,
            addressType: addressType, address: address, rssi: rssi, data: data[...])
        let meta: LEMetaEvent = extended ? .extendedAdvertisingReport([report]) : .advertisingReport([report])
        return HCIEvent.leMeta(meta).packet
    }

    /// A deterministic beacon population: identity `i` has major i / 65536 … so every index is distinct.
    public static func beacon(_ index: Int, uuid: BeaconUUID, measuredPower: Int8 = -59) -> SimulatedBeacon {
        let identity = IBeaconID(uuid: uuid, major: UInt16(truncatingIfNeeded: index >> 16), minor: UInt16(truncatingIfNeeded: index))
        return SimulatedBeacon(beacon: IBeacon(identity: identity, measuredPower: measuredPower),
                               address: DeviceAddress(value: 0xC0_00_00_00_00_00 | UInt64(index)))
    }
}
