import BeaconCore

/// The lookups by name the room rules make of a site.
extension Site {
    func gateway(named name: String) -> SiteGateway? {
        gatewayIndex(named: name).map { gateways[$0] }
    }

    /// The gateway's room: the one it names, else the room its position is in.
    func roomName(of gateway: SiteGateway) -> String? {
        gateway.room ?? roomName(containing: gateway.point, floor: gateway.floor)
    }

    func roomName(ofGateway name: String) -> String? {
        gateway(named: name).flatMap(roomName(of:))
    }

    func roomName(containing point: Point2, floor: Int) -> String? {
        room(containing: point, floor: floor).map { rooms[$0].name }
    }
}
