import BeaconCore
@testable import BeaconMQTT
import Testing

@Suite("MQTT topics of range lines")
struct MonitorTopicsTests {
    let uuid = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
    let time = Timestamp(microseconds: 1_000_000)

    func beacon(minor: UInt16, accuracy: Double) -> RangedBeacon {
        RangedBeacon(identity: IBeaconID(uuid: uuid, major: 1, minor: minor), rssi: -60, measuredPower: -59,
                     accuracy: accuracy, proximity: .near, address: DeviceAddress(value: 1), addressType: .publicDevice,
                     samples: 3, lastSeen: time)
    }

    @Test("state is retained as a word; unknown is not published")
    func state() {
        let topics = MonitorTopics(prefix: "site", room: nil)
        let kitchen = BeaconRegion(name: "kitchen", uuid: uuid, major: 1)
        #expect(topics.messages(for: .state(kitchen, .inside, time), line: "{}")
                == [MQTTMessage(topic: "site/kitchen/state", payload: "inside", retain: true)])
        #expect(topics.messages(for: .state(kitchen, .unknown, time), line: "{}").isEmpty)
        let unnamed = BeaconRegion(uuid: uuid, major: 1, minor: 2)
        #expect(topics.messages(for: .state(unnamed, .outside, time), line: "{}")
                == [MQTTMessage(topic: "site/E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:1:2/state", payload: "outside", retain: true)])
    }

    @Test("enter, exit and range lines go to a topic per region and event, not retained")
    func events() {
        let topics = MonitorTopics(prefix: "beacon", room: nil)
        let region = BeaconRegion(uuid: uuid)
        #expect(topics.messages(for: .enter(region, time), line: "E") == [MQTTMessage(topic: "beacon/E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/enter", payload: "E")])
        #expect(topics.messages(for: .exit(region, time), line: "X") == [MQTTMessage(topic: "beacon/E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/exit", payload: "X")])
        #expect(topics.messages(for: .range(region, time, [beacon(minor: 2, accuracy: 1)]), line: "R")
                == [MQTTMessage(topic: "beacon/E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/range", payload: "R")])
    }

    @Test("with a room, each ranged beacon with a known distance is an mqtt_room message")
    func roomPresence() {
        let topics = MonitorTopics(prefix: "beacon", room: "kitchen")
        let keys = BeaconRegion(name: "keys", uuid: uuid, major: 1)
        let messages = topics.messages(for: .range(keys, time, [beacon(minor: 2, accuracy: 0.67), beacon(minor: 3, accuracy: -1)]),
                                       line: "R")
        #expect(messages.dropFirst().map(\.topic) == ["room_presence/kitchen"])
        #expect(messages.last?.payload == #"{"id":"e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-2","name":"keys","distance":0.67}"#)
        let anonymous = topics.messages(for: .partialRange(BeaconRegion(uuid: uuid), time, [beacon(minor: 2, accuracy: 2)]), line: "R")
        #expect(anonymous.last?.payload == #"{"id":"e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-2","name":"e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-2","distance":2.00}"#)
    }
}
