#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A radio map per gateway from a survey (docs/survey.md): what the site's distance model (log-distance
/// path loss less the walls) gets wrong, learned where the survey measured it and predicted everywhere.
///
/// Each heard point's residual is its RSSI less the distance model's (at power 0 dBm at 1 m). A gateway's
/// median residual is its level: the survey beacon's power as that gateway hears it, its own gain included;
/// the gateway's level less the median level of all gateways is its offset, which holds everywhere on its
/// surveyed floors. What is left is interpolated by kriging (a Gaussian process) with the exponential
/// correlation shadowing follows indoors (Gudmundson's model) over `lengthScale`: at a surveyed point the
/// map says what was measured there (within its noise), between points it blends them, and further than a
/// few length scales from every point it falls back to the distance model and the offset, its variance
/// grown back to the shadowing's. Kriging uses the `neighbours` nearest bins (the points in one `binSize`
/// square pooled, by their median) of the place asked: nearer points screen the far ones, and the work
/// is bounded.
///
/// Points where a gateway heard nothing say only that the signal was below its sensitivity there; they
/// do not enter the map. The beacon's own power stays the position filter's to learn: the map gives
/// differences between places and gateways, so a louder or quieter beacon than the survey's is placed
/// as well.
///
/// The residuals are taken at the model's exponent, so where the survey reaches the map holds whatever
/// exponent the site has, and further away the model's again. Each prediction also says how the map
/// would have come out drawn at another exponent (`Prediction.exponentLeverage`), so the position
/// filter can hedge over the exponent where the map does not reach and not where it does.
public struct RadioMap: Sendable {
    /// How far the shadowing stays correlated, metres (indoors 1 to 3 m).
    public static let lengthScale = 2.0
    /// The points in one square of this side (on a grid) are pooled into one bin, metres.
    public static let binSize = 0.5
    /// Bins kriging uses for one place.
    static let neighbours = 24
    /// Most bins per gateway and floor; beyond it bins are made larger.
    static let maximumBins = 4096
    /// Variance of a place's RSSI about the map's local mean that no number of readings there averages
    /// away (fading over a few wavelengths, the beacon's orientation, people and doors since the survey),
    /// dB²: in every surveyed bin, and in every fresh reading.
    public static let localVariance = 4.0
    /// A point's spread when it gives none: one reading's scatter, dB.
    static let defaultSpread = 4.0
    /// Cells of a cached prediction per gateway and floor at most; the finest cell, metres.
    static let maximumCells = 16_384
    static let finestCell = 0.25
    /// Shadowing variance taken before a survey says otherwise, dB², and how many points that guess weighs.
    static let priorPoints = 5.0
    /// A point further than this from its bin's median, and than `contradictionSigmas` of its own noise,
    /// contradicts its neighbours, dB.
    public static let contradictionThreshold = 6.0
    static let contradictionSigmas = 3.5

    /// A surveyed point at odds with the points in its `binSize` square for the same gateway.
    public struct Contradiction: Equatable, Sendable {
        public var gateway: String
        public var point: Point2
        public var floor: Int
        public var rssi: Double
        /// The median RSSI of the points pooled with it.
        public var neighbours: Double
    }

    public let site: Site
    /// The variance of the shadowing the survey shows about the distance model, dB² (pooled over gateways).
    public let shadowingVariance: Double
    /// Per gateway of the site, its offset (dB) when the survey heard it.
    public let offsets: [Double?]
    /// Per gateway heard, how its offset moves with the exponent: the log square distance of the point
    /// its level is the median of, less that of the gateway whose level is the median of all.
    private let offsetLeverages: [Double?]
    public let contradictions: [Contradiction]
    /// Points of gateways the site does not have, by name.
    public let unknownGateways: [String: Int]
    /// Points where the gateway heard nothing.
    public let notHeard: Int
    /// Heard points used.
    public let heard: Int
    private var layers: [Layer]
    /// Per gateway, per floor, its layer.
    private let layerIndex: [[Int: Int]]

    public init(site: Site, survey: [SurveyPoint], model: SignalModel) {
        self.site = site
        var perGateway = [[(point: SurveyPoint, residual: Double, noise: Double, logSquare: Double)]](repeating: [], count: site.gateways.count)
        var unknown: [String: Int] = [:]
        var notHeard = 0
        for point in survey {
            guard let index = site.gatewayIndex(named: point.gateway) else {
                unknown[point.gateway, default: 0] += 1
                continue
            }
            guard let rssi = point.rssi else {
                notHeard += 1
                continue
            }
            let spread = point.spread ?? Self.defaultSpread
            // The median's own noise; `localVariance` is added per bin (pooling points does not average it away).
            let noise = spread * spread / Double(max(1, point.samples))
            let logSquare = Self.logSquare(site: site, gateway: index, at: point.point, floor: point.floor, model: model)
            let residual = rssi + Self.pathLoss(site: site, gateway: index, at: point.point, floor: point.floor, model: model)
            perGateway[index].append((point, residual, noise, logSquare))
        }
        unknownGateways = unknown
        self.notHeard = notHeard
        heard = perGateway.reduce(0) { $0 + $1.count }
        let levels = perGateway.map { points in points.isEmpty ? nil : Self.median(points.map(\.residual)) }
        let common = Self.median(levels.compactMap { $0 })
        offsets = levels.map { level in level.map { $0 - (common ?? 0) } }
        let leverages = perGateway.map { points in Self.medianLeverage(points.map { ($0.residual, $0.logSquare) }) }
        let commonLeverage = Self.medianLeverage(levels.indices.compactMap { index in levels[index].map { ($0, leverages[index] ?? 0) } })
        offsetLeverages = leverages.map { leverage in leverage.map { $0 - (commonLeverage ?? 0) } }
        // The shadowing: the residuals' robust variance less the points' own noise, shrunk towards the
        // distance model's scatter when there are few points.
        var deviations: [Double] = [], noises: [Double] = []
        for (index, points) in perGateway.enumerated() {
            guard let level = levels[index] else { continue }
            deviations += points.map { abs($0.residual - level) }
            noises += points.map { $0.noise + Self.localVariance }
        }
        let prior = max(1, model.scatter * model.scatter - Self.localVariance)
        if let mad = Self.median(deviations), let noise = Self.median(noises) {
            let measured = min(400, max(1, (1.4826 * mad) * (1.4826 * mad) - noise))
            let count = Double(deviations.count)
            shadowingVariance = (count * measured + Self.priorPoints * prior) / (count + Self.priorPoints)
        } else {
            shadowingVariance = prior
        }
        var layers: [Layer] = []
        var layerIndex = [[Int: Int]](repeating: [:], count: site.gateways.count)
        var contradictions: [Contradiction] = []
        for (index, points) in perGateway.enumerated() {
            guard let level = levels[index] else { continue }
            let floors = Dictionary(grouping: points, by: \.point.floor)
            for floor in floors.keys.sorted() {
                let (bins, odd) = Self.bins((floors[floor] ?? []).map { ($0.point, $0.residual - level, $0.noise, $0.logSquare - (leverages[index] ?? 0)) })
                contradictions += odd
                layerIndex[index][floor] = layers.count
                layers.append(Layer(bins: bins, box: Self.box(site: site, floor: floor, bins: bins)))
            }
        }
        self.layers = layers
        self.layerIndex = layerIndex
        self.contradictions = contradictions
    }

    /// Whether the survey heard gateway `index` on `floor`.
    public func covers(gateway index: Int, floor: Int) -> Bool {
        index >= 0 && index < layerIndex.count && layerIndex[index][floor] != nil
    }

    /// What the map says of one gateway's reading at one place.
    public struct Prediction: Equatable, Sendable {
        /// What the map adds to the distance model's RSSI there, dB.
        public var correction: Double
        /// The variance of a reading about the model plus the correction, dB².
        public var variance: Double
        /// How the correction would move were the map drawn at another exponent: by (m − 1) · s · this,
        /// for m times the model's exponent and s its dB per unit of log square distance (5 n / ln 10). At
        /// a surveyed point it follows that point's log square distance (the map holds the site's exponent
        /// there), far from every point the gateway level's; both less the median gateway level's, a shift
        /// common to every gateway.
        public var exponentLeverage: Double
    }

    /// What the map says of gateway `index`'s reading for a beacon at `point` on `floor`; nil where the
    /// survey did not hear the gateway on that floor (the distance model alone). Cached on a grid, the
    /// point taken at its cell's centre.
    public mutating func prediction(gateway index: Int, at point: Point2, floor: Int) -> Prediction? {
        guard index >= 0, index < layerIndex.count, let layer = layerIndex[index][floor], let offset = offsets[index],
              let offsetLeverage = offsetLeverages[index] else { return nil }
        let kriged = layers[layer].prediction(at: point, shadowing: shadowingVariance)
        return Prediction(correction: offset + kriged.mean, variance: kriged.variance + Self.localVariance,
                          exponentLeverage: offsetLeverage + kriged.leverage)
    }

    /// The distance model's loss (dB) from gateway `index` to a beacon at `point` on `floor`: what a
    /// reading plus it says of the beacon's power at 1 m. The same terms the position filter weighs.
    public static func pathLoss(site: Site, gateway index: Int, at point: Point2, floor: Int, model: SignalModel) -> Double {
        let gateway = site.gateways[index]
        let walls = site.loss(from: point, floor: floor, toGatewayAt: gateway.point, floor: gateway.floor)
        return 5 * model.exponent / log(10.0) * logSquare(site: site, gateway: index, at: point, floor: floor, model: model) + walls
    }

    /// The log of the squared distance (m²) from gateway `index` to a beacon at `point` on `floor`, the
    /// distance at least 0.1 m: what the distance model's loss scales with the exponent.
    static func logSquare(site: Site, gateway index: Int, at point: Point2, floor: Int, model: SignalModel) -> Double {
        let gateway = site.gateways[index]
        let dz = site.elevation(of: gateway.floor) + gateway.z - site.elevation(of: floor) - model.beaconHeight
        return log(max((point.x - gateway.x) * (point.x - gateway.x) + (point.y - gateway.y) * (point.y - gateway.y) + dz * dz, 0.01))
    }

    static func median(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : OrderStatistics.quantile(sorted: values.sorted(), 0.5)
    }

    /// How the median of `values` moves with the exponent, each value moving by its `leverage` per unit:
    /// the leverage of the value the median is (the mean of the two middle ones' for an even count).
    static func medianLeverage(_ values: [(value: Double, leverage: Double)]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted { $0.value < $1.value }
        return OrderStatistics.quantile(sorted: sorted.map(\.leverage), 0.5)
    }

    /// Points pooled on a grid of `binSize` (larger when there would be more than `maximumBins`): each bin
    /// at its points' mean place, with their median residual and its leverage, and their mean noise over
    /// their count (plus `localVariance`); and the points at odds with their bin.
    private static func bins(_ points: [(point: SurveyPoint, residual: Double, noise: Double, leverage: Double)]) -> ([Bin], [Contradiction]) {
        var size = binSize
        var groups: [[Int]] = []
        while true {
            var keyed: [SIMD2<Int64>: Int] = [:]
            groups = []
            for (index, point) in points.enumerated() {
                let key = SIMD2(Int64((point.point.point.x / size).rounded(.down)), Int64((point.point.point.y / size).rounded(.down)))
                if let group = keyed[key] {
                    groups[group].append(index)
                } else {
                    keyed[key] = groups.count
                    groups.append([index])
                }
            }
            if groups.count <= maximumBins { break }
            size *= 2
        }
        var bins: [Bin] = []
        var contradictions: [Contradiction] = []
        for group in groups {
            let residuals = group.map { points[$0].residual }
            let middle = median(residuals) ?? 0
            let count = Double(group.count)
            let x = group.reduce(0.0) { $0 + points[$1].point.point.x } / count
            let y = group.reduce(0.0) { $0 + points[$1].point.point.y } / count
            let noise = group.reduce(0.0) { $0 + points[$1].noise } / count
            let leverage = medianLeverage(group.map { (points[$0].residual, points[$0].leverage) }) ?? 0
            bins.append(Bin(point: Point2(x: x, y: y), residual: middle, leverage: leverage, noise: noise / count + localVariance))
            guard group.count >= 2 else { continue }
            let rssiMedian = median(group.compactMap { points[$0].point.rssi }) ?? 0
            for index in group {
                let deviation = abs(points[index].residual - middle)
                if deviation > contradictionThreshold, deviation > contradictionSigmas * (points[index].noise + localVariance).squareRoot() {
                    let point = points[index].point
                    contradictions.append(Contradiction(gateway: point.gateway, point: point.point, floor: point.floor,
                                                        rssi: point.rssi ?? 0, neighbours: rssiMedian))
                }
            }
        }
        return (bins, contradictions)
    }

    /// The box the predictions are cached over: the floor's rooms and gateways with the position filter's
    /// margin, and the bins.
    private static func box(site: Site, floor: Int, bins: [Bin]) -> (low: Point2, high: Point2) {
        var low = bins[0].point, high = bins[0].point
        for bin in bins {
            low = Point2(x: min(low.x, bin.point.x), y: min(low.y, bin.point.y))
            high = Point2(x: max(high.x, bin.point.x), y: max(high.y, bin.point.y))
        }
        if let bounds = site.bounds(floor: floor) {
            let margin = SiteMap.outsideMargin
            low = Point2(x: min(low.x, bounds.min.x - margin), y: min(low.y, bounds.min.y - margin))
            high = Point2(x: max(high.x, bounds.max.x + margin), y: max(high.y, bounds.max.y + margin))
        }
        return (low, high)
    }
}

/// A pooled survey point: where, its residual about the gateway's level, its leverage (its log square
/// distance less the level's: how the residual moves with the exponent), and the residual's variance.
private struct Bin: Sendable {
    var point: Point2
    var residual: Double
    var leverage: Double
    var noise: Double
}

/// One gateway's map on one floor: its bins, and the predictions worked out so far on a grid.
private struct Layer: Sendable {
    let bins: [Bin]
    let low: Point2
    let cellSize: Double
    let columns: Int
    let rows: Int
    /// Per cell, the kriged residual, its variance and the kriged leverage; NaN until asked (allocated
    /// when first asked).
    private var means: [Float] = []
    private var variances: [Float] = []
    private var leverages: [Float] = []

    init(bins: [Bin], box: (low: Point2, high: Point2)) {
        self.bins = bins
        low = box.low
        let width = max(box.high.x - box.low.x, 1e-6), height = max(box.high.y - box.low.y, 1e-6)
        cellSize = max(RadioMap.finestCell, (width * height / Double(RadioMap.maximumCells)).squareRoot())
        columns = max(1, min(RadioMap.maximumCells, Int((width / cellSize).rounded(.up))))
        rows = max(1, min(RadioMap.maximumCells / columns, Int((height / cellSize).rounded(.up))))
    }

    mutating func prediction(at point: Point2, shadowing: Double) -> Kriging.Estimate {
        func index(_ offset: Double, _ count: Int) -> Int {
            let value = (offset / cellSize).rounded(.down)
            guard value.isFinite, value > 0 else { return 0 }
            return value >= Double(count - 1) ? count - 1 : Int(value)
        }
        let column = index(point.x - low.x, columns), row = index(point.y - low.y, rows)
        let cell = row * columns + column
        if means.isEmpty {
            means = [Float](repeating: .nan, count: columns * rows)
            variances = means
            leverages = means
        }
        if !means[cell].isNaN {
            return Kriging.Estimate(mean: Double(means[cell]), variance: Double(variances[cell]), leverage: Double(leverages[cell]))
        }
        let centre = Point2(x: low.x + (Double(column) + 0.5) * cellSize, y: low.y + (Double(row) + 0.5) * cellSize)
        let estimate = Kriging.predict(at: centre, bins: bins, shadowing: shadowing)
        means[cell] = Float(estimate.mean)
        variances[cell] = Float(estimate.variance)
        leverages[cell] = Float(estimate.leverage)
        return estimate
    }
}

/// Simple kriging of zero-mean residuals with an exponential covariance, over the nearest bins.
private enum Kriging {
    /// The kriged residual and its variance, and the same weights applied to the bins' leverages.
    struct Estimate {
        var mean: Double
        var variance: Double
        var leverage: Double
    }

    static func predict(at point: Point2, bins: [Bin], shadowing: Double) -> Estimate {
        let nearest = nearestBins(to: point, bins: bins, count: RadioMap.neighbours)
        let n = nearest.count
        func covariance(_ a: Point2, _ b: Point2) -> Double { shadowing * exp(-a.distance(to: b) / RadioMap.lengthScale) }
        // The bins' covariance with their noise on the diagonal (and a little more, for a matrix that always factors).
        var matrix = [Double](repeating: 0, count: n * n)
        for i in 0..<n {
            for j in 0...i {
                let value = covariance(bins[nearest[i]].point, bins[nearest[j]].point)
                matrix[i * n + j] = value
                matrix[j * n + i] = value
            }
            matrix[i * n + i] += bins[nearest[i]].noise + 1e-6 * shadowing
        }
        guard cholesky(&matrix, n) else { return Estimate(mean: 0, variance: shadowing, leverage: 0) }
        let towards = nearest.map { covariance(point, bins[$0].point) }
        // L w = k, L z = r: mean kᵀ A⁻¹ r = w·z, variance σ² − w·w.
        let w = forward(matrix, n, towards)
        let z = forward(matrix, n, nearest.map { bins[$0].residual })
        let zLeverage = forward(matrix, n, nearest.map { bins[$0].leverage })
        var mean = 0.0, explained = 0.0, leverage = 0.0
        for i in 0..<n {
            mean += w[i] * z[i]
            explained += w[i] * w[i]
            leverage += w[i] * zLeverage[i]
        }
        return Estimate(mean: mean, variance: max(0, shadowing - explained), leverage: leverage)
    }

    /// Indices of the `count` bins nearest `point`, nearest first.
    static func nearestBins(to point: Point2, bins: [Bin], count: Int) -> [Int] {
        var chosen: [(distance: Double, index: Int)] = []
        chosen.reserveCapacity(count + 1)
        for (index, bin) in bins.enumerated() {
            let dx = bin.point.x - point.x, dy = bin.point.y - point.y
            let distance = dx * dx + dy * dy
            if chosen.count == count, let last = chosen.last, distance >= last.distance { continue }
            let position = chosen.firstIndex { $0.distance > distance } ?? chosen.count
            chosen.insert((distance, index), at: position)
            if chosen.count > count { chosen.removeLast() }
        }
        return chosen.map(\.index)
    }

    /// In place, the lower Cholesky factor of the symmetric positive-definite `n`×`n` matrix; false if it is not.
    static func cholesky(_ a: inout [Double], _ n: Int) -> Bool {
        for j in 0..<n {
            var diagonal = a[j * n + j]
            for k in 0..<j { diagonal -= a[j * n + k] * a[j * n + k] }
            guard diagonal > 0, diagonal.isFinite else { return false }
            let root = diagonal.squareRoot()
            a[j * n + j] = root
            for i in (j + 1)..<max(j + 1, n) {
                var value = a[i * n + j]
                for k in 0..<j { value -= a[i * n + k] * a[j * n + k] }
                a[i * n + j] = value / root
            }
        }
        return true
    }

    /// Solves L x = b for the lower factor `l`.
    static func forward(_ l: [Double], _ n: Int, _ b: [Double]) -> [Double] {
        var x = b
        for i in 0..<n {
            var value = x[i]
            for k in 0..<i { value -= l[i * n + k] * x[k] }
            x[i] = value / l[i * n + i]
        }
        return x
    }
}
