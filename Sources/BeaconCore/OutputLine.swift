/// The JSON-lines encoding of the monitor's outputs, one object per line; docs/output.md and
/// docs/output.schema.json describe every field.
public enum OutputLine {
    /// Decimals written for a ranged beacon's mean RSSI (dBm).
    public static let rssiDecimals = 1
    /// Decimals written for accuracy (metres); unknown accuracy is written as `-1.00`.
    public static let accuracyDecimals = 2

    /// The line for one output, without the trailing newline.
    public static func encode(_ output: MonitorOutput) -> String {
        var w = JSONWriter()
        write(output, to: &w)
        return w.text
    }

    /// Writes the line for one output into `w` (for callers that reuse a writer).
    public static func write(_ output: MonitorOutput, to w: inout JSONWriter) {
        w.object { o in
            switch output {
            case let .state(region, state, time):
                header(&o, "state", time, region)
                o.field("state", state.rawValue)
            case let .enter(region, time):
                header(&o, "enter", time, region)
            case let .exit(region, time):
                header(&o, "exit", time, region)
            case let .range(region, time, beacons):
                header(&o, "range", time, region)
                write(beacons, to: &o)
            case let .partialRange(region, time, beacons):
                header(&o, "range", time, region)
                write(beacons, to: &o)
                o.field("partial", true)
            }
        }
    }

    /// `{"name":…,"uuid":…}` with `name` only for a named region, `major` and `minor` only when the
    /// region constrains them.
    public static func write(_ region: BeaconRegion, to o: inout JSONWriter) {
        if let name = region.name { o.field("name", name) }
        o.field("uuid", region.uuid.description)
        if let major = region.major { o.field("major", major) }
        if let minor = region.minor { o.field("minor", minor) }
    }

    /// `"beacons":[…]`, nearest first.
    private static func write(_ beacons: [RangedBeacon], to o: inout JSONWriter) {
        o.field("beacons", array: { list in
            for beacon in beacons {
                list.object { write(beacon, to: &$0) }
            }
        })
    }

    /// The members of one ranged beacon.
    public static func write(_ beacon: RangedBeacon, to o: inout JSONWriter) {
        o.field("uuid", beacon.identity.uuid.description)
        o.field("major", beacon.identity.major)
        o.field("minor", beacon.identity.minor)
        o.field("rssi", beacon.rssi ?? 0, decimals: rssiDecimals)
        o.key("filteredRssi")
        if let filtered = beacon.filteredRSSI { o.number(filtered, decimals: rssiDecimals) } else { o.null() }
        o.field("measuredPower", beacon.measuredPower)
        o.field("measuredPowerValid", beacon.measuredPowerValid)
        o.field("accuracy", beacon.accuracy >= 0 ? beacon.accuracy : -1, decimals: accuracyDecimals)
        o.field("proximity", beacon.proximity.rawValue)
        o.field("address", beacon.address.description)
        o.field("addressType", beacon.addressType.name)
        o.field("samples", beacon.samples)
        o.field("lastSeen", beacon.lastSeen.iso8601)
    }

    /// `"event"`, `"time"` and `"region"`, the members every monitor line starts with.
    private static func header(_ o: inout JSONWriter, _ event: String, _ time: Timestamp, _ region: BeaconRegion) {
        o.field("event", event)
        o.field("time", time.iso8601)
        o.field("region", object: { write(region, to: &$0) })
    }
}
