import BeaconCore
import BeaconSimulation

/// What a fleet's rules are fed, in time order: a gateway's readings message, or a gateway going
/// offline (its capture ended, so `beacon range` exits and publishes `offline`) after its last message.
public enum FleetEvent: Sendable {
    case readings(GatewayReadings)
    case offline(gateway: String, time: Timestamp)

    public var time: Timestamp {
        switch self {
        case .readings(let message): message.time
        case .offline(_, let time): time
        }
    }
}

/// One run of a site scene: every gateway's capture through `GatewayReplay` (its `beacon range
/// --gateway`), the readings messages and offline statuses in time order, and each beacon's truth.
public struct FleetRun: Sendable {
    public var events: [FleetEvent]
    /// Per beacon id (mqtt_room's, as the readings name it): where it really was at each tick.
    public var truth: [String: [TruthPoint]]
    /// Per beacon id, the ticks at which no gateway could hear it (away, not advertising): the times an
    /// `away` is right.
    public var inaudible: [String: Set<Timestamp>]
    public var site: Site
    /// Packets the gateways could not decode (none are expected).
    public var malformedPackets = 0

    public init(_ scene: Scene, seed: UInt64) throws(SceneError) {
        guard let site = scene.site else { throw SceneError(field: "site", "the fleet evaluation needs a site scene") }
        self.site = site
        let simulator = try SceneSimulator(scene: scene, seed: seed)
        let regions = [BeaconRegion(uuid: FleetScenes.uuid)]
        var replays = site.gateways.map { GatewayReplay(gateway: $0.name, regions: regions) }
        var messages: [GatewayReadings] = []
        var truth: [String: [TruthPoint]] = [:]
        var inaudible: [String: Set<Timestamp>] = [:]
        simulator.run(packet: { simulated in
            messages += replays[simulated.receiver].packet(simulated.packet, direction: simulated.direction, at: simulated.time)
        }, truth: { row in
            guard case .site(let row) = row else { return }
            let id = BeaconID.iBeacon(row.identity).deviceID
            truth[id, default: []].append(TruthPoint(time: row.time, x: row.point.x, y: row.point.y, room: row.room))
            if !row.gateways.contains(where: \.isAudible) { inaudible[id, default: []].insert(row.time) }
        })
        var events: [FleetEvent] = []
        for index in replays.indices {
            let last = replays[index].finish()
            messages += last
            malformedPackets += replays[index].malformedPackets
        }
        // A gateway whose capture ended before the scene's goes offline after its last message.
        let end = simulator.start + scene.duration
        for gateway in site.gateways {
            guard let stop = scene.gateways.first(where: { $0.name == gateway.name })?.stop, simulator.start + stop < end else { continue }
            let last = messages.filter { $0.gateway == gateway.name }.map(\.time).max() ?? simulator.start
            events.append(.offline(gateway: gateway.name, time: last))
        }
        events += messages.map { .readings($0) }
        // Readings before statuses at one instant: a gateway publishes its last readings, then offline.
        self.events = events.enumerated().sorted { a, b in
            (a.element.time, a.element.order, a.offset) < (b.element.time, b.element.order, b.offset)
        }.map(\.element)
        self.truth = truth
        self.inaudible = inaudible
    }
}

extension FleetEvent {
    /// Readings of one instant by gateway name; offline after them.
    fileprivate var order: String {
        switch self {
        case .readings(let message): "0" + message.gateway
        case .offline(let gateway, _): "1" + gateway
        }
    }
}
