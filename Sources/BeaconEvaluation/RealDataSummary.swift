/// The summary figure on the real data: beacon default's median error as a fraction of AltBeacon
/// default's, both as the mean over files of the per-file medians and over all files' ticks pooled.
public struct RealDataSummary: Sendable {
    public var files: Int
    public var defaultMeanOfMedians: Double
    public var altBeaconMeanOfMedians: Double
    public var defaultPooled: Double
    public var altBeaconPooled: Double

    /// The target: beacon default's median error at most this fraction of AltBeacon default's.
    public static let target = 2.0 / 3.0

    public var meanOfMediansRatio: Double { defaultMeanOfMedians / altBeaconMeanOfMedians }
    public var pooledRatio: Double { defaultPooled / altBeaconPooled }
    public var isMet: Bool { meanOfMediansRatio <= Self.target && pooledRatio <= Self.target }

    /// Nil when either model has no scored tick.
    public init?(_ results: [ResearchEvaluation.FileResult]) {
        func errors(_ model: String) -> [[Double]] {
            results.compactMap { result in
                result.models.firstIndex { $0.name == model }.map { result.ticks[$0].map(\.absoluteError) }
            }
        }
        let ours = errors(EvalModel.beaconDefaultName).filter { !$0.isEmpty }
        let theirs = errors(EvalModel.altBeaconDefaultName).filter { !$0.isEmpty }
        guard !ours.isEmpty, ours.count == theirs.count,
              let a = Statistics.mean(ours.compactMap(Statistics.median)), let b = Statistics.mean(theirs.compactMap(Statistics.median)),
              let c = Statistics.median(ours.flatMap { $0 }), let d = Statistics.median(theirs.flatMap { $0 }),
              b > 0, d > 0 else { return nil }
        files = ours.count
        defaultMeanOfMedians = a
        altBeaconMeanOfMedians = b
        defaultPooled = c
        altBeaconPooled = d
    }

    public var text: String {
        func m(_ v: Double) -> String { Fixed.text(v, decimals: 3) + " m" }
        func r(_ v: Double) -> String { Fixed.text(v, decimals: 3) }
        return """
        Summary, real data (\(files) files): beacon default's median error as a fraction of AltBeacon default's
          mean of per-file medians: \(m(defaultMeanOfMedians)) / \(m(altBeaconMeanOfMedians)) = \(r(meanOfMediansRatio))
          pooled over all files:    \(m(defaultPooled)) / \(m(altBeaconPooled)) = \(r(pooledRatio))
          target <= 2/3 (\(r(Self.target))): \(isMet ? "met" : "NOT MET")
        """
    }
}
