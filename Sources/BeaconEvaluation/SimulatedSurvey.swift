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
        guard let site = scene.site, let template = scene.beacons.first, case .iBeacon(let tag) = template.beacon else {
            throw SceneError(field: "site", "a survey needs a site scene with an iBeacon")
        }
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
        var survey = scene
        survey.duration = hold
        survey.beacons = places.enumerated().map { index, place in
            var beacon = template
            let identity = IBeaconID(uuid: tag.identity.uuid, major: 9_999, minor: UInt16(index + 1))
            beacon.beacon = .iBeacon(IBeacon(identity: identity, measuredPower: tag.measuredPower))
            beacon.address = SceneBeacon.defaultAddress(index: index)
            beacon.path = .at(place.point)
            beacon.height = site.elevation(of: place.floor) + SceneBeacon.defaultHeight
            beacon.start = Micros(0)
            beacon.stop = nil
            return beacon
        }
        survey.gateways = scene.gateways.map { gateway in
            var gateway = gateway
            gateway.stop = nil
            return gateway
        }
        let run = try FleetRun(survey, seed: seed)
        var heard: [String: [String: [Double]]] = [:]
        for case .readings(let message) in run.events {
            for reading in message.readings {
                heard[reading.id, default: [:]][message.gateway, default: []].append(reading.rssi)
            }
        }
        var points: [SurveyPoint] = []
        for (index, place) in places.enumerated() {
            let id = BeaconID.iBeacon(IBeaconID(uuid: tag.identity.uuid, major: 9_999, minor: UInt16(index + 1))).deviceID
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
}
