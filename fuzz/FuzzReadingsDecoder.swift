import BeaconCore

// A gateway's readings message from the broker: never traps, every refusal is one line, what is read is
// within the documented bounds and reads back from its own JSON, and the fuser takes it without
// printing a non-finite number.

private let site = Site(rooms: [Room(name: "hall", polygon: [Point2(x: 0, y: 0), Point2(x: 4, y: 0), Point2(x: 4, y: 4), Point2(x: 0, y: 4)])],
                        gateways: [SiteGateway(name: "gw1", x: 0, y: 0, room: "hall"), SiteGateway(name: "gw2", x: 4, y: 4)])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReadingsDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    let message: GatewayReadings
    do {
        message = try GatewayReadings.decode(bytes, gateway: "gw1")
    } catch {
        require(!error.description.isEmpty && !error.description.contains("\n") && !error.description.contains("\r"),
                "not a one-line error: \(error)")
        return 0
    }
    require(message.gateway == "gw1", "another gateway's message read: \(message.gateway)")
    require(message.sequence >= 1 && message.readings.count <= GatewayReadings.maximumBeacons, "out of bounds: \(message.sequence)")
    for reading in message.readings {
        require([reading.rssi, reading.filteredRSSI, reading.spread, reading.accuracy].allSatisfy(\.isFinite), "non-finite reading")
        require(reading.accuracy >= 0 || reading.accuracy == -1, "negative distance \(reading.accuracy)")
    }
    let text = message.json
    guard let again = try? GatewayReadings.decode(Array(text.utf8), gateway: "gw1") else {
        require(false, "its own JSON refused: \(text)")
        return 0
    }
    require(again.json == text, "read back differently: \(text) / \(again.json)")

    var locator = Locator(site: site)
    var lines: [String] = []
    _ = locator.receive(message, arrival: message.time)
    _ = locator.receive(GatewayReadings(gateway: "gw2", time: message.time + .seconds(40), sequence: 1, readings: message.readings),
                        arrival: message.time)
    locator.advance(arrival: message.time) { lines.append($0.json) }
    locator.finish { lines.append($0.json) }
    for line in lines {
        require(!line.contains("nan") && !line.contains("inf"), "non-finite number printed: \(line)")
    }
    return 0
}
