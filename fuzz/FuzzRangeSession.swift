import BeaconCore

// Range session fed with packet sequences built from the input: raw events and commands, well-formed
// reports of a few identities (iBeacon, AltBeacon, Eddystone-UID, with Eddystone-TLM frames between),
// iBeacon, AltBeacon and Eddystone-UID regions, scan-enable exchanges, clock advances, and times that jump
// backwards or far ahead, starting anywhere in the 64-bit range. Every output encodes to one JSON line,
// output times never go backwards, nothing comes after --duration, and every malformed packet is counted once.

let uuids = [BeaconUUID(high: 0xE2C5_6DB5_DFFB_48D2, low: 0xB060_D0F5_A710_96E0),
             BeaconUUID(high: 0x0102_0304_0506_0708, low: 0x090A_0B0C_0D0E_0F10)]

let namespace = EddystoneNamespace(high: 0xE2C5, low: 0x6DB5_DFFB_48D2_B060)

/// The advertising data of beacon `who` in `format` (0 iBeacon, 1 AltBeacon, 2 Eddystone-UID, 3 Eddystone-TLM).
func advertisingData(format: UInt8, who: UInt8, power: UInt8) -> [UInt8] {
    let uuid = uuids[Int(who & 1)]
    let id2 = UInt16(who >> 1 & 0x03), id3 = UInt16(who >> 3 & 0x03)
    var w = ByteWriter()
    switch format {
    case 0:
        return IBeacon(identity: IBeaconID(uuid: uuid, major: id2, minor: id3), measuredPower: Int8(bitPattern: power)).advertisingData
    case 1:
        w.u16(0x0118)
        w.u16BigEndian(AltBeacon.beaconCode)
        w.append(uuid.bytes)
        w.u16BigEndian(id2)
        w.u16BigEndian(id3)
        w.u8(power)
        w.u8(0)
        return AdvertisingData.build([(.flags, [0x06]), (.manufacturerSpecificData, w.bytes)])
    case 2:
        w.u16(EddystoneFrame.serviceUUID)
        w.u8(EddystoneFrame.uidFrameType)
        w.u8(power)
        w.append(namespace.bytes)
        w.u16BigEndian(0)
        w.u32BigEndian(UInt32(id3 & 1))
        return AdvertisingData.build([(.flags, [0x06]), (.serviceData16BitUUID, w.bytes)])
    default:
        w.u16(EddystoneFrame.serviceUUID)
        w.u8(EddystoneFrame.tlmFrameType)
        w.u8(0)
        w.u16BigEndian(UInt16(power) * 20)
        w.u16BigEndian(UInt16(power) << 8)
        w.u32BigEndian(UInt32(who))
        w.u32BigEndian(UInt32(power))
        return AdvertisingData.build([(.serviceData16BitUUID, w.bytes)])
    }
}

func outputTime(_ output: MonitorOutput) -> Timestamp {
    switch output {
    case .state(_, _, let time), .enter(_, let time), .exit(_, let time), .range(_, let time, _), .partialRange(_, let time, _): time
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRangeSession(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzCursor(fuzzInput(data, size))
    let setup = input.u8()
    var regions: [BeaconRegion] = []
    for _ in 0..<(Int(setup & 0x03) + 1) {
        let shape = input.u8()
        let uuid = uuids[Int(shape & 1)]
        let major: UInt16? = shape & 0x02 != 0 ? UInt16(shape >> 4 & 0x03) : nil
        let minor: UInt16? = major != nil && shape & 0x04 != 0 ? UInt16(shape >> 6) : nil
        regions.append(BeaconRegion(shape & 0x08 != 0 ? .altBeacon(id1: uuid, id2: major, id3: minor)
                                                       : .iBeacon(uuid: uuid, major: major, minor: minor)))
    }
    if setup & 0x40 != 0 {
        regions.append(BeaconRegion(.eddystoneUID(namespace: namespace, instance: setup & 0x80 != 0 ? EddystoneInstance(value: 1) : nil)))
    }
    let exitAfter = Micros(Int64(input.u8() % 20) * 100_000)
    let interval = Micros(Int64(input.u8() % 20 + 1) * 10_000)
    let duration: Micros? = setup & 0x04 != 0 ? Micros(Int64(input.u16()) * 10_000 + 1) : nil
    // A plausible capture time, any 64-bit value a capture file could hold, or one near either end.
    var now = Timestamp(microseconds: 1_800_000_000_000_000)
    if setup & 0x08 != 0 {
        now = Timestamp(microseconds: Int64(bitPattern: input.u64()))
    } else if setup & 0x10 != 0 {
        let margin = Int64(input.u16()) * 1000
        now = Timestamp(microseconds: setup & 0x20 != 0 ? Int64.min + margin : Int64.max - margin)
    }
    var session = RangeSession(monitor: RegionMonitor(regions: regions, exitAfter: exitAfter, interval: interval,
                                                      hashKey: MultilinearHash(seed: 0)),
                               duration: duration)
    var lastOutputTime: Timestamp?
    var outputs = 0
    var emitted: [MonitorOutput] = []
    let emit: (MonitorOutput) -> Void = { emitted.append($0) }
    /// Checks what the last step emitted (the session cannot be read while it is emitting).
    func checkEmitted() {
        for output in emitted {
            let line = OutputLine.encode(output)
            require(!line.isEmpty && !line.contains("\n"), "output line '\(line)'")
            let time = outputTime(output)
            // Far-off times are clamped by the session, so even they must come out in order.
            if let last = lastOutputTime {
                require(time >= last, "output at \(time.microseconds) after \(last.microseconds)")
            }
            if let end = session.endTime {
                require(time <= end, "output at \(time.microseconds) after the end \(end.microseconds)")
            }
            lastOutputTime = time
            outputs += 1
        }
        emitted.removeAll(keepingCapacity: true)
    }
    var failures = 0
    func feed(_ packet: HCIPacket, _ direction: PacketDirection) {
        do {
            try session.packet(packet, direction: direction, at: now, emit: emit)
        } catch {
            failures += 1
            _ = error.description
        }
        checkEmitted()
    }

    var steps = 0
    while !input.isAtEnd, steps < 512, outputs < 100_000 {
        steps += 1
        let op = input.u8()
        // Milliseconds, signed: times may go backwards.
        now = now + Micros(Int64(Int16(bitPattern: input.u16())) * 1000)
        switch op % 7 {
        case 0:
            feed(HCIPacket(kind: .event, payload: input.bytes(Int(input.u8()))), .received)
        case 1, 2:
            var reports: [AdvertisingReport] = []
            for _ in 0..<(Int(op >> 3 & 0x03) + 1) {
                let who = input.u8()
                let data = advertisingData(format: op >> 5 & 0x03, who: who, power: input.u8())
                reports.append(AdvertisingReport(
                    eventType: op % 7 == 1 ? 0x03 : 0x0010, isExtended: op % 7 == 2, addressType: .publicDevice,
                    address: DeviceAddress(value: UInt64(who >> 5)), rssi: Int8(bitPattern: input.u8()),
                    data: data[...]))
            }
            let meta: LEMetaEvent = op % 7 == 2 ? .extendedAdvertisingReport(reports) : .advertisingReport(reports)
            feed(HCIEvent.leMeta(meta).packet, .received)
        case 3:
            feed(HCIPacket(kind: .command, payload: input.bytes(Int(input.u8()))), .sent)
        case 4:
            session.advance(to: now, emit: emit)
        case 5:
            let opcode: HCIOpcode = op & 0x80 != 0 ? .leSetExtendedScanEnable : .leSetScanEnable
            let enable = input.u8() & 1
            var command = ByteWriter()
            command.u16(opcode.rawValue)
            command.u8(2)
            command.u8(enable)
            command.u8(0)
            feed(HCIPacket(kind: .command, payload: command.bytes), .sent)
            let complete = HCIEvent.commandComplete(numCommandPackets: 1, opcode: opcode, returnParameters: [input.u8() & 1][...])
            feed(complete.packet, .received)
        default:
            let kind = HCIPacketKind(rawValue: input.u8() % 5 + 1) ?? .aclData
            feed(HCIPacket(kind: kind, payload: input.bytes(Int(input.u8()))), input.u8() & 1 == 0 ? .sent : .received)
        }
        if let deadline = session.nextDeadline, deadline < now, session.anchor != nil {
            // Deadlines in the past are run by the next advance.
            session.advance(to: now, emit: emit)
        }
        checkEmitted()
    }
    // A replay's end: the last, partial interval.
    session.finish(at: now, emit: emit)
    checkEmitted()
    require(session.malformedPackets == failures, "\(session.malformedPackets) malformed counted, \(failures) thrown")
    return 0
}
