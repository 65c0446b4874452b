import BeaconCore
import BeaconTransport

/// Options every controller-facing command shares, parsed and validated in one place.
struct CommonOptions {
    var transport: TransportSpec
    var duration: Micros?
    var recordPath: String?
    var captureIndex: UInt16?
    /// `--speed`: a btsnoop: capture replayed at this pace; nil replays as fast as it reads.
    var replayPacing: ReplayPacing?
    /// Where the controller was named when not by --hci, for errors it causes ("BEACON_HCI=hci1").
    var transportOrigin: String?

    static let hciEnvironmentVariable = "BEACON_HCI"

    /// A btsnoop: replay, which waits for an MQTT broker rather than dropping lines.
    var isReplay: Bool {
        if case .btsnoop = transport { true } else { false }
    }

    static let hci = OptionSpec(
        "hci", .value(placeholder: "spec"),
        "Controller: hciN (kernel, shared with bluetoothd; brought up if down), hci-user:N (kernel, exclusive; must be down), "
            + "mgmt:N (kernel management interface, beside bluetoothd; not calibrate), monitor:N (kernel monitor channel, read-only; range and scan only), "
            + "tcp:HOST:PORT, unix:PATH, serial:DEVICE[,BAUD][,rtscts] or btsnoop:FILE. `beacon devices` lists the kernel's.",
        default: "$\(hciEnvironmentVariable), else hci0")
    static let duration = OptionSpec("duration", .value(placeholder: "duration"), "Stop by itself after this long (for example 30s or 5m).")
    static let record = OptionSpec("record", .value(placeholder: "file"),
                                   "Also write every HCI packet exchanged to this btsnoop file (readable by btmon -r); range and scan "
                                       + "through mgmt:N write the controller's traffic as btmon records it (needs CAP_NET_RAW).")
    static let index = OptionSpec("index", .value(placeholder: "n"), "Controller index to take from a btmon (datalink 2001) capture.")
    /// The commands that replay a capture for its lines (range, scan) also take `--speed`.
    static let speed = OptionSpec(
        "speed", .value(placeholder: "multiplier"),
        "Replay a btsnoop: capture in time with its own timestamps, this many times faster than recorded: 1 is real time, "
            + "10 ten times faster; the lines are those of a replay at full speed.",
        default: "as fast as it reads")

    /// The options of the commands that listen and can read a capture (range, scan).
    static let options = [hci, duration, record, index]

    /// `--hci` (else `BEACON_HCI`), `--duration` and `--record`; `--index` and `--speed` are read by
    /// `readCaptureIndex` and `readReplaySpeed`, for the commands that take them.
    init(_ parsed: ParsedOptions, environment: [String: String]) throws(UsageError) {
        let fromEnvironment = parsed[Self.hci] == nil ? environment[Self.hciEnvironmentVariable].flatMap { $0.isEmpty ? nil : $0 } : nil
        let specText = parsed[Self.hci] ?? fromEnvironment ?? "hci0"
        transportOrigin = fromEnvironment.map { "\(Self.hciEnvironmentVariable)=\($0)" }
        do {
            transport = try TransportSpec.parse(specText)
        } catch {
            throw UsageError("Invalid controller '\(specText)'\(transportOrigin.map { " (from \($0))" } ?? ""): \(error)")
        }
        duration = try parsed.positiveDuration(Self.duration)
        recordPath = parsed[Self.record]
        if recordPath == "" { throw UsageError("Missing value for '\(Self.record.synopsis)'") }
        // Checked before the recording is opened (and truncated): the capture being replayed survives
        // whatever path (a symbolic or hard link) leads to it.
        if let recordPath, case .btsnoop(let input) = transport, let identity = FileIdentity(path: input),
           FileIdentity(path: recordPath) == identity {
            throw UsageError("'--record' would overwrite the capture being replayed '\(input)'")
        }
    }

    /// `--index`: which controller of a btmon capture.
    mutating func readCaptureIndex(_ parsed: ParsedOptions) throws(UsageError) {
        if let text = parsed[Self.index] {
            guard let index = UInt16(text), index < 0xFFFF else {
                throw UsageError("Invalid value '\(text)' for '--index <n>': expected a controller index 0...65534")
            }
            captureIndex = index
        }
        if captureIndex != nil, case .btsnoop = transport {} else if captureIndex != nil {
            throw UsageError("'--index' applies only to a btsnoop: capture")
        }
    }

    /// `--speed`: the pace of a capture's replay.
    mutating func readReplaySpeed(_ parsed: ParsedOptions) throws(UsageError) {
        if let text = parsed[Self.speed] {
            let range = ReplayPacing.speedRange
            guard let speed = Double(text), range.contains(speed) else {
                throw UsageError("Invalid value '\(text)' for '--speed <multiplier>': expected a number in "
                                 + "\(range.lowerBound)...\(Int(range.upperBound)) such as 1 (real time) or 10")
            }
            guard case .btsnoop = transport else {
                throw UsageError("'--speed' paces the replay of a btsnoop: capture; a live controller runs in real time")
            }
            replayPacing = ReplayPacing(speed: speed)
        }
    }

    /// For the commands that listen: calibrate refuses the management interface; range and scan take
    /// it, without `--phy coded` or the scan options (the kernel scans on the PHYs and with the
    /// parameters it chooses).
    func requireListener(_ command: String, phys: ScanningPHYs? = nil, scanOptions: [String] = []) throws(UsageError) {
        guard case .kernelManagement(let index) = transport else { return }
        guard command != "calibrate" else {
            throw UsageError("beacon calibrate cannot listen through mgmt:\(index), which serves advertise, range and scan; "
                + "use monitor:\(index) (read-only, beside bluetoothd) or hci\(index)")
        }
        if let phys, phys.contains(.leCoded) {
            throw UsageError("'--phy coded' needs the raw channel (--hci hci\(index)): through mgmt:\(index) the kernel scans on the PHYs it chooses")
        }
        if !scanOptions.isEmpty {
            throw UsageError("\(scanOptions.joined(separator: ", ")) \(scanOptions.count == 1 ? "needs" : "need") the raw channel (--hci hci\(index)): "
                + "through mgmt:\(index) the kernel scans passively with its own interval and window")
        }
    }

    /// For the commands that send (advertise, range --advertise-self): the read-only monitor channel is refused.
    func requireSender(_ what: String) throws(UsageError) {
        if case .kernelMonitor(let index) = transport {
            throw UsageError("\(what) cannot send through monitor:\(index), which only listens; "
                + "use mgmt:\(index) (beside bluetoothd), hci\(index) or hci-user:\(index)")
        }
    }

    /// Parses a duration that must be greater than zero.
    static func positiveDuration(_ text: String, option: OptionSpec) throws(UsageError) -> Micros {
        guard let value = DurationText.parse(text), value.value > 0 else {
            throw UsageError("Invalid value '\(text)' for '\(option.synopsis)': expected a positive duration such as 3, 0.5, 500ms, 10s or 2m")
        }
        return value
    }
}

extension ParsedOptions {
    /// The value of a `<duration>` option, greater than zero; nil when it was not given.
    func positiveDuration(_ option: OptionSpec) throws(UsageError) -> Micros? {
        try self[option].map { text throws(UsageError) in try CommonOptions.positiveDuration(text, option: option) }
    }
}
