/// What the slabs the site file does not describe lose, learned online from the beacons' own readings,
/// as `ReceiverOffsets` learns the gateways' offsets: a beacon placed confidently on its floor by three
/// gateways there or more says, for each other floor whose gateways hear it, how much less their readings
/// say of its power at 1 m than its own floor's gateways' do (means over each floor's gateways: one slab,
/// one loss; the power itself drops out). Those losses, forgotten
/// with a half-life and bounded per window, pull a prior N(0, doubt²) (`SignalModel.slabDoubt` per
/// unknown slab) towards the slabs' loss; once sure enough, the filter takes the loss as known up to its
/// posterior 1-σ, and the gateways beyond help place the beacon by their level too.
public struct SlabLosses: Equatable, Sendable {
    /// A loss is used once its posterior 1-σ is this small, dB.
    public static let usableSpread = 2.0
    /// Evidence halves in this many seconds.
    public static let halfLife = ReceiverOffsets.halfLife
    /// A window's loss counts at most this far from zero, dB: slabs lose up to about 25.
    public static let largestLoss = 40.0

    /// The floors between which a loss is learned, lower first.
    public struct Floors: Hashable, Sendable {
        public var lower: Int
        public var upper: Int

        public init(_ a: Int, _ b: Int) {
            lower = min(a, b)
            upper = max(a, b)
        }
    }

    /// Per pair of floors, the losses so far; a window adds at most one reading's worth at the model's scatter.
    private var evidence: ForgottenEvidence<Floors>

    public init(scatter: Double) {
        evidence = ForgottenEvidence(halfLife: Self.halfLife, windowCap: 1 / max(0.25, scatter * scatter))
    }

    /// One confidently placed beacon's loss through the unknown slabs between `floors` (dB: its own floor's
    /// gateways' mean estimate of its power at 1 m less the other floor's), with that difference's variance
    /// (dB²).
    public mutating func add(_ floors: Floors, loss: Double, variance: Double) {
        guard floors.lower != floors.upper, loss.isFinite, variance.isFinite, variance > 0 else { return }
        evidence.add(floors, value: min(Self.largestLoss, max(-Self.largestLoss, loss)), variance: variance)
    }

    /// Closes the window ending at `time` (`ForgottenEvidence.close`).
    public mutating func close(at time: Timestamp) {
        evidence.close(at: time)
    }

    /// The pairs of floors with evidence.
    public var pairs: [Floors] { Array(evidence.precision.keys) }

    /// The loss between `floors` and its 1-σ (dB), under a prior of 1-σ `doubt` about 0; nil until the
    /// 1-σ is `usableSpread` or less.
    public func loss(_ floors: Floors, doubt: Double) -> (mean: Double, spread: Double)? {
        guard let sum = evidence.precision[floors], sum > 0, doubt > 0 else { return nil }
        let total = sum + 1 / (doubt * doubt)
        let spread = (1 / total).squareRoot()
        guard spread <= Self.usableSpread else { return nil }
        return ((evidence.weighted[floors] ?? 0) / total, spread)
    }
}
