import BeaconTransport

/// A capture replay's progress, by bytes of the file read, shown while standard error is a terminal.
final class ReplayProgress {
    private let replay: BtsnoopReplayTransport
    private let meter: ProgressMeter
    private var packets = 0

    /// The clock is read once per this many packets, so the per-packet cost stays a count.
    static let packetsPerCheck = 4096

    /// Nil unless `transport` replays a regular file and the console has a terminal.
    init?(_ transport: PacketTransport, console: Console) {
        guard let replay = transport as? BtsnoopReplayTransport, replay.size > 0,
              let meter = ProgressMeter(console, label: "replay") else { return nil }
        self.replay = replay
        self.meter = meter
    }

    func packet() {
        packets += 1
        guard packets % Self.packetsPerCheck == 1 else { return }
        meter.update(Double(replay.bytesRead) / Double(replay.size),
                     "(\(Self.mebibytes(replay.bytesRead)) of \(Self.mebibytes(replay.size)) MiB read, \(packets.counted("packet")))")
    }

    /// `12.3`: mebibytes to a tenth.
    static func mebibytes(_ bytes: Int64) -> String {
        let tenths = bytes * 10 / (1024 * 1024)
        return "\(tenths / 10).\(tenths % 10)"
    }

    func finish() {
        meter.finish()
    }
}
