import BeaconCore

// JSON reader: never traps, reads the same input the same way twice, keeps numbers finite and object
// keys unique, and every refusal is one line.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONValue(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    do {
        let value = try JSONValue.parse(bytes, maximumDepth: 16, maximumBytes: 2048)
        require((try? JSONValue.parse(bytes, maximumDepth: 16, maximumBytes: 2048)) == value, "read differently twice")
        checkWellFormed(value)
    } catch {
        require(!error.description.contains("\n") && !error.description.contains("\r"), "multi-line error: \(error)")
        require(bytes.count <= 2048 || error.position == nil, "oversized input refused for another reason: \(error)")
    }
    return 0
}

private func checkWellFormed(_ value: JSONValue) {
    switch value {
    case .number(let number): require(number.isFinite, "non-finite number \(number)")
    case .array(let elements): elements.forEach(checkWellFormed)
    case .object(let members):
        require(Set(members.map(\.0)).count == members.count, "duplicate keys kept")
        members.forEach { checkWellFormed($0.1) }
    default: break
    }
}
