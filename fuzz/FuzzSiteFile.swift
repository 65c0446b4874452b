import BeaconCore

// Site file decoder: never traps; a decoded site keeps its limits and finite coordinates, answers its
// queries without trapping, and every refusal is one line.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSiteFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    do {
        let site = try Site.decode(fuzzInput(data, size))
        require(site.rooms.count <= Site.maximumRooms && site.gateways.count <= Site.maximumGateways, "over a limit")
        for gateway in site.gateways {
            require(gateway.x.isFinite && gateway.y.isFinite && gateway.z.isFinite, "non-finite gateway \(gateway.name)")
            require(site.gatewayIndex(named: gateway.name) != nil, "gateway \(gateway.name) not found by name")
            require(gateway.room == nil || site.rooms.contains { $0.name == gateway.room }, "gateway in no room")
            _ = site.room(containing: gateway.point, floor: gateway.floor)
            require(site.bounds(floor: gateway.floor) != nil, "no bounds around a gateway's floor")
        }
        for room in site.rooms {
            require(room.polygon.count >= 3 && room.centre.x.isFinite && room.centre.y.isFinite, "bad room \(room.name)")
        }
        if let first = site.gateways.first, let last = site.gateways.last {
            require(site.wallsCrossed(from: first.point, to: last.point, floor: first.floor).isFinite, "non-finite attenuation")
        }
    } catch {
        require(!error.description.contains("\n"), "multi-line error: \(error)")
    }
    return 0
}
