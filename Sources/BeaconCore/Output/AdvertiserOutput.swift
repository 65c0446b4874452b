/// What `beacon advertise` reports.
public enum AdvertiserOutput: Sendable {
    /// Advertising is on.
    case advertising(plan: AdvertisingPlan, started: AdvertisingStarted)
    /// Advertising was turned off again.
    case stopped(time: Timestamp, reason: StopCause)
}

/// Why a run ended, as printed in `stopped` lines.
public enum StopCause: String, Sendable {
    case signal
    case duration
}

/// What the controller said when advertising started.
public struct AdvertisingStarted: Sendable, Equatable {
    public var commands: LECommandSet
    /// Transmit power the controller reports using, when it tells.
    public var txPower: Int8?
    /// When the enable command completed.
    public var time: Timestamp
    /// The kernel's advertising instance, when advertising through the management interface (mgmt:N).
    public var instance: UInt8?

    public init(commands: LECommandSet, txPower: Int8?, time: Timestamp, instance: UInt8? = nil) {
        self.commands = commands
        self.txPower = txPower
        self.time = time
        self.instance = instance
    }
}

extension OutputLine {
    /// `{"event":"advertising",…}` and `{"event":"stopped",…}` lines (docs/output.md).
    public static func encode(_ output: AdvertiserOutput) -> String {
        var w = JSONWriter()
        w.object { o in
            switch output {
            case let .advertising(plan, started):
                o.field("event", "advertising")
                o.field("time", started.time)
                o.field("format", plan.beacon.format.rawValue)
                switch plan.beacon {
                case let .iBeacon(beacon):
                    OutputLine.write(.iBeacon(beacon.identity), to: &o)
                    o.field("measuredPower", beacon.measuredPower)
                case let .altBeacon(beacon):
                    OutputLine.write(.altBeacon(beacon.identity), to: &o)
                    o.field("measuredPower", beacon.referenceRSSI)
                    o.field("companyId", beacon.companyID)
                    o.field("reserved", beacon.reserved)
                case let .eddystone(beacon):
                    switch beacon.frame {
                    case let .uid(uid):
                        OutputLine.write(.eddystoneUID(uid), to: &o)
                    case let .url(url):
                        o.field("url", url.url)
                    }
                    o.field("txPowerAt0m", beacon.txPowerAt0m)
                }
                o.field("intervalMs", plan.intervalMilliseconds, decimals: 3)
                o.field("connectable", plan.connectable)
                o.field("data", Hex.encode(plan.advertisingData))
                o.field("commands", started.commands.rawValue)
                if plan.phy != .le1M { o.field("phy", plan.phy) }
                if let power = started.txPower, power != 127 {
                    o.field("txPower", power)
                }
                if let instance = started.instance {
                    o.field("advertisingInstance", Int(instance))
                }
            case let .stopped(time, reason):
                o.field("event", "stopped")
                o.field("time", time)
                o.field("reason", reason.rawValue)
            }
        }
        return w.text
    }
}
