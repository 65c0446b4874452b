import BeaconCore

// Survey file decoder and the radio map made of it: never traps; decoded points keep their bounds, the map's
// predictions (and how they move with the exponent) are finite with a variance that is never negative, and every
// refusal is one line.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSurveyFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    do {
        let file = try SurveyFile.decode(fuzzInput(data, size))
        require(file.points.count <= SurveyFile.maximumPoints, "over the point limit")
        for point in file.points {
            require(abs(point.point.x) <= Site.maximumCoordinate && abs(point.point.y) <= Site.maximumCoordinate, "coordinate out of bounds")
            require(point.rssi.map { SurveyFile.rssiRange.contains($0) } ?? (point.samples == 0), "rssi or samples out of bounds")
            require(point.spread.map { $0.isFinite && $0 >= 0 } ?? true, "bad spread")
        }
        _ = file.ignoredMembersWarning
        var map = RadioMap(site: fuzzSite, survey: file.points, model: SignalModel())
        for (index, gateway) in fuzzSite.gateways.enumerated() {
            for point in file.points.prefix(8).map(\.point) + [gateway.point, Point2(x: 1e4, y: -1e4)] {
                guard let prediction = map.prediction(gateway: index, at: point, floor: 0) else { continue }
                require(prediction.correction.isFinite && prediction.variance.isFinite && prediction.variance >= 0
                            && prediction.exponentLeverage.isFinite,
                        "prediction \(prediction) at \(point)")
            }
        }
    } catch {
        require(!error.description.contains("\n") && !error.inFile("f").contains("\n"), "multi-line error: \(error)")
    }
    return 0
}

/// Two gateways in one room with a wall between: the names a fuzzed survey can hit ("a", "b").
let fuzzSite = Site(rooms: [Room(name: "r", polygon: [Point2(x: 0, y: 0), Point2(x: 8, y: 0), Point2(x: 8, y: 6), Point2(x: 0, y: 6)])],
                    gateways: [SiteGateway(name: "a", x: 1, y: 1), SiteGateway(name: "b", x: 7, y: 5, z: 2)],
                    walls: [Wall(from: Point2(x: 4, y: 0), to: Point2(x: 4, y: 4))])
