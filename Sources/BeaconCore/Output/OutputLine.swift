/// The JSON-lines encoding of the monitor's outputs, one object per line; docs/output.md and
/// docs/output.schema.json describe every field.
public enum OutputLine {
    // One precision per quantity, whichever command prints it.
    /// Decimals of an RSSI level (dBm): a mean, a filtered value, a median. A median of whole-dBm
    /// readings is a whole or a half dBm, so one decimal loses nothing.
    public static let rssiDecimals = 1
    /// Decimals of metres: accuracy (unknown is written `-1.00`), a gateway's distance, a position and its
    /// error, a calibration's distance.
    public static let metresDecimals = 2
    /// Decimals of the scatter of RSSI readings (dB): a standard deviation, an interquartile range, a fit's residual.
    public static let spreadDecimals = 2

    /// The line for one output, without the trailing newline.
    public static func encode(_ output: MonitorOutput) -> String {
        var w = JSONWriter()
        write(output, to: &w)
        return w.text
    }

    /// Writes the line for one output into `w` (for callers that reuse a writer). `next` is called with
    /// `w` after each ranged beacon: a caller can write out a line of thousands of them piece by piece.
    /// `wallTime` turns the output's times as they are written, as `MonitorOutput.onWallClock` would
    /// (a range line's beacons are then not copied to be printed).
    public static func write(_ output: MonitorOutput, onWallClock wallTime: (Timestamp) -> Timestamp = { $0 },
                             to w: inout JSONWriter, next: (inout JSONWriter) -> Void = { _ in }) {
        w.object { o in
            switch output {
            case let .state(region, state, time):
                header(&o, "state", wallTime(time), region)
                o.field("state", state.rawValue)
            case let .enter(region, time):
                header(&o, "enter", wallTime(time), region)
            case let .exit(region, time):
                header(&o, "exit", wallTime(time), region)
            case let .range(region, time, beacons):
                header(&o, "range", wallTime(time), region)
                write(beacons, onWallClock: wallTime, to: &o, next: next)
            case let .partialRange(region, time, beacons):
                header(&o, "range", wallTime(time), region)
                write(beacons, onWallClock: wallTime, to: &o, next: next)
                o.field("partial", true)
            }
        }
    }

    /// `{"name":…,"uuid":…}` with `name` only for a named region, `major` and `minor` only when the
    /// region constrains them. Regions of the other formats start with their `format` and name their
    /// own identifiers: `id1`, `id2`, `id3` (AltBeacon), `namespace`, `instance` (Eddystone-UID).
    public static func write(_ region: BeaconRegion, to o: inout JSONWriter) {
        if let name = region.name { o.field("name", name) }
        switch region.constraint {
        case let .iBeacon(uuid, major, minor):
            o.field("uuid", uuid)
            if let major { o.field("major", major) }
            if let minor { o.field("minor", minor) }
        case let .altBeacon(id1, id2, id3):
            o.field("format", BeaconFormat.altBeacon.rawValue)
            o.field("id1", id1)
            if let id2 { o.field("id2", id2) }
            if let id3 { o.field("id3", id3) }
        case let .eddystoneUID(namespace, instance):
            o.field("format", BeaconFormat.eddystoneUID.rawValue)
            o.field("namespace", namespace.description)
            if let instance { o.field("instance", instance.description) }
        }
    }

    /// An identity's fields: `uuid`, `major`, `minor` (iBeacon); `id1`, `id2`, `id3` (AltBeacon);
    /// `namespace`, `instance` (Eddystone-UID, 20 and 12 upper-case hex digits).
    public static func write(_ identity: BeaconID, to o: inout JSONWriter) {
        switch identity {
        case .iBeacon(let id):
            o.field("uuid", id.uuid)
            o.field("major", id.major)
            o.field("minor", id.minor)
        case .altBeacon(let id):
            o.field("id1", id.id1)
            o.field("id2", id.id2)
            o.field("id3", id.id3)
        case .eddystoneUID(let uid):
            o.field("namespace", uid.namespace.description)
            o.field("instance", uid.instance.description)
        }
    }

    /// `"telemetry":{…}`: an unencrypted Eddystone-TLM's battery (mV, null when not measured),
    /// temperature (°C, null when not supported), advertising count and time since boot (s).
    public static func write(_ tlm: EddystoneTLM, to o: inout JSONWriter) {
        o.field("telemetry", object: { t in
            t.field("batteryMillivolts", tlm.battery)
            t.field("temperature", tlm.temperature, decimals: 2)
            t.field("advertisementCount", tlm.advertisementCount)
            t.field("uptime", tlm.uptime, decimals: 1)
        })
    }

    /// `"beacons":[…]`, nearest first.
    private static func write(_ beacons: [RangedBeacon], onWallClock wallTime: (Timestamp) -> Timestamp, to o: inout JSONWriter,
                              next: (inout JSONWriter) -> Void) {
        o.field("beacons", array: { list in
            for beacon in beacons {
                list.object { write(beacon, onWallClock: wallTime, to: &$0) }
                next(&list)
            }
        })
    }

    /// The members of one ranged beacon, its `lastSeen` turned by `wallTime`.
    public static func write(_ beacon: RangedBeacon, onWallClock wallTime: (Timestamp) -> Timestamp = { $0 }, to o: inout JSONWriter) {
        if beacon.identity.format != .iBeacon { o.field("format", beacon.identity.format.rawValue) }
        write(beacon.identity, to: &o)
        o.field("rssi", beacon.rssi ?? 0, decimals: rssiDecimals)
        o.field("filteredRssi", beacon.filteredRSSI, decimals: rssiDecimals)
        o.field("measuredPower", beacon.measuredPower)
        o.field("measuredPowerValid", beacon.measuredPowerValid)
        if let txPower = beacon.txPower { o.field("txPowerAt0m", txPower) }
        o.field("accuracy", beacon.accuracy >= 0 ? beacon.accuracy : -1, decimals: metresDecimals)
        o.field("proximity", name: beacon.proximity.name)
        o.field("address", beacon.address)
        o.field("addressType", beacon.addressType)
        o.field("phy", beacon.phy)
        o.field("samples", beacon.samples)
        o.field("lastSeen", wallTime(beacon.lastSeen))
        if let telemetry = beacon.telemetry { write(telemetry, to: &o) }
    }

    /// `"event"`, `"time"` and `"region"`, the members every monitor line starts with.
    private static func header(_ o: inout JSONWriter, _ event: String, _ time: Timestamp, _ region: BeaconRegion) {
        o.field("event", event)
        o.field("time", time)
        o.field("region", object: { write(region, to: &$0) })
    }
}
