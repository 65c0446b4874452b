/// What `beacon calibrate` reports.
public enum CalibrationOutput: Sendable {
    /// One beacon measured at one distance.
    case calibration(time: Timestamp, identity: IBeaconID, address: DeviceAddress, advertisedPower: Int8,
                     sample: CalibrationSample)
    /// A path-loss model fitted to calibrations at several distances.
    case fit(time: Timestamp, PathLossFit)
}

extension OutputLine {
    /// Decimals of a fitted path-loss exponent, as `--path-loss-exponent` takes it.
    public static let exponentDecimals = 2
    /// Decimals of a fit's prior weight: every one of `PathLossFit.priorWeights` exactly.
    public static let weightDecimals = 4

    /// `{"event":"calibration",…}` and `{"event":"fit",…}` lines (docs/output.md).
    public static func encode(_ output: CalibrationOutput) -> String {
        var w = JSONWriter()
        w.object { o in
            switch output {
            case let .calibration(time, identity, address, advertisedPower, sample):
                o.field("event", "calibration")
                o.field("time", time)
                o.field("uuid", identity.uuid)
                o.field("major", identity.major)
                o.field("minor", identity.minor)
                o.field("address", address)
                o.field("distance", sample.distance, decimals: metresDecimals)
                o.field("samples", sample.count)
                o.field("rssi", sample.median, decimals: rssiDecimals)
                o.field("spread", sample.spread, decimals: spreadDecimals)
                o.field("advertisedMeasuredPower", advertisedPower)
                // At 1 m the median is the calibration itself; elsewhere it takes a fit to say.
                if sample.distance == 1 {
                    let power = MeasuredPowerAtOneMetre.flag(sample.median)
                    o.field("measuredPower", power)
                    o.field("flags", "--measured-power \(power)")
                }
            case let .fit(time, fit):
                let power = MeasuredPowerAtOneMetre.flag(fit.measuredPower)
                let exponent = JSONWriter.fixed(fit.exponent, decimals: exponentDecimals)
                o.field("event", "fit")
                o.field("time", time)
                o.field("samples", fit.samples)
                o.field("pathLossExponent", fit.exponent, decimals: exponentDecimals)
                o.field("exponentDeviation", fit.exponentDeviation, decimals: exponentDecimals)
                o.field("measuredPower", power)
                o.field("measuredPowerDeviation", fit.measuredPowerDeviation, decimals: spreadDecimals)
                o.field("residual", fit.residual, decimals: spreadDecimals)
                o.field("priorWeight", fit.priorWeight, decimals: weightDecimals)
                o.field("flags", "--path-loss-exponent \(exponent) --measured-power \(power)")
            }
        }
        return w.text
    }
}
