import BeaconCore

/// Home Assistant's mqtt_room sensor (homeassistant/components/mqtt_room/sensor.py, `message_received`):
/// a message replaces the beacon's room and distance when it comes from the current room, or is closer than
/// the current distance, or the current state was last updated `timeout` or more ago (default 5 s, the
/// `timeout` option in the integration's documentation). A same-room message replaces the distance even when
/// it is further. With `away_timeout` at its default 0 the room is kept however old it is.
///
/// mqtt_room's room is the topic a scanner publishes on; here it is the room of the reading's gateway, so two
/// gateways in one room count as one source, as two ESPresense nodes named after the same room do.
public struct MQTTRoomRule: DistanceRoomRule {
    public let name = "mqtt_room"
    public let site: Site
    public let timeout: Micros

    private struct State {
        var room: String
        var distance: Double
        var updated: Timestamp
    }
    private var states: [String: State] = [:]

    public init(site: Site, timeout: Micros = .seconds(5)) {
        self.site = site
        self.timeout = timeout
    }

    public mutating func add(_ reading: RoomReading) {
        guard let room = site.roomName(ofGateway: reading.gateway) else { return }
        let next = State(room: room, distance: reading.distance, updated: reading.time)
        guard let current = states[reading.beacon] else {
            states[reading.beacon] = next
            return
        }
        if room == current.room || reading.distance < current.distance || reading.time - current.updated >= timeout {
            states[reading.beacon] = next
        }
    }

    public mutating func estimate(of beacon: String, at time: Timestamp) -> RoomEstimate {
        RoomEstimate(time: time, room: states[beacon]?.room)
    }
}
