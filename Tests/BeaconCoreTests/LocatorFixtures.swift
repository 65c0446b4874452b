import BeaconCore
#if canImport(Glibc)
import Glibc
#endif

/// Two 3×4 m rooms side by side (A: x 0–3, B: x 3–6), a gateway 1 m up in each corner, and readings
/// built from the true distances by the fuser's own signal model (so any error is the fuser's).
enum LocatorFixture {
    static let site = Site(
        rooms: [Room(name: "A", polygon: rectangle(0, 0, 3, 4)), Room(name: "B", polygon: rectangle(3, 0, 6, 4))],
        gateways: [SiteGateway(name: "gw1", x: 0, y: 0, room: "A"), SiteGateway(name: "gw2", x: 0, y: 4, room: "A"),
                   SiteGateway(name: "gw3", x: 6, y: 0, room: "B"), SiteGateway(name: "gw4", x: 6, y: 4, room: "B")])
    static let beacon = "e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1"

    static func rectangle(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [Point2] {
        [Point2(x: x0, y: y0), Point2(x: x1, y: y0), Point2(x: x1, y: y1), Point2(x: x0, y: y1)]
    }

    static func at(seconds: Double) -> Timestamp { Fixture.t0 + Micros(Int64(seconds * 1_000_000)) }

    static let measuredPower = -59

    /// The RSSI the default signal model expects at `distance` metres (0.1 m at least).
    static func rssi(atDistance distance: Double) -> Double {
        Double(measuredPower) - 10 * SignalModel().exponent * log10(max(distance, 0.1))
    }

    static func reading(rssi: Double, id: String = beacon) -> BeaconReading {
        BeaconReading(id: id, rssi: rssi, filteredRSSI: rssi, spread: 0, samples: 1, measuredPower: measuredPower, accuracy: 1)
    }

    static func reading(atDistance distance: Double, id: String = beacon) -> BeaconReading {
        reading(rssi: rssi(atDistance: distance), id: id)
    }

    /// One message per gateway of `site` at `time`, each with the beacon's RSSI at its distance from it
    /// (plus `noise`'s draw in dB, if any); the beacon stands 1 m up, as high as the gateways.
    static func messages(at time: Timestamp, beaconAt point: Point2?, site: Site = site, sequence: Int = 1,
                         noise: ((inout SplitMix64) -> Double)? = nil, rng: inout SplitMix64) -> [GatewayReadings] {
        site.gateways.map { gateway in
            var readings: [BeaconReading] = []
            if let point {
                let distance = ((gateway.x - point.x) * (gateway.x - point.x) + (gateway.y - point.y) * (gateway.y - point.y)).squareRoot()
                readings.append(reading(rssi: rssi(atDistance: distance) + (noise?(&rng) ?? 0)))
            }
            return GatewayReadings(gateway: gateway.name, time: time, sequence: sequence, readings: readings)
        }
    }

    /// Every gateway's message once a second from 1 s to `seconds` (numbered by the second), the beacon
    /// walked along y = 2 from x = 0.5 at `speed` m/s, with 2 dB of Gaussian noise.
    static func walkMessages(seconds: Int, speed: Double, seed: UInt64) -> [GatewayReadings] {
        var rng = SplitMix64(seed: seed)
        return (1...seconds).flatMap { second in
            messages(at: at(seconds: Double(second)), beaconAt: Point2(x: 0.5 + speed * Double(second), y: 2), sequence: second,
                     noise: { rng in 2 * rng.normal() }, rng: &rng)
        }
    }

    /// Runs a walk: once a second from 1 s to `seconds`, every gateway's message, then `advance`; then `finish`.
    static func run(_ locator: inout Locator, seconds: Int, site: Site = site, seed: UInt64 = 1,
                    noise: ((inout SplitMix64) -> Double)? = nil, position: (Int) -> Point2?) -> [LocateOutput] {
        var rng = SplitMix64(seed: seed)
        var outputs: [LocateOutput] = []
        for second in 1...seconds {
            let time = at(seconds: Double(second))
            for message in messages(at: time, beaconAt: position(second), site: site, sequence: second, noise: noise, rng: &rng) {
                _ = locator.receive(message, arrival: time)
            }
            locator.advance(arrival: time) { outputs.append($0) }
        }
        locator.finish { outputs.append($0) }
        return outputs
    }
}

extension LocateOutput {
    var isRoom: Bool { if case .room = self { true } else { false } }
    var isAway: Bool { if case .away = self { true } else { false } }
    var located: LocatedBeacon? { if case .location(let located) = self { located } else { nil } }
}
