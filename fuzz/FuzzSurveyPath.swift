import BeaconCore

// Survey path file decoder: never traps; a decoded walk has two or more points with finite
// coordinates and increasing times, places every time on itself, and every refusal is one line.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSurveyPath(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    do {
        let path = try SurveyPath.decode(fuzzInput(data, size))
        let waypoints = path.waypoints
        require(waypoints.count >= 2 && waypoints.count <= SurveyPath.maximumWaypoints, "\(waypoints.count) points")
        require(zip(waypoints, waypoints.dropFirst()).allSatisfy { $0.time < $1.time }, "times not increasing")
        require(path.length.isFinite && path.length >= 0 && path.stretchCount >= 1, "length \(path.length)")
        for step in 0...16 {
            let time = Micros(path.duration.value / 16 * Int64(step) + Int64(step == 16 ? path.duration.value % 16 : 0))
            let place = path.place(at: time)
            require(place.point.x.isFinite && place.point.y.isFinite, "non-finite place at \(time)")
            require(place.along >= 0 && place.along <= path.length + 1e-6 * max(path.length, 1), "along \(place.along) of \(path.length)")
            let stretch = path.stretch(along: place.along)
            require(stretch >= 0 && stretch < path.stretchCount, "stretch \(stretch) of \(path.stretchCount)")
        }
    } catch {
        require(!error.description.contains("\n"), "multi-line error: \(error)")
    }
    return 0
}
