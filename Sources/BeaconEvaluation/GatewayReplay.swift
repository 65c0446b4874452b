import BeaconCore
import BeaconSimulation

/// One gateway's `beacon range --hci btsnoop:CAPTURE --uuid UUID --mqtt URL --gateway NAME`, in process:
/// the capture's packets through the same session and readings collector, one readings message out per
/// ranging tick (an empty one for a tick with no region inside), as a fuser receives them: written as
/// the gateway publishes them and read back, numbers rounded as the JSON carries them.
public struct GatewayReplay {
    public let gateway: String
    private var session: RangeSession
    private var collector: GatewayReadingsCollector
    private var latest: Timestamp?
    /// Packets the session could not decode, and messages that did not read back (none are expected).
    public private(set) var malformedPackets = 0

    /// `regions` with `beacon range`'s defaults for everything else.
    public init(gateway: String, regions: [BeaconRegion]) {
        self.gateway = gateway
        session = RangeSession(monitor: RegionMonitor(regions: regions, hashKey: MultilinearHash(seed: 0)), duration: nil)
        collector = GatewayReadingsCollector(gateway: gateway, replay: true)
    }

    /// One packet of the capture, in time order; the messages of the ticks it completed.
    public mutating func packet(_ packet: HCIPacket, direction: PacketDirection, at time: Timestamp) -> [GatewayReadings] {
        var messages = deadlines(before: time)
        var collector = self.collector
        do {
            try session.packet(packet, direction: direction, at: time, emit: { collector.add($0) })
        } catch {
            malformedPackets += 1
        }
        self.collector = collector
        latest = time
        messages += stepEnded()
        return messages
    }

    /// The end of the capture: the last, partial tick (as a replay that runs out prints it).
    public mutating func finish() -> [GatewayReadings] {
        guard let latest else { return [] }
        var collector = self.collector
        session.finish(at: latest, emit: { collector.add($0) })
        self.collector = collector
        return stepEnded()
    }

    /// The deadlines before `time` (ranging ticks, state changes), each a step of its own, as the host
    /// loop runs them between packets.
    private mutating func deadlines(before time: Timestamp) -> [GatewayReadings] {
        var messages: [GatewayReadings] = []
        while let deadline = session.nextDeadline, deadline < time {
            var collector = self.collector
            session.advance(to: deadline, emit: { collector.add($0) })
            self.collector = collector
            messages += stepEnded()
        }
        return messages
    }

    private mutating func stepEnded() -> [GatewayReadings] {
        if let tick = session.lastTick { collector.ticked(at: tick) }
        return collector.completed().compactMap { message in
            do {
                return try GatewayReadings.decode(Array(message.json.utf8), gateway: gateway)
            } catch {
                malformedPackets += 1
                return nil
            }
        }
    }
}
