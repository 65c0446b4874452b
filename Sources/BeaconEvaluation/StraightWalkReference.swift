#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import BeaconCore

/// A reference for a walk along a straight line at a constant speed, not a rule anyone could run: an
/// estimator told what no fuser knows, the scene's own path loss and that the walk is straight. It shows
/// what the readings themselves allow.
///
/// Each tick, the gateways' latest mean RSSI (within `window`) give a fix: the posterior mean and variance
/// over a grid of the floor, each reading Gaussian about the scene's path loss with the scene's scatter,
/// the beacon's power at 1 m profiled out. A Kalman filter per axis with a nearly constant velocity (white
/// acceleration, `Motion`) follows the fixes, each weighed by its own variance; the room is the one that
/// holds the filtered point.
public struct StraightWalkReference: RoomRule {
    /// How freely the filter lets the walk change speed and heading.
    public enum Motion: Sendable, CaseIterable {
        /// Speed and heading held: the velocity wanders about 0.05 m/s over 30 s (10⁻⁴ m²/s³).
        case held
        /// A walker's changes of pace: about 0.5 m/s over 30 s (10⁻² m²/s³).
        case walker

        /// The white acceleration's spectral density, m²/s³.
        var acceleration: Double {
            switch self {
            case .held: 1e-4
            case .walker: 1e-2
            }
        }

        var label: String {
            switch self {
            case .held: "speed and heading held"
            case .walker: "a walker's changes of pace"
            }
        }
    }

    public let name: String
    let site: Site
    let exponent: Double
    let scatter: Double
    let acceleration: Double
    /// How old a gateway's reading may be and still count in a fix.
    let window = Micros.seconds(1)
    /// The grid's spacing, metres.
    static let spacing = 0.05

    /// Per beacon, per gateway index, the latest reading's time and mean RSSI.
    private var latest: [String: [Int: (time: Timestamp, rssi: Double)]] = [:]
    private var tracks: [String: Track] = [:]
    private let grid: [Point2]

    /// `exponent` and `scatter` (dB) are the scene's: its path-loss exponent and the 1-σ of its readings.
    public init(site: Site, exponent: Double, scatter: Double, motion: Motion) {
        self.site = site
        self.exponent = exponent
        self.scatter = scatter
        acceleration = motion.acceleration
        name = "reference: true path loss, \(motion.label)"
        var grid: [Point2] = []
        if let box = site.bounds(floor: 0) {
            let columns = Int(((box.max.x - box.min.x) / Self.spacing).rounded()), rows = Int(((box.max.y - box.min.y) / Self.spacing).rounded())
            for row in 0...rows {
                for column in 0...columns {
                    grid.append(Point2(x: box.min.x + Double(column) * Self.spacing, y: box.min.y + Double(row) * Self.spacing))
                }
            }
        }
        self.grid = grid
    }

    public mutating func add(_ message: GatewayReadings) {
        guard let gateway = site.gatewayIndex(named: message.gateway) else { return }
        for reading in message.readings where reading.rssi.isFinite {
            latest[reading.id, default: [:]][gateway] = (message.time, reading.rssi)
        }
    }

    public mutating func estimate(of beacon: String, at time: Timestamp) -> RoomEstimate {
        let heard = (latest[beacon] ?? [:]).filter { time - $0.value.time < window && $0.value.time <= time }
        var track = tracks[beacon] ?? Track()
        // In gateway order: the same sums in every run.
        let readings = heard.sorted { $0.key < $1.key }.map { (gateway: site.gateways[$0.key].point, rssi: $0.value.rssi) }
        if readings.count >= 2, let fix = fix(readings) {
            track.update(fix, at: time, acceleration: acceleration)
            tracks[beacon] = track
        }
        guard let point = track.point(at: time) else { return RoomEstimate(time: time, room: nil) }
        return RoomEstimate(time: time, room: site.roomName(containing: point, floor: 0), x: point.x, y: point.y)
    }

    /// The posterior mean and per-axis variance of the beacon's place from `readings` (gateway position,
    /// mean RSSI), the power at 1 m profiled out; nil without a grid.
    func fix(_ readings: [(gateway: Point2, rssi: Double)]) -> Fix? {
        guard !grid.isEmpty else { return nil }
        let count = Double(readings.count)
        var logLikelihoods = [Double](repeating: 0, count: grid.count)
        var best = -Double.infinity
        var estimates = [Double](repeating: 0, count: readings.count)
        for (index, point) in grid.enumerated() {
            for (j, reading) in readings.enumerated() {
                let dx = point.x - reading.gateway.x, dy = point.y - reading.gateway.y
                // Each reading plus the path loss there is an estimate of the power at 1 m.
                estimates[j] = reading.rssi + 5 * exponent * log10(max(dx * dx + dy * dy, 0.01))
            }
            let power = estimates.reduce(0, +) / count
            let squares = estimates.reduce(0) { $0 + ($1 - power) * ($1 - power) }
            logLikelihoods[index] = -0.5 * squares / (scatter * scatter)
            best = max(best, logLikelihoods[index])
        }
        var total = 0.0, mx = 0.0, my = 0.0, sxx = 0.0, syy = 0.0
        for (index, point) in grid.enumerated() {
            let w = exp(logLikelihoods[index] - best)
            total += w
            mx += w * point.x
            my += w * point.y
            sxx += w * point.x * point.x
            syy += w * point.y * point.y
        }
        mx /= total
        my /= total
        // A fix is never surer than the grid can say.
        let floor = Self.spacing * Self.spacing / 12
        return Fix(point: Point2(x: mx, y: my), varianceX: max(floor, sxx / total - mx * mx), varianceY: max(floor, syy / total - my * my))
    }

    /// A place from one tick's readings, and its variance along each axis (m²).
    struct Fix {
        var point: Point2
        var varianceX: Double
        var varianceY: Double
    }

    /// Position and velocity on both axes, each with its 2 × 2 covariance.
    struct Track {
        var axes: [Axis] = []
        var time: Timestamp?

        struct Axis {
            var position: Double, velocity: Double
            var pp: Double, pv: Double, vv: Double
        }

        /// Moves on to `at` and takes `fix`.
        mutating func update(_ fix: Fix, at: Timestamp, acceleration q: Double) {
            let measured = [(fix.point.x, fix.varianceX), (fix.point.y, fix.varianceY)]
            guard let last = time, axes.count == 2 else {
                // Where the first fix says, the speed unknown (1-σ 1 m/s).
                axes = measured.map { Axis(position: $0.0, velocity: 0, pp: $0.1, pv: 0, vv: 1) }
                time = at
                return
            }
            let dt = max(0, (at - last).seconds)
            for k in 0..<2 {
                var a = axes[k]
                // Predict: constant velocity, white acceleration.
                a.position += a.velocity * dt
                a.pp += 2 * dt * a.pv + dt * dt * a.vv + q * dt * dt * dt / 3
                a.pv += dt * a.vv + q * dt * dt / 2
                a.vv += q * dt
                // Update with the fix's position.
                let innovation = measured[k].0 - a.position, s = a.pp + measured[k].1
                let gainP = a.pp / s, gainV = a.pv / s
                a.position += gainP * innovation
                a.velocity += gainV * innovation
                (a.pp, a.pv, a.vv) = ((1 - gainP) * a.pp, (1 - gainP) * a.pv, a.vv - gainV * a.pv)
                axes[k] = a
            }
            time = at
        }

        /// The filtered place carried on to `at`; nil before the first fix.
        func point(at: Timestamp) -> Point2? {
            guard let time, axes.count == 2 else { return nil }
            let dt = max(0, (at - time).seconds)
            return Point2(x: axes[0].position + axes[0].velocity * dt, y: axes[1].position + axes[1].velocity * dt)
        }
    }
}
