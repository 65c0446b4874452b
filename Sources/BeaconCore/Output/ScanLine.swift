/// The JSON-lines encoding of `beacon scan`'s outputs; docs/output.md and docs/output.schema.json
/// describe every field.
public enum ScanLine {
    /// The line for one output, without the trailing newline.
    public static func encode(_ output: ScanOutput) -> String {
        var w = JSONWriter()
        write(output, to: &w)
        return w.text
    }

    /// Writes the line for one output, without the trailing newline, into `w`: the output's lines
    /// are encoded in place, into the writer that holds the lines not yet written.
    public static func write(_ output: ScanOutput, to w: inout JSONWriter) {
        w.object { o in
            switch output {
            case let .beacon(beacon, time, partial):
                o.field("event", "beacon")
                o.field("time", time)
                write(beacon.frame, to: &o)
                o.field("rssi", beacon.rssi ?? 0, decimals: OutputLine.rssiDecimals)
                o.field("samples", beacon.samples)
                o.field("address", beacon.address)
                o.field("addressType", beacon.addressType)
                o.field("phy", beacon.phy)
                o.field("firstSeen", beacon.firstSeen)
                o.field("lastSeen", beacon.lastSeen)
                if let telemetry = beacon.telemetry { OutputLine.write(telemetry, to: &o) }
                if partial { o.field("partial", true) }
            case let .advertisement(sighting):
                o.field("event", "advertisement")
                o.field("time", sighting.time)
                write(sighting.frame, to: &o)
                o.field("rssi", sighting.rssi)
                o.field("address", sighting.address)
                o.field("addressType", sighting.addressType)
                o.field("phy", sighting.phy)
                if sighting.isScanResponse { o.field("scanResponse", true) }
            }
        }
    }

    /// `format`, then the frame's own fields: the identity and measured power (iBeacon); the identity,
    /// reference RSSI as `measuredPower`, `companyId` and `reserved` (AltBeacon); `txPowerAt0m` and
    /// `measuredPower` at 1 m with the namespace and instance (UID), the `url` (URL) or the `eid` (EID,
    /// 16 hex digits); the `telemetry` of a TLM, or its 32 encrypted hex digits as `etlm`.
    public static func write(_ frame: BeaconFrame, to o: inout JSONWriter) {
        o.field("format", frame.format.rawValue)
        switch frame {
        case .iBeacon(let beacon):
            OutputLine.write(.iBeacon(beacon.identity), to: &o)
            o.field("measuredPower", beacon.measuredPower)
        case .altBeacon(let beacon):
            OutputLine.write(.altBeacon(beacon.identity), to: &o)
            o.field("measuredPower", beacon.referenceRSSI)
            o.field("companyId", beacon.companyID)
            o.field("reserved", beacon.reserved)
        case .eddystone(let eddystone):
            switch eddystone {
            case .uid(_, let uid):
                OutputLine.write(.eddystoneUID(uid), to: &o)
            case .url(_, let url):
                o.field("url", url.url)
            case .eid(_, let eid):
                var bytes = ByteWriter(capacity: 8)
                bytes.u64BigEndian(eid)
                o.field("eid", Hex.encode(bytes.bytes))
            case .tlm(let tlm):
                OutputLine.write(tlm, to: &o)
            case .encryptedTLM(let data):
                o.field("etlm", data.description)
            }
            if let txPower = eddystone.txPower {
                o.field("txPowerAt0m", txPower)
                o.field("measuredPower", EddystoneFrame.measuredPower(txPower: txPower))
            }
        }
    }
}
