/// Each gateway's RSSI offset (dB it reads above the signal model), learned online from the beacons'
/// own readings: no survey and no gateway beacons needed. A walking beacon placed confidently (heard by
/// three gateways or more, a small error radius) says, for each gateway, how far its reading lies from
/// the model's prediction at the beacon's estimate with the beacon's learned power; those residuals,
/// forgotten with a half-life and bounded per window, pull a prior N(0, `priorSpread`²) towards the
/// gateway's offset. A beacon standing still adds nothing: its place absorbs the offsets, and what its
/// residuals keep is the model's own misfit there, not the gateways'.
///
/// Only the differences between gateways are learned: a shift common to all of them is the beacons'
/// power, so the offsets are taken about the mean of the learning gateways' posteriors. An offset is used
/// once its posterior is sure enough (`usableSpread`), less its own 1-σ towards zero, so a gateway that
/// reads as the model says is left at 0 rather than at its noise. The residuals are taken at the
/// posterior estimate, which the readings have already pulled towards fitting the offset, so they
/// understate it: the learned offset errs towards zero, on the safe side.
public struct ReceiverOffsets: Equatable, Sendable {
    /// The prior's 1-σ, dB: receivers differ by a few dB (hardware, mounting, enclosure).
    public static let priorSpread = 4.0
    /// Evidence halves in this many seconds, so a gateway moved or re-mounted is followed.
    public static let halfLife = 300.0
    /// An offset is used once its posterior 1-σ is this small, dB.
    public static let usableSpread = 1.0
    /// A beacon counts only when placed within this radius (1-σ, metres).
    public static let maximumError = 1.5
    /// A beacon counts only when heard by this many gateways of its floor.
    public static let minimumGateways = 3
    /// A residual counts at most this far from zero, dB: a hostile or broken reading moves an offset
    /// by a bounded amount.
    public static let largestResidual = 12.0

    /// Per gateway, the residuals so far; a window adds at most one reading's worth at the model's scatter.
    private var evidence: ForgottenEvidence<Int>
    /// Gateways that learn (the others have an offset of their own: a calibration or a survey).
    private var learns: [Bool]

    public init(gateways: Int, scatter: Double) {
        evidence = ForgottenEvidence(halfLife: Self.halfLife, windowCap: 1 / max(0.25, scatter * scatter))
        learns = [Bool](repeating: true, count: gateways)
    }

    /// Whether gateway `index` learns an offset.
    public func learns(_ index: Int) -> Bool { learns.indices.contains(index) && learns[index] }

    /// Whether gateway `index` learns an offset (false: it has one of its own, and its evidence is dropped).
    public mutating func setLearning(_ index: Int, _ value: Bool) {
        guard learns.indices.contains(index), learns[index] != value else { return }
        learns[index] = value
        evidence.drop(index)
    }

    /// One confidently placed beacon's residual at gateway `index`: its reading less the model's
    /// prediction without any offset (dB), with that residual's variance (dB²).
    public mutating func add(gateway index: Int, residual: Double, variance: Double) {
        guard learns.indices.contains(index), learns[index], residual.isFinite, variance.isFinite, variance > 0 else { return }
        evidence.add(index, value: min(Self.largestResidual, max(-Self.largestResidual, residual)), variance: variance)
    }

    /// Closes the window ending at `time` (`ForgottenEvidence.close`).
    public mutating func close(at time: Timestamp) {
        evidence.close(at: time)
    }

    /// Gateway `index`'s posterior 1-σ, dB.
    public func spread(_ index: Int) -> Double {
        (1 / ((evidence.precision[index] ?? 0) + 1 / (Self.priorSpread * Self.priorSpread))).squareRoot()
    }

    /// The offsets in use, by gateway: for each learning gateway sure enough (`usableSpread`), its
    /// posterior mean less the mean of every learning gateway's (sure or not, so one's becoming sure or
    /// unsure moves no other), shrunk by its 1-σ towards zero; nil for the others.
    public var offsets: [Double?] {
        let prior = 1 / (Self.priorSpread * Self.priorSpread)
        let means = learns.indices.map { (evidence.weighted[$0] ?? 0) / ((evidence.precision[$0] ?? 0) + prior) }
        let learning = means.indices.filter { learns[$0] }
        guard !learning.isEmpty else { return means.map { _ in nil } }
        let centre = learning.reduce(0) { $0 + means[$1] } / Double(learning.count)
        return means.indices.map { index in
            guard learns[index], spread(index) <= Self.usableSpread else { return nil }
            let mean = means[index] - centre, doubt = spread(index)
            return mean > 0 ? max(0, mean - doubt) : min(0, mean + doubt)
        }
    }
}
