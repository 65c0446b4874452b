import BeaconCore

/// Where lines go besides standard output (an MQTT broker). A command writes to its `LineOutput`
/// and never learns which sinks there are; a command with a new kind of line adds a method here, which
/// a sink that does not take those lines leaves to the default (nothing).
protocol LineSink: AnyObject {
    /// A monitoring line (`beacon range`) and its JSON text.
    func monitor(_ output: MonitorOutput, line: String)
    /// A scan line (`beacon scan`) and its JSON text.
    func scan(_ output: ScanOutput, line: String)
    /// The loop has handled one packet or deadline: every output of the instants it completed has been
    /// given (a sink that gathers a tick's outputs sends them now). `lastTick` is the latest tick of the
    /// session's schedule passed (wall-clock time, as lines print it), even one that printed nothing.
    func stepEnded(lastTick: Timestamp?)
    /// Delivers what is pending, within the sink's own bound, and closes.
    func finish()
}

extension LineSink {
    func monitor(_ output: MonitorOutput, line: String) {}
    func scan(_ output: ScanOutput, line: String) {}
}
