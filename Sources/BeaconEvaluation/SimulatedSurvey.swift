import BeaconCore
import BeaconSimulation

/// A person's survey of a simulated site, as `beacon survey` would take it: a beacon held still for `hold`
/// at the centre of each `spacing` square of the site's bounds that lies in a room (about one point per
/// 4 m²), every gateway's readings of it through its `beacon range --gateway` (`FleetRun`), and per gateway
/// the median of its ticks' RSSI, their spread and how many (not heard: null). Its own run of the simulator, with a seed of its own,
/// before and apart from the runs that are scored.
public enum SimulatedSurvey {
    public static let spacing = 2.0
    public static let hold = Micros.seconds(30)

    public static func points(_ scene: Scene, seed: UInt64) throws(SceneError) -> [SurveyPoint] {
        let (site, tag) = try surveyed(scene)
        let places = places(site)
        let run = try FleetRun(surveyScene(scene, tag: tag, paths: places.map { (.at($0.point), $0.floor) }, duration: hold), seed: seed)
        var heard: [String: [String: [Double]]] = [:]
        for case .readings(let message) in run.events {
            for reading in message.readings {
                heard[reading.id, default: [:]][message.gateway, default: []].append(reading.rssi)
            }
        }
        var points: [SurveyPoint] = []
        for (index, place) in places.enumerated() {
            let id = surveyBeacon(tag, index).deviceID
            for gateway in site.gateways {
                guard let values = heard[id]?[gateway.name]?.sorted(), !values.isEmpty else {
                    points.append(SurveyPoint(point: place.point, floor: place.floor, gateway: gateway.name, rssi: nil, samples: 0))
                    continue
                }
                let median = OrderStatistics.quantile(sorted: values, 0.5)
                let deviations = values.map { abs($0 - median) }.sorted()
                points.append(SurveyPoint(point: place.point, floor: place.floor, gateway: gateway.name, rssi: median,
                                          samples: values.count,
                                          spread: 1.4826 * OrderStatistics.quantile(sorted: deviations, 0.5)))
            }
        }
        return points
    }

    /// How `beacon survey`'s check that the beacon was held still (`SurveyRecorder`) fares on a survey of
    /// the scene's site: each point held still, and again with a holder who, `movedAfter` into the point,
    /// walks to the place of the survey nearest `movedBy` metres away and stays there.
    public struct MovementCheck: Equatable, Sendable {
        public var still = 0
        /// Still points refused as moved (spread or thirds), and for any other reason.
        public var stillRefused = 0
        public var stillRefusedOtherwise = 0
        public var moved = 0
        public var movedRefused = 0

        public var summary: String {
            "the survey's moved-beacon check (a run of its own, every point also with a holder who walks "
                + "\(Int(SimulatedSurvey.movedBy)) m away \(Int(SimulatedSurvey.movedAfter.seconds)) s in): refused as moved "
                + "\(stillRefused) of \(still) still points (\(stillRefusedOtherwise) refused otherwise), \(movedRefused) of \(moved) moved ones"
        }
    }

    public static let movedBy = 4.0
    public static let movedAfter = Micros.seconds(10)

    /// `beacon survey`'s recorder on every point of a survey of `scene`, held still and moved.
    public static func movementCheck(_ scene: Scene, seed: UInt64) throws(SceneError) -> MovementCheck {
        let (site, tag) = try surveyed(scene)
        let places = places(site)
        // The ticks start a second in: the scene runs a tick past the hold so every point is held in full.
        let start = SceneSimulator.defaultStart
        var paths: [(BeaconPath, Int)] = places.map { (.at($0.point), $0.floor) }
        for place in places {
            let others = places.filter { $0.floor == place.floor && $0.point != place.point }
            let destination = others.min { abs($0.point.distance(to: place.point) - movedBy) < abs($1.point.distance(to: place.point) - movedBy) }
            paths.append((.route(Route([Route.Stop(at: place.point, pause: Micros(movedAfter.value + 1_000_000)),
                                        Route.Stop(at: destination?.point ?? place.point, pause: hold)], speed: BeaconPath.defaultSpeed)),
                          place.floor))
        }
        let run = try FleetRun(surveyScene(scene, tag: tag, paths: paths, duration: Micros(hold.value + 2_000_000)), seed: seed)
        var check = MovementCheck()
        for (index, path) in paths.enumerated() {
            var recorder = SurveyRecorder(site: site, beacon: surveyBeacon(tag, index).deviceID,
                                          plan: .still(at: path.0.place(at: Micros(0)), duration: hold), floor: path.1, maximumLateness: nil)
            for case .readings(let message) in run.events where message.time > start { _ = recorder.receive(message, arrival: message.time) }
            let moved = index >= places.count
            let refusal: SurveyRefusal?
            switch recorder.result() {
            case .success: refusal = nil
            case .failure(let reason): refusal = reason
            }
            let asMoved: Bool
            switch refusal {
            case .moved?, .movedPartWay?: asMoved = true
            default: asMoved = false
            }
            if moved {
                check.moved += 1
                if asMoved { check.movedRefused += 1 }
            } else {
                check.still += 1
                if asMoved { check.stillRefused += 1 } else if refusal != nil { check.stillRefusedOtherwise += 1 }
            }
        }
        return check
    }

    private static func surveyed(_ scene: Scene) throws(SceneError) -> (Site, IBeacon) {
        guard let site = scene.site, let template = scene.beacons.first, case .iBeacon(let tag) = template.beacon else {
            throw SceneError(field: "site", "a survey needs a site scene with an iBeacon")
        }
        return (site, tag)
    }

    /// The centre of each `spacing` square of the site's bounds that lies in a room, floor by floor.
    private static func places(_ site: Site) -> [(point: Point2, floor: Int)] {
        var places: [(point: Point2, floor: Int)] = []
        for floor in Set(site.rooms.map(\.floor)).sorted() {
            guard let box = site.bounds(floor: floor) else { continue }
            for x in stride(from: box.min.x + spacing / 2, to: box.max.x, by: spacing) {
                for y in stride(from: box.min.y + spacing / 2, to: box.max.y, by: spacing) {
                    let point = Point2(x: x, y: y)
                    if site.room(containing: point, floor: floor) != nil { places.append((point, floor)) }
                }
            }
        }
        return places
    }

    private static func surveyBeacon(_ tag: IBeacon, _ index: Int) -> BeaconID {
        .iBeacon(IBeaconID(uuid: tag.identity.uuid, major: 9_999, minor: UInt16(index + 1)))
    }

    /// `scene` with a beacon per path (floor), the survey's beacons instead of the scene's, for `duration`.
    private static func surveyScene(_ scene: Scene, tag: IBeacon, paths: [(BeaconPath, Int)], duration: Micros) -> Scene {
        var survey = scene
        survey.duration = duration
        let site = scene.site
        survey.beacons = paths.enumerated().map { index, path in
            var beacon = scene.beacons[0]
            beacon.beacon = .iBeacon(IBeacon(identity: IBeaconID(uuid: tag.identity.uuid, major: 9_999, minor: UInt16(index + 1)),
                                             measuredPower: tag.measuredPower))
            beacon.address = SceneBeacon.defaultAddress(index: index)
            beacon.path = path.0
            beacon.height = (site?.elevation(of: path.1) ?? 0) + SceneBeacon.defaultHeight
            beacon.start = Micros(0)
            beacon.stop = nil
            return beacon
        }
        survey.gateways = scene.gateways.map { gateway in
            var gateway = gateway
            gateway.stop = nil
            return gateway
        }
        return survey
    }
}
