import BeaconCore

/// One HCI packet of a simulated capture.
public struct SimulatedPacket: Hashable, Sendable {
    public var time: Timestamp
    public var packet: HCIPacket
    /// `.sent` for the host's commands that turn scanning on and off, `.received` for the controller's events.
    public var direction: PacketDirection

    public init(time: Timestamp, packet: HCIPacket, direction: PacketDirection) {
        self.time = time
        self.packet = packet
        self.direction = direction
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
    /// tick (start + k × tick, before the packets of that instant), all in time order. An error thrown
    /// by either ends the run.
    public func run<Failure: Error>(packet: (SimulatedPacket) throws(Failure) -> Void,
                                    truth: (GroundTruth) throws(Failure) -> Void) throws(Failure) {
        let duration = scene.duration.value
        var receiver = ScanningReceiver(model: scene.receiver, radio: scene.radio, seed: seed)
        var transmitters = scene.beacons.enumerated().map { index, beacon in
            BeaconTransmitter(beacon, index: index, scene: scene, seed: seed)
        }
        var queue = EventQueue(capacity: transmitters.count)
        for (index, transmitter) in transmitters.enumerated() {
            if let time = transmitter.nextEmission { queue.insert(time: time, index: index) }
        }

        for (command, direction) in scanning(on: true) { try packet(SimulatedPacket(time: start, packet: command, direction: direction)) }
        var tick: Int64 = 0
        var neighbours = NeighbourTurns(scene: scene, seed: seed)
        while let (time, index) = queue.removeFirst(), time < duration {
            while tick <= time {
                for row in GroundTruth.rows(scene, at: Micros(tick), start: start) { try truth(row) }
                tick += scene.tick.value
            }
            while neighbours.time < time {
                try packet(SimulatedPacket(time: start + Micros(neighbours.time), packet: neighbours.next(), direction: .received))
            }
            if let reception = transmitters[index].emit(to: &receiver) {
                try packet(SimulatedPacket(time: start + Micros(reception.time), packet: transmitters[index].report(reception),
                                           direction: .received))
            }
            if let next = transmitters[index].nextEmission { queue.insert(time: next, index: index) }
        }
        while tick < duration || neighbours.time < duration {
            if tick <= neighbours.time, tick < duration {
                for row in GroundTruth.rows(scene, at: Micros(tick), start: start) { try truth(row) }
                tick += scene.tick.value
            } else {
                try packet(SimulatedPacket(time: start + Micros(neighbours.time), packet: neighbours.next(), direction: .received))
            }
        }
        let end = start + scene.duration
        for (command, direction) in scanning(on: false) { try packet(SimulatedPacket(time: end, packet: command, direction: direction)) }
    }

    /// The host's commands turning scanning on (parameters, then enable) or off, each followed by the
    /// controller's Command Complete with status success; duplicate filtering off, as `beacon range` scans.
    func scanning(on: Bool) -> [(HCIPacket, PacketDirection)] {
        let receiver = scene.receiver
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
