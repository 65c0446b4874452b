/// The JSON encodings of a survey point: the survey file's line (docs/survey.md), and the `survey` line
/// `beacon survey` prints on stdout (docs/output.md), which is the same members after `event`, `time`
/// and `beacon`.
public enum SurveyLine {
    /// The survey file's line, without its newline:
    /// `{"x":3.20,"y":1.50,"floor":0,"gateway":"gw1","rssi":-71.5,"samples":3400,"spread":2.97,"time":"…"}`.
    /// `rssi` is null and `samples` 0 for a gateway that heard nothing there; `spread` and `time` are
    /// left out when unknown.
    public static func encode(_ point: SurveyPoint) -> String {
        var w = JSONWriter(capacity: 160 + point.gateway.utf8.count)
        w.object { o in
            write(point, to: &o)
            if let time = point.time { o.field("time", time) }
        }
        return w.text
    }

    /// The stdout line: `{"event":"survey","time":…,"beacon":ID,"x":…,…}`; `time` is the point's.
    public static func event(_ point: SurveyPoint, beacon: String, time: Timestamp) -> String {
        var w = JSONWriter(capacity: 200 + point.gateway.utf8.count + beacon.utf8.count)
        w.object { o in
            o.field("event", "survey")
            o.field("time", time)
            o.field("beacon", beacon)
            write(point, to: &o)
        }
        return w.text
    }

    private static func write(_ point: SurveyPoint, to m: inout JSONWriter) {
        m.field("x", point.point.x, decimals: OutputLine.metresDecimals)
        m.field("y", point.point.y, decimals: OutputLine.metresDecimals)
        m.field("floor", point.floor)
        m.field("gateway", point.gateway)
        m.field("rssi", point.rssi, decimals: OutputLine.rssiDecimals)
        m.field("samples", point.samples)
        if let spread = point.spread { m.field("spread", spread, decimals: OutputLine.spreadDecimals) }
    }
}
