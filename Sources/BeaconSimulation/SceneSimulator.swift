import BeaconCore

/// One HCI packet of a simulated capture.
public struct SimulatedPacket: Hashable, Sendable {
    public var time: Timestamp
    public var packet: HCIPacket
    /// `.sent` for the host's commands that turn scanning on and off, `.received` for the controller's events.
    public var direction: PacketDirection
    /// Whose capture it belongs to: 0 for a plain scene's receiver, the gateway's index in the site for a
    /// site scene.
    public var receiver: Int

    public init(time: Timestamp, packet: HCIPacket, direction: PacketDirection, receiver: Int = 0) {
        self.time = time
        self.packet = packet
        self.direction = direction
        self.receiver = receiver
    }
}

/// Simulates a scene: the HCI packets a scanning controller would have exchanged with its host, and
/// the ground truth to judge a ranger by. The same scene, seed and start always give the same packets
/// and rows; nothing is read from a clock or the system's random source.
///
/// ```
/// let simulator = try SceneSimulator(scene: Scene.named("walk-away")!, seed: 7)
/// try simulator.run(packet: { p in try session.packet(p.packet, direction: p.direction, at: p.time, emit: emit) },
///                   truth: { row in truths.append(row) })
/// ```
///
/// The packets are what `beacon range` reads from a capture: at the start, the commands turning
/// scanning on (LE Set Scan Parameters and LE Set Scan Enable, or their extended forms) each answered
/// by a Command Complete; then one LE (Extended) Advertising Report per advertisement received; at the
/// end of the scene, scanning turned off. Nothing is held beyond the next packet of each beacon, so a
/// scene of hours streams.
///
/// A site scene has a capture per gateway of its site (`SimulatedPacket.receiver`): each gateway is a
/// receiver of its own, with its own scanning commands, neighbours, scan phase and random draws, hearing
/// the same advertising events of every beacon (one beacon, one air) through the walls between them.
///
/// Every scene also has neighbours (`Scene.neighbours`, one by default): devices that are not beacons,
/// close to the receiver, advertising their name, as some device always does in a place people work.
/// Real captures are never silent for long, and a replay takes a long silence for a step of the
/// recording machine's clock.
public struct SceneSimulator: Sendable {
    public let scene: Scene
    public let seed: UInt64
    /// Wall-clock time of the start of the scene: the capture's first timestamp.
    public let start: Timestamp

    /// 2026-01-01T00:00:00Z: captures carry fixed times unless asked for others.
    public static let defaultStart = Timestamp(microseconds: 1_767_225_600_000_000)

    /// Checks the scene (`Scene.validate()`) so a run cannot fail half-way.
    public init(scene: Scene, seed: UInt64, start: Timestamp = SceneSimulator.defaultStart) throws(SceneError) {
        try scene.validate()
        self.scene = scene
        self.seed = seed
        self.start = start
    }

    /// Runs the whole scene, calling `packet` for every packet and `truth` for every beacon at every
    /// tick (start + k × tick, before the packets of that instant), all in time order (a site scene's
    /// gateways' packets of one instant in the site's order). A plain scene's rows are
    /// `TruthRow.receiver`, a site scene's `TruthRow.site`. An error thrown by either ends the run.
    public func run<Failure: Error>(packet deliver: (SimulatedPacket) throws(Failure) -> Void,
                                    truth: (TruthRow) throws(Failure) -> Void) throws(Failure) {
        let duration = scene.duration.value
        var receivers = receivers()
        // Gateways that stop listening early, soonest first: their scanning goes off at their stop, and
        // nothing after it is theirs.
        var stops = stopTimes().enumerated().compactMap { index, stop in stop.map { (time: $0, receiver: index) } }
            .sorted { ($0.time, $0.receiver) < ($1.time, $1.receiver) }
        let stopTime = stopTimes()
        func packet(_ simulated: SimulatedPacket) throws(Failure) {
            while let first = stops.first, first.time <= (simulated.time - start).value {
                stops.removeFirst()
                for (command, direction) in scanning(on: false) {
                    try deliver(SimulatedPacket(time: start + Micros(first.time), packet: command, direction: direction, receiver: first.receiver))
                }
            }
            if let stop = stopTime[simulated.receiver], (simulated.time - start).value >= stop { return }
            try deliver(simulated)
        }
        var transmitters = scene.beacons.enumerated().map { index, beacon in
            BeaconTransmitter(beacon, index: index, scene: scene, seed: seed, receivers: receivers)
        }
        var queue = EventQueue(capacity: transmitters.count)
        for (index, transmitter) in transmitters.enumerated() {
            if let time = transmitter.nextEmission { queue.insert(time: time, index: index) }
        }
        var neighbours = receivers.enumerated().map { NeighbourTurns(scene: scene, receiver: $0, seed: $1.seed) }
        var nextNeighbour = EventQueue(capacity: neighbours.count)
        for (index, turns) in neighbours.enumerated() { nextNeighbour.insert(time: turns.time, index: index) }
        /// The earliest neighbour's advertisement, then the next of that receiver's neighbours.
        func neighbour() throws(Failure) {
            guard let (time, index) = nextNeighbour.removeFirst() else { return }
            try packet(SimulatedPacket(time: start + Micros(time), packet: neighbours[index].next(), direction: .received,
                                       receiver: index))
            nextNeighbour.insert(time: neighbours[index].time, index: index)
        }
        var neighboursTime: Int64 { nextNeighbour.first?.time ?? .max }
        func rows(at tick: Int64) throws(Failure) {
            if let site = scene.site {
                for row in SiteTruth.rows(scene, site: site, receivers: receivers, at: Micros(tick), start: start) { try truth(.site(row)) }
            } else {
                for row in GroundTruth.rows(scene, at: Micros(tick), start: start) { try truth(.receiver(row)) }
            }
        }

        for index in receivers.indices {
            for (command, direction) in scanning(on: true) {
                try packet(SimulatedPacket(time: start, packet: command, direction: direction, receiver: index))
            }
        }
        var tick: Int64 = 0
        while let (time, index) = queue.removeFirst(), time < duration {
            while tick <= time {
                try rows(at: tick)
                tick += scene.tick.value
            }
            while neighboursTime < time { try neighbour() }
            try transmitters[index].emit(to: &receivers) { (time, report, receiver) throws(Failure) in
                try packet(SimulatedPacket(time: start + Micros(time), packet: report, direction: .received, receiver: receiver))
            }
            if let next = transmitters[index].nextEmission { queue.insert(time: next, index: index) }
        }
        while tick < duration || neighboursTime < duration {
            if tick <= neighboursTime, tick < duration {
                try rows(at: tick)
                tick += scene.tick.value
            } else {
                try neighbour()
            }
        }
        let end = start + scene.duration
        for index in receivers.indices {
            for (command, direction) in scanning(on: false) {
                try packet(SimulatedPacket(time: end, packet: command, direction: direction, receiver: index))
            }
        }
    }

    /// Per receiver, when it stops listening (microseconds after the start), nil for the end of the scene.
    func stopTimes() -> [Int64?] {
        guard let site = scene.site else { return [nil] }
        return site.gateways.map { gateway in scene.gateways.first { $0.name == gateway.name }?.stop?.value }
    }

    /// The scene's receivers: a plain scene's one, or each gateway of the site in its order, with the
    /// scene's settings for it and a seed of its own.
    func receivers() -> [ScanningReceiver] {
        guard let site = scene.site else { return [ScanningReceiver(model: scene.receiver, radio: scene.radio, seed: seed)] }
        return site.gateways.enumerated().map { index, gateway in
            let settings = scene.gateways.first { $0.name == gateway.name } ?? SceneGateway(name: gateway.name)
            return ScanningReceiver(model: scene.receiver, radio: scene.radio, seed: Self.gatewaySeed(seed, index: index),
                                    gateway: GatewayPosition(gateway, in: site, settings: settings))
        }
    }

    /// The seed of the `index`-th gateway's streams, from a stream of the scene's seed no beacon uses.
    static func gatewaySeed(_ seed: UInt64, index: Int) -> UInt64 {
        var mixer = SplitMix64.stream(seed: seed, index: UInt64.max - 1 - UInt64(index))
        return mixer.next()
    }

    /// The host's commands turning scanning on (parameters, then enable) or off, each followed by the
    /// controller's Command Complete with status success; duplicate filtering off, as `beacon range` scans.
    func scanning(on: Bool) -> [(HCIPacket, PacketDirection)] {
        Self.scanningCommands(scene.receiver, on: on)
    }

    /// The commands of `receiver`'s scanning going on or off, each answered, as a capture shows them.
    public static func scanningCommands(_ receiver: ReceiverModel, on: Bool) -> [(HCIPacket, PacketDirection)] {
        let interval = UInt16(receiver.scanInterval.value / 625)
        let window = UInt16(receiver.scanWindow.value / 625)
        let commands: [HCICommand]
        switch (receiver.commandSet, on) {
        case (.extended, true):
            commands = [.leSetExtendedScanParameters(ownAddressType: 0, filterPolicy: 0, active: receiver.activeScanning,
                                                     interval: interval, window: window),
                        .leSetExtendedScanEnable(true, filterDuplicates: false)]
        case (.legacy, true):
            commands = [.leSetScanParameters(active: receiver.activeScanning, interval: interval, window: window,
                                             ownAddressType: 0, filterPolicy: 0),
                        .leSetScanEnable(true, filterDuplicates: false)]
        case (.extended, false):
            commands = [.leSetExtendedScanEnable(false, filterDuplicates: false)]
        case (.legacy, false):
            commands = [.leSetScanEnable(false, filterDuplicates: false)]
        }
        return commands.flatMap { command in
            let complete = HCIEvent.commandComplete(numCommandPackets: 1, opcode: command.opcode,
                                                    returnParameters: [HCIStatus.success.rawValue][...])
            return [(command.packet, PacketDirection.sent), (complete.packet, .received)]
        }
    }
}
