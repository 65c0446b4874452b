import BeaconCore

// Beacon frames of every format: BeaconFrame.find agrees with a walk of the AD structures; each
// decoder's fields are the bytes it read; an Eddystone URL is at most 17 bytes of allowed codes and
// writes out to its scheme and expansions; scan aggregation and the no-match hint never trap on
// whatever frames the input makes.

/// The first frame found by walking the structures, skipping malformed Eddystone frames and stopping
/// at the first malformed structure.
func firstFrameByWalking(_ data: ArraySlice<UInt8>) -> BeaconFrame? {
    var walker = ADWalker(data)
    do {
        while let structure = try walker.next() {
            if let frame = try? BeaconFrame.decode(structure) { return frame }
        }
    } catch {
        // Structures before the malformed one count.
    }
    return nil
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBeaconFrames(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)

    // As advertising data.
    let found = BeaconFrame.find(inAdvertisingData: bytes[...])
    require(found == firstFrameByWalking(bytes[...]), "find \(String(describing: found)) disagrees with the walk")

    // As manufacturer data: an AltBeacon's fields are its bytes, and it is never also an iBeacon.
    if let beacon = AltBeacon(manufacturerData: bytes[...]) {
        require(bytes.count >= AltBeacon.manufacturerDataLength && bytes[2] == 0xBE && bytes[3] == 0xAC, "AltBeacon without its code")
        require(beacon.identity.id1.bytes.elementsEqual(bytes[4..<20]), "ID1 is not its bytes")
        require(Int8(bitPattern: bytes[24]) == beacon.referenceRSSI && bytes[25] == beacon.reserved, "trailing fields moved")
        require(IBeacon(manufacturerData: bytes[...]) == nil, "both an iBeacon and an AltBeacon")
    }

    // As service data.
    do {
        if let frame = try EddystoneFrame.decode(serviceData: bytes[...]) {
            require(bytes.count >= 3 && bytes[0] == 0xAA && bytes[1] == 0xFE, "Eddystone without its UUID")
            if case .url(_, let url) = frame {
                let encoded = url.encoded
                require(encoded.count <= EddystoneURL.maximumEncodedLength, "URL longer than 17 bytes")
                require(encoded.elementsEqual(bytes.dropFirst(5)), "URL bytes are not the input's")
                require(encoded.allSatisfy { $0 < 0x0E || ($0 > 0x20 && $0 < 0x7F) }, "reserved URL byte accepted")
                require(url.url.hasPrefix(EddystoneURL.schemes[Int(url.scheme)]), "URL without its scheme")
            }
            if case .tlm(let tlm) = frame, let temperature = tlm.temperature {
                require(temperature >= -128 && temperature < 128, "temperature out of 8.8 range")
            }
        }
    } catch {
        require(error.offset >= 0 && error.offset <= bytes.count, "error offset \(error.offset) outside the input")
        _ = error.description
    }

    // The frames the input holds, one per AD structure, as sightings: aggregated, hinted, printed.
    var aggregator = ScanAggregator(interval: .milliseconds(10))
    var hint = NoMatchHint(regions: [BeaconRegion(uuid: BeaconUUID(high: 1, low: 2)),
                                     BeaconRegion(.eddystoneUID(namespace: EddystoneNamespace(high: 0, low: 0), instance: nil))])
    var walker = ADWalker(bytes[...])
    var step: Int64 = 0
    var lines = 0
    while let structure = try? walker.next() {
        guard let frame = try? BeaconFrame.decode(structure) else { continue }
        step += 3
        let sighting = Sighting(frame: frame, rssi: Int8(truncatingIfNeeded: step), address: DeviceAddress(value: UInt64(step % 2)),
                                addressType: .randomDevice, time: Timestamp(microseconds: step * 1000))
        if let text = hint.note(sighting) { _ = text.count }
        aggregator.sighting(sighting) { lines += ScanLine.encode($0).isEmpty ? 0 : 1 }
        _ = ScanLine.encode(.advertisement(sighting))
    }
    aggregator.finish(at: Timestamp(microseconds: step * 1000 + 5)) { lines += ScanLine.encode($0).isEmpty ? 0 : 1 }
    return 0
}
