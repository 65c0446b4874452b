/// One message to publish.
public struct MQTTMessage: Equatable, Sendable {
    public var topic: String
    public var payload: String
    /// The broker keeps the last retained message of a topic for subscribers that join later.
    public var retain: Bool

    public init(topic: String, payload: String, retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
    }
}
