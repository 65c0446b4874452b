extension Unicode.Scalar {
    /// A control character or a noncharacter: neither may stand in a region's name, a room or an MQTT
    /// topic (MQTT 3.1.1 section 1.5.3; libmosquitto refuses to send them).
    ///
    /// By value rather than through the stdlib's property tables, which cost about 20 times as much: every
    /// character of every beacon id in every readings message passes here. Both sets are fixed by Unicode's
    /// stability policies: the controls (Cc) are U+0000–U+001F and U+007F–U+009F, the noncharacters
    /// U+FDD0–U+FDEF and the last two code points of each plane.
    public var isControlOrNoncharacter: Bool {
        let v = value
        return v < 0x20 || (0x7F...0x9F).contains(v) || (0xFDD0...0xFDEF).contains(v) || v & 0xFFFE == 0xFFFE
    }
}
