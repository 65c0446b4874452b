import BeaconCore

// HCI event decoder: a decoded event re-encodes to exactly the bytes it was decoded from (code,
// declared length, declared parameters), the in-place report walk agrees with the decoder, and the
// sightings of an event (read in one step when it holds one legacy report) are those of its reports.
// The same input read as the parameters of the kernel's Device Found (and Advertisement Monitor Device
// Found) must decode or throw within its bytes, and a decoded one's LE Advertising Report event must
// decode to one report carrying its address, RSSI and (whole structures of) its data.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHCIEvent(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    checkDeviceFound(Array(bytes))
    let decoded: HCIEvent
    do {
        decoded = try HCIEvent.decode(bytes)
    } catch {
        _ = error.description
        require(error.offset >= 0 && error.offset <= bytes.count, "error offset \(error.offset) outside \(bytes.count) bytes")
        if (try? SightingDecoder.forEachSighting(inEvent: bytes[...], at: Timestamp(microseconds: 0)) { _ in }) != nil,
           bytes.count >= 3, bytes[0] == 0x3E, bytes[2] == 0x02 || bytes[2] == 0x0D {
            require(false, "sightings read from an advertising report event that does not decode")
        }
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
        var chains = FragmentChains()
        let expected = reports.compactMap { report in
            chains.isWhole(report) ? sighting(of: report, at: Timestamp(microseconds: 0)) : nil
        }
        var sightings: [Sighting] = []
        do {
            try SightingDecoder.forEachSighting(inEvent: bytes[...], at: Timestamp(microseconds: 0)) { sightings.append($0) }
        } catch {
            require(false, "sightings failed where decode succeeded: \(error)")
        }
        require(sightings == expected, "sightings \(sightings) != those of the decoded reports \(expected)")
    default:
        require(!isReport && walked.isEmpty, "walk visited reports of a non-report event")
    }
    return 0
}

private func checkDeviceFound(_ parameters: [UInt8]) {
    for code in [ManagementDeviceFound.deviceFoundCode, ManagementDeviceFound.monitorDeviceFoundCode] {
        let found: ManagementDeviceFound
        do {
            found = try ManagementDeviceFound(code: code, parameters: parameters)
        } catch {
            _ = error.description
            require(error.offset >= 0 && error.offset <= parameters.count, "Device Found error offset \(error.offset) outside \(parameters.count) bytes")
            continue
        }
        guard let event = found.advertisingReportEvent else {
            require(found.addressType != 1 && found.addressType != 2, "no report for an LE address type")
            continue
        }
        guard case .leMeta(.advertisingReport(let reports)) = try? HCIEvent.decode(ArraySlice(event)), reports.count == 1 else {
            require(false, "the report event of a Device Found does not decode to one report: \(Hex.encode(event))")
            continue
        }
        let report = reports[0]
        require(report.rssi == found.rssi && report.address.value == found.address & 0xFFFF_FFFF_FFFF,
                "the report's RSSI or address differ from the Device Found's")
        require(found.data.starts(with: report.data) && report.data.count <= ManagementDeviceFound.maxReportData,
                "the report carries \(report.data.count) bytes that do not begin the Device Found's data")
    }
}
