import BeaconCore

// `range --site-fit` file parser: never traps, every refusal is one line naming where, what is read is
// within the documented ranges, and the room model it narrows stays a model that ranges to finite
// distances.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSiteFit(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let prior: SitePrior
    do {
        prior = try SitePrior.decode(fuzzInput(data, size))
    } catch {
        require(!error.description.isEmpty && !error.description.contains("\n") && !error.description.contains("\r"),
                "not a one-line error: \(error)")
        require(error.line >= 0 && error.line <= size + 1, "a line beyond the input: \(error.line)")
        return 0
    }
    require(PathLossFit.plausibleExponents.contains(prior.exponent), "exponent \(prior.exponent) read")
    require(SitePrior.plausibleDeviations.contains(prior.exponentDeviation), "deviation \(prior.exponentDeviation) read")
    require(SitePrior.plausibleWeights.contains(prior.weight), "weight \(prior.weight) read")
    let room = RoomPrior().narrowed(by: prior)
    require(room.exponents.lowerBound.isFinite && room.exponents.upperBound.isFinite
            && PathLossFit.plausibleExponents.contains(room.exponents.lowerBound)
            && PathLossFit.plausibleExponents.contains(room.exponents.upperBound), "narrowed to \(room.exponents)")
    for attenuation in [-30.0, 0, 20, 60, 120] {
        let distance = room.medianDistance(attenuation: attenuation)
        require(distance.isFinite && distance > 0, "distance \(distance) at \(attenuation) dB with \(room.exponents)")
    }
    return 0
}
