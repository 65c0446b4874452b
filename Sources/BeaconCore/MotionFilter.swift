/// Smooths a beacon's fixes over time: a constant-velocity Kalman filter in 2-D tuned for people
/// walking, with their speed capped at `maximumSpeed`.
///
/// The two axes share one covariance (the noise is the same in every direction), so the state is a
/// position and velocity per axis and one 2×2 covariance of (position, velocity).
public struct MotionFilter: Sendable {
    /// Fastest a beacon is taken to move, metres per second: brisk walking.
    public static let maximumSpeed = 2.0
    /// Process noise: 1-σ of the acceleration, metres per second².
    public static let accelerationSigma = 1.0

    private var position = Point2(x: 0, y: 0)
    private var velocityX = 0.0
    private var velocityY = 0.0
    /// Per-axis covariance of (position, velocity).
    private var positionVariance = 0.0
    private var covariance = 0.0
    private var velocityVariance = 0.0
    private var time: Micros?

    public init() {}

    /// The current estimate; nil before the first fix.
    public var current: PositionFix? {
        guard time != nil else { return nil }
        // Error as PositionSolver gives it: the square root of the position covariance's trace.
        return PositionFix(point: position, error: (2 * positionVariance).squareRoot())
    }

    /// Metres per second along x and y.
    public var velocity: (x: Double, y: Double) { (velocityX, velocityY) }

    /// Takes a fix made at `time` and returns the estimate after it. The first fix is taken as it is. A
    /// fix no later than the one before, or with a non-finite point or error, changes nothing: the
    /// current estimate is returned (before the first fix, the fix itself). A fix farther away than the
    /// speed cap allows moves the estimate at most `maximumSpeed` × the time since the last fix, plus
    /// the estimate's error before it.
    public mutating func update(fix: PositionFix, at time: Micros) -> PositionFix {
        guard fix.point.x.isFinite, fix.point.y.isFinite, fix.error.isFinite else { return current ?? fix }
        // Each axis holds half the variance of a fix's error radius.
        let measurementVariance = max(fix.error * fix.error / 2, 1e-6)
        guard let last = self.time else {
            self.time = time
            position = fix.point
            positionVariance = measurementVariance
            velocityVariance = Self.maximumSpeed * Self.maximumSpeed
            return fix
        }
        guard time > last else { return current! }
        self.time = time
        // In Double: the difference of two far-apart times may not fit an Int64.
        let dt = (Double(time.value) - Double(last.value)) / 1_000_000
        let allowance = (2 * positionVariance).squareRoot()

        // Predict: constant velocity, white acceleration noise.
        let previous = position
        let q = Self.accelerationSigma * Self.accelerationSigma
        position = Point2(x: position.x + velocityX * dt, y: position.y + velocityY * dt)
        let predictedPosition = positionVariance + 2 * dt * covariance + dt * dt * velocityVariance + q * dt * dt * dt * dt / 4
        let predictedCovariance = covariance + dt * velocityVariance + q * dt * dt * dt / 2
        let predictedVelocity = velocityVariance + q * dt * dt

        // Update with the fix.
        let innovationVariance = predictedPosition + measurementVariance
        let positionGain = predictedPosition / innovationVariance
        let velocityGain = predictedCovariance / innovationVariance
        let innovationX = fix.point.x - position.x, innovationY = fix.point.y - position.y
        position = Point2(x: position.x + positionGain * innovationX, y: position.y + positionGain * innovationY)
        velocityX += velocityGain * innovationX
        velocityY += velocityGain * innovationY
        positionVariance = (1 - positionGain) * predictedPosition
        covariance = (1 - positionGain) * predictedCovariance
        // The speed cap bounds the velocity's spread too; the covariance shrinks with it.
        velocityVariance = min(predictedVelocity - velocityGain * predictedCovariance, Self.maximumSpeed * Self.maximumSpeed)
        let largestCovariance = (positionVariance * velocityVariance).squareRoot()
        covariance = min(max(covariance, -largestCovariance), largestCovariance)

        position = Self.limitMove(from: previous, to: position, by: Self.maximumSpeed * dt + allowance)
        (velocityX, velocityY) = Self.limit(velocityX, velocityY, to: Self.maximumSpeed)
        return current!
    }

    private static func limitMove(from a: Point2, to b: Point2, by distance: Double) -> Point2 {
        let (dx, dy) = limit(b.x - a.x, b.y - a.y, to: distance)
        return Point2(x: a.x + dx, y: a.y + dy)
    }

    /// The vector scaled down to `length` when it is longer.
    private static func limit(_ x: Double, _ y: Double, to length: Double) -> (Double, Double) {
        let magnitude = (x * x + y * y).squareRoot()
        guard magnitude > length, magnitude > 0 else { return (x, y) }
        return (x * length / magnitude, y * length / magnitude)
    }
}
