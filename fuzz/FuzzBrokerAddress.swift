import BeaconCore
import BeaconMQTT

// MQTT broker URLs (--mqtt): never traps; an accepted URL has a host, a port MQTT can use, and a topic
// prefix and user name that libmosquitto will take (no control characters or noncharacters, the
// prefix short enough for every topic built on it); a gateway's topics on it are as valid.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBrokerAddress(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: fuzzInput(data, size), as: UTF8.self)
    guard case .success(let address) = BrokerAddress.parse(text) else { return 0 }
    require(!address.host.isEmpty, "empty host accepted: \(text)")
    require((1...65_535).contains(address.port), "port \(address.port) accepted")
    require(address.prefix.utf8.count <= BrokerAddress.maximumPrefixBytes, "prefix of \(address.prefix.utf8.count) bytes accepted")
    for text in [address.prefix, address.username ?? ""] {
        require(!text.unicodeScalars.contains(where: \.isControlOrNoncharacter), "a control character or noncharacter accepted")
    }
    let topics = GatewayTopics(prefix: address.prefix, name: "gw1")
    require(topics.readings.utf8.count <= 65_535, "a readings topic of \(topics.readings.utf8.count) bytes")
    return 0
}
