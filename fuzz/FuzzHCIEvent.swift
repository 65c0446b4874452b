import BeaconCore

// HCI event decoder: a decoded event re-encodes to exactly the bytes it was decoded from (code,
// declared length, declared parameters), and the in-place report walk agrees with the decoder.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHCIEvent(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    let decoded: HCIEvent
    do {
        decoded = try HCIEvent.decode(bytes)
    } catch {
        _ = error.description
        require(error.offset >= 0 && error.offset <= bytes.count, "error offset \(error.offset) outside \(bytes.count) bytes")
        return 0
    }
    // Decoding succeeded, so the declared length is there; bytes beyond it are not part of the event.
    let declared = 2 + Int(bytes[1])
    let encoded = decoded.encode()
    require(encoded.elementsEqual(bytes.prefix(declared)),
            "re-encoding \(Hex.encode(encoded)) != input \(Hex.encode(Array(bytes.prefix(declared))))")
    require((try? HCIEvent.decode(encoded)) == decoded, "decode(encode(e)) != e")
    _ = decoded.code.name

    var walked: [AdvertisingReport] = []
    let isReport: Bool
    do {
        isReport = try HCIEvent.forEachAdvertisingReport(inEvent: bytes[...]) { walked.append($0) }
    } catch {
        require(false, "walk failed where decode succeeded: \(error)")
        return 0
    }
    switch decoded {
    case .leMeta(.advertisingReport(let reports)), .leMeta(.extendedAdvertisingReport(let reports)):
        require(isReport && walked == reports, "walk \(walked) != decoded \(reports)")
        for report in reports { _ = SightingDecoder.sighting(from: report, at: Timestamp(microseconds: 0)) }
    default:
        require(!isReport && walked.isEmpty, "walk visited reports of a non-report event")
    }
    return 0
}
