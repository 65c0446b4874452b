extension Unicode.Scalar {
    /// A control character or a noncharacter: neither may stand in a region's name, a room or an MQTT
    /// topic (MQTT 3.1.1 section 1.5.3; libmosquitto refuses to send them).
    public var isControlOrNoncharacter: Bool {
        properties.generalCategory == .control || properties.isNoncharacterCodePoint
    }
}
