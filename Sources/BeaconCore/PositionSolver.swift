// The C math library for log, as DistanceModel.swift uses it.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A gateway's estimate of its distance to a beacon.
public struct RangeObservation: Equatable, Sendable {
    /// The gateway's position, metres; `z` is its height above the floor.
    public var x: Double
    public var y: Double
    public var z: Double
    /// Metres from gateway to beacon.
    public var distance: Double
    /// The distance's 1-σ, metres (more than 0).
    public var sigma: Double

    public init(x: Double, y: Double, z: Double, distance: Double, sigma: Double) {
        self.x = x
        self.y = y
        self.z = z
        self.distance = distance
        self.sigma = sigma
    }
}

/// A beacon's position on a floor and how sure of it the estimate is.
public struct PositionFix: Equatable, Sendable {
    public var point: Point2
    /// 1-σ radius, metres.
    public var error: Double

    public init(point: Point2, error: Double) {
        self.point = point
        self.error = error
    }
}

/// Where a beacon is, from several gateways' distances: robust weighted least squares (Levenberg-Marquardt
/// on Cauchy-weighted residuals scaled by each distance's σ), started from several points, the best
/// kept; simpler answers for one or two gateway positions and when the gateways leave the position
/// undetermined.
public enum PositionSolver {
    /// The smallest error a fix claims, metres.
    public static let minimumError = 0.1
    /// Distances are clamped to 0...this, metres.
    public static let maximumDistance = 100.0
    /// The smallest error of a fix from one gateway position, metres.
    public static let minimumSingleGatewayError = 1.0
    /// Cauchy scale, in σ: 2.385 keeps 95 % efficiency on Gaussian residuals.
    static let cauchyScale = 2.385
    /// A weak pull to the gateways' centroid (precision per m²): keeps the normal equations solvable
    /// when the gateways are collinear, negligible otherwise.
    static let centroidPrior = 1e-6
    /// σ is taken as at least this and at most `maximumSigma`, metres, so weights stay finite.
    public static let minimumSigma = 0.001
    public static let maximumSigma = 1000.0
    /// Gateways closer together than this count as one position, metres.
    static let samePosition = 1e-3

    /// The position of a beacon `beaconHeight` above the floor, clamped to `bounds`; nil with no usable
    /// observation. Observations with a non-finite value, a gateway more than `Site.maximumCoordinate`
    /// from the origin on any axis, a negative distance or a σ not above 0 are ignored.
    public static func solve(_ observations: [RangeObservation], within bounds: (min: Point2, max: Point2),
                             start: Point2? = nil, beaconHeight: Double = 1.0) -> PositionFix? {
        let height = abs(beaconHeight) <= Site.maximumCoordinate ? beaconHeight : 1.0
        let usable = observations.compactMap { range(from: $0, beaconHeight: height) }
        guard !usable.isEmpty else { return nil }
        let box = Box(bounds)
        let centroid = weightedCentroid(usable)
        let positions = distinctPositions(usable)
        switch positions.count {
        case 1:
            return PositionFix(point: box.clamp(positions[0].point),
                               error: max(minimumSingleGatewayError, positions[0].horizontalDistance))
        case 2:
            return box.clamp(between(positions[0], positions[1]))
        default:
            var starts = [centroid, usable.min { $0.distance < $1.distance }!.point]
            if let start, start.x.isFinite, start.y.isFinite { starts.append(start) }
            let best = starts.map { refine(box.clamp($0), usable, centroid: centroid, box: box) }
                .min { $0.cost < $1.cost }!
            guard let error = error(at: best.point, usable, centroid: centroid) else {
                return PositionFix(point: box.clamp(centroid), error: centroidError(usable))
            }
            // Gateways on a line leave the side of it unknown: no worse than the distances themselves.
            return PositionFix(point: best.point, error: min(error, centroidError(usable)))
        }
    }

    /// An observation in the solver's terms: distance clamped, height difference to the beacon.
    struct Range {
        var point: Point2
        var dz: Double
        var distance: Double
        var sigma: Double

        /// The distance across the floor the slant distance implies.
        var horizontalDistance: Double { max(0, distance * distance - dz * dz).squareRoot() }

        func predicted(from p: Point2) -> (distance: Double, dx: Double, dy: Double) {
            let dx = p.x - point.x, dy = p.y - point.y
            return ((dx * dx + dy * dy + dz * dz).squareRoot(), dx, dy)
        }
    }

    private static func range(from o: RangeObservation, beaconHeight: Double) -> Range? {
        let limit = Site.maximumCoordinate
        guard abs(o.x) <= limit, abs(o.y) <= limit, abs(o.z) <= limit, o.distance.isFinite, o.distance >= 0,
              o.sigma.isFinite, o.sigma > 0 else { return nil }
        return Range(point: Point2(x: o.x, y: o.y), dz: o.z - beaconHeight,
                     distance: min(o.distance, maximumDistance), sigma: min(max(o.sigma, minimumSigma), maximumSigma))
    }

    /// The bounds, corners in order; a non-finite side does not clamp.
    struct Box {
        var low: Point2
        var high: Point2

        init(_ bounds: (min: Point2, max: Point2)) {
            low = Point2(x: Swift.min(bounds.min.x, bounds.max.x), y: Swift.min(bounds.min.y, bounds.max.y))
            high = Point2(x: Swift.max(bounds.min.x, bounds.max.x), y: Swift.max(bounds.min.y, bounds.max.y))
        }

        func clamp(_ p: Point2) -> Point2 {
            Point2(x: Box.clamp(p.x, low.x, high.x), y: Box.clamp(p.y, low.y, high.y))
        }

        func clamp(_ fix: PositionFix) -> PositionFix { PositionFix(point: clamp(fix.point), error: fix.error) }

        private static func clamp(_ v: Double, _ low: Double, _ high: Double) -> Double {
            var v = v
            if low.isFinite { v = Swift.max(v, low) }
            if high.isFinite { v = Swift.min(v, high) }
            return v
        }
    }

    /// Gateways weighted by closeness and confidence: 1 / (σ · distance), distances under 0.5 m as 0.5 m.
    static func weightedCentroid(_ ranges: [Range]) -> Point2 {
        var sum = 0.0, x = 0.0, y = 0.0
        for r in ranges {
            let w = 1 / (r.sigma * max(r.distance, 0.5))
            sum += w
            x += w * r.point.x
            y += w * r.point.y
        }
        return Point2(x: x / sum, y: y / sum)
    }

    private static func centroidError(_ ranges: [Range]) -> Double {
        max(minimumSingleGatewayError, ranges.map(\.horizontalDistance).reduce(0, +) / Double(ranges.count))
    }

    /// One range per gateway position: the inverse-variance mean of the distances measured from there.
    private static func distinctPositions(_ ranges: [Range]) -> [Range] {
        var merged: [(range: Range, weight: Double, weightedDistance: Double)] = []
        for r in ranges {
            let w = 1 / (r.sigma * r.sigma)
            if let i = merged.firstIndex(where: {
                abs($0.range.point.x - r.point.x) <= samePosition && abs($0.range.point.y - r.point.y) <= samePosition
            }) {
                merged[i].weight += w
                merged[i].weightedDistance += w * r.distance
            } else {
                merged.append((r, w, w * r.distance))
            }
        }
        return merged.map { entry in
            var range = entry.range
            range.distance = entry.weightedDistance / entry.weight
            range.sigma = 1 / entry.weight.squareRoot()
            return range
        }
    }

    /// The point between two gateway positions at the ratio of their distances; the error covers the
    /// circles' mismatch along the line and the offset across it where they meet.
    private static func between(_ a: Range, _ b: Range) -> PositionFix {
        let da = a.horizontalDistance, db = b.horizontalDistance
        let dx = b.point.x - a.point.x, dy = b.point.y - a.point.y
        let length = (dx * dx + dy * dy).squareRoot()
        let ratio = da + db > 0 ? da / (da + db) : 0.5
        let point = Point2(x: a.point.x + ratio * dx, y: a.point.y + ratio * dy)
        let along = ratio * length
        let across = max(0, da * da - along * along).squareRoot()
        let mismatch = abs(da + db - length) / 2
        return PositionFix(point: point, error: max(minimumError, (across * across + mismatch * mismatch).squareRoot()))
    }

    private static func cauchyCost(_ scaled: Double) -> Double {
        let c = cauchyScale
        return c * c / 2 * log1p((scaled / c) * (scaled / c))
    }

    /// Levenberg-Marquardt on the Cauchy-weighted residuals (weights refreshed every step), kept in the box.
    private static func refine(_ start: Point2, _ ranges: [Range], centroid: Point2, box: Box) -> (point: Point2, cost: Double) {
        var point = start
        var cost = totalCost(point, ranges, centroid: centroid)
        var damping = 1e-3
        for _ in 0..<100 {
            let system = normalEquations(at: point, ranges, centroid: centroid, robust: true)
            let h11 = system.h11 * (1 + damping), h22 = system.h22 * (1 + damping), h12 = system.h12
            let determinant = h11 * h22 - h12 * h12
            guard determinant.isFinite, determinant > 0 else { break }
            let stepX = -(h22 * system.g1 - h12 * system.g2) / determinant
            let stepY = -(h11 * system.g2 - h12 * system.g1) / determinant
            let candidate = box.clamp(Point2(x: point.x + stepX, y: point.y + stepY))
            let candidateCost = totalCost(candidate, ranges, centroid: centroid)
            if candidateCost.isFinite, candidateCost <= cost {
                let moved = abs(candidate.x - point.x) + abs(candidate.y - point.y)
                point = candidate
                cost = candidateCost
                damping = max(damping / 3, 1e-9)
                if moved < 1e-7 { break }
            } else {
                damping *= 4
                if damping > 1e8 { break }
            }
        }
        return (point, cost)
    }

    private static func totalCost(_ p: Point2, _ ranges: [Range], centroid: Point2) -> Double {
        var cost = 0.0
        for r in ranges {
            cost += cauchyCost((r.predicted(from: p).distance - r.distance) / r.sigma)
        }
        let ex = p.x - centroid.x, ey = p.y - centroid.y
        return cost + centroidPrior * (ex * ex + ey * ey) / 2
    }

    /// JᵀWJ (symmetric: h11, h12, h22) and JᵀWr at `p`, the centroid prior included; with `robust`, W
    /// holds the Cauchy weights, and `variance` is their robust residual variance (in σ², at least 1).
    private static func normalEquations(at p: Point2, _ ranges: [Range], centroid: Point2, robust: Bool)
        -> (h11: Double, h12: Double, h22: Double, g1: Double, g2: Double, variance: Double) {
        var h11 = centroidPrior, h12 = 0.0, h22 = centroidPrior
        var g1 = centroidPrior * (p.x - centroid.x), g2 = centroidPrior * (p.y - centroid.y)
        var weightedSquares = 0.0, weightSum = 0.0
        for r in ranges {
            let predicted = r.predicted(from: p)
            // At the gateway itself the direction is undefined; any unit direction serves.
            let norm = max(predicted.distance, 1e-9)
            let jx = predicted.distance > 1e-9 ? predicted.dx / norm : 0
            let jy = predicted.distance > 1e-9 ? predicted.dy / norm : 0
            let residual = predicted.distance - r.distance
            let scaled = residual / r.sigma
            let robustWeight = robust ? 1 / (1 + (scaled / cauchyScale) * (scaled / cauchyScale)) : 1
            let w = robustWeight / (r.sigma * r.sigma)
            h11 += w * jx * jx
            h12 += w * jx * jy
            h22 += w * jy * jy
            g1 += w * jx * residual
            g2 += w * jy * residual
            weightedSquares += robustWeight * scaled * scaled
            weightSum += robustWeight
        }
        let freedom = weightSum - 2
        let variance = freedom > 0.5 ? max(1, weightedSquares / freedom) : 1
        return (h11, h12, h22, g1, g2, variance)
    }

    /// √trace((JᵀWJ)⁻¹ · s²) at the solution, at least `minimumError`; nil when not finite.
    private static func error(at p: Point2, _ ranges: [Range], centroid: Point2) -> Double? {
        let system = normalEquations(at: p, ranges, centroid: centroid, robust: true)
        let determinant = system.h11 * system.h22 - system.h12 * system.h12
        guard determinant > 0 else { return nil }
        let trace = (system.h11 + system.h22) / determinant
        let error = (trace * system.variance).squareRoot()
        return error.isFinite ? max(minimumError, error) : nil
    }
}
