import BeaconCore

/// One row of a scene's ground truth: a plain scene's (`GroundTruth`) or a site scene's (`SiteTruth`).
public enum TruthRow: Hashable, Sendable {
    case receiver(GroundTruth)
    case site(SiteTruth)

    public var time: Timestamp {
        switch self {
        case .receiver(let row): row.time
        case .site(let row): row.time
        }
    }

    public var elapsed: Micros {
        switch self {
        case .receiver(let row): row.elapsed
        case .site(let row): row.elapsed
        }
    }

    /// The row as one line of a ground-truth file, without the newline: `regions` are a plain scene's,
    /// `gatewayNames` a site scene's gateways' names in the site's order.
    public func jsonLine(regions: [NamedRegion], gatewayNames: [String]) -> String {
        switch self {
        case .receiver(let row): row.jsonLine(regions: regions)
        case .site(let row): row.jsonLine(gatewayNames: gatewayNames)
        }
    }
}
