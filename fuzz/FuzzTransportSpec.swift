import BeaconCore

// Transport spec parser: never traps, a parsed spec's canonical text parses back to the same spec,
// and every error lists the valid forms.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTransportSpec(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: fuzzInput(data, size), as: UTF8.self)
    do {
        let spec = try TransportSpec.parse(text)
        let canonical = spec.description
        require((try? TransportSpec.parse(canonical)) == spec, "'\(canonical)' does not parse back to \(spec)")
    } catch {
        require(error.description.hasSuffix("valid forms: \(TransportSpec.forms)"), "error without the forms: \(error)")
    }
    return 0
}
